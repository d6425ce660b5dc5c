package engine

import (
	"crypto/sha256"
	"sync"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"
)

// digest hashes the project facts file i's result may rest on: what each
// provider says of the file.
func (pr *projectRun) digest(p *link.Project, i int) [32]byte {
	h := sha256.New()
	for k := range providers {
		if pv := &providers[k]; pv.digest != nil {
			pv.digest(pr, p, i, h)
		}
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// rerun checks file i again with the project's facts. The project is
// shared by the workers, so its memoized answers are computed under mu.
func (pr *projectRun) rerun(parser **cudaparse.Parser, text *rule.Text, p *link.Project, digest [32]byte, i int, keep bool) (FileResult, checked, *cudaparse.FileSummary, bool) {
	src, err := ReadSource(pr.sources.abs(i))
	if err != nil {
		return FileResult{}, skipped, nil, false // vanished since: keep the first result
	}
	text.Reset(src)
	in := projectInput{
		project: p,
		digest:  digest,
		// Only a parse's summary replaces the one the project holds
		// (rerunAll), and only one made from the text alone.
		noSummary: pr.facts[i].summary() != nil && !pr.facts[i].is(factLexical),
	}
	for k := range providers {
		if pv := &providers[k]; pv.give != nil {
			pv.give(pr, p, i, text, &in)
		}
	}
	// A file kept from the per-file check needs no second parse, unless
	// header macros rename its calls (they are applied while parsing).
	if f := pr.kept.take(i); f != nil && len(in.facts.Macros) == 0 {
		in.parsed = f
	}
	if keep && pr.facts[i].is(factLexical) {
		// A parse's summary replaces the one from the text, and the
		// caller round checks most such files again with it.
		in.keep = func(f *cudaparse.File, _ *cudaparse.FileSummary) { pr.kept.keep(i, f) }
	}
	s := pr.settings(pr.sources.abs(i))
	// Another file's timer class it declares objects of times as a
	// configured one would.
	s.Additions = s.Additions.WithTimers(in.timers)
	out, how, ref, _ := checkText(parser, text, s, &pr.opts, pr.sources.shown(i), &in)
	return out, how, ref.get(), true
}

// spelledMacros returns the table when the text spells one of its names,
// and nil otherwise: macros a file never names cannot change its parse,
// and without them the parse of the per-file check is reused. (A header
// macro used through another is found by the first name.)
func spelledMacros(t cudaparse.MacroTable, text *rule.Text) cudaparse.MacroTable {
	for name := range t {
		if text.Contains(name) {
			return t
		}
	}
	return nil
}

// rerunAll checks the files at the indices again with the project's facts,
// on the workers, and hands each new result to done (from one goroutine
// at a time). It returns how many it checked. checkedWith holds the digest
// (digest) each file was last checked with; a file whose digest is the
// same is not checked again.
func (pr *projectRun) rerunAll(p *link.Project, indices []int, checkedWith map[int][32]byte, keep bool, done func(i int, out FileResult, how checked)) int {
	// A file checked with the same facts before (the caller round's
	// project adds facts to the first one's) would get the same result.
	// The digests are computed on the workers (the project's memos are
	// under its lock; formatting and hashing are not), then compared in
	// order.
	all := make([][32]byte, len(indices))
	onPool(len(indices), pr.workers, func(_ *worker, k int) { all[k] = pr.digest(p, indices[k]) })
	var digests [][32]byte
	kept := indices[:0:0]
	for k, i := range indices {
		d := all[k]
		if last, ok := checkedWith[i]; ok && last == d {
			continue
		}
		checkedWith[i] = d
		kept = append(kept, i)
		digests = append(digests, d)
	}
	indices = kept
	var mu sync.Mutex
	onPool(len(indices), pr.workers, func(w *worker, k int) {
		i := indices[k]
		out, how, sum, ok := pr.rerun(&w.parser, &w.text, p, digests[k], i, keep)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		// A parse's summary replaces one made from the text alone, which
		// knows no order of calls.
		if sum != nil && (pr.facts[i].summary() == nil || pr.facts[i].is(factLexical)) {
			sum.Path = pr.sources.shown(i)
			sum.MoveSteps(pr.steps) // as every summary the project keeps
			if pr.facts[i].is(factLexical) {
				pr.upgraded++
			}
			pr.facts[i].setSummary(sum)
			pr.facts[i].set(factLexical, false)
		}
		done(i, out, how)
	})
	return len(indices)
}

// The include graph. `#include "x.h"` is looked for beside the includer,
// then in the include folders (configuration, compile_commands.json), then
// among the project's files by path suffix: of several, the one nearest
// the includer. `#include <...>` is looked for the same way without the
// first step; system headers are not in the project and are never read.
