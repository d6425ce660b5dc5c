package suppress

import "github.com/lazylint/lazylint/internal/rule"

// Rule is the pseudo-rule under which lazylint reports its own suppression
// comments: malformed or unmatched ones always, unused ones with
// --report-unused-suppressions. It checks no code, so it is not in
// rules.All.
var Rule = &rule.Rule{
	ID:       "LL000",
	Name:     "suppression",
	Severity: rule.Warning,
	Since:    "0.1.0",
	Summary:  "a suppression comment that is malformed, unmatched, or (with --report-unused-suppressions) silences nothing",
	Doc: `## What it does

Reports lazylint's own suppression comments when they cannot work: a
` + "`lazylint:ignore`" + ` without a rule or without a reason, a ` + "`NOLINTBEGIN`" + `
without its ` + "`NOLINTEND`" + ` (or the reverse), and, with
` + "`--report-unused-suppressions`" + `, a comment that names lazylint but silences no
finding.

## Why

A suppression that silences nothing hides the next real finding on that
line, and one without a reason cannot be reviewed.

## Example

` + "```cuda" + `
cudaMalloc(&arena, free_bytes);  // lazylint:ignore LL001
` + "```" + `

## Fix

Give the reason (` + "`// lazylint:ignore LL001 kernels are preloaded in init()`" + `),
close the block, or delete the comment.

## Suppress

LL000 itself cannot be suppressed: mend the comment it points at.
`,
}
