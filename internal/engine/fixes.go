package engine

import (
	"os"
	"sort"

	"github.com/lazylint/lazylint/internal/rule"
)

// FileFix is what the suggested fixes make of one file.
type FileFix struct {
	Path string // as the findings show it
	// Old and New are the file's text as the rules saw it: UTF-8 without a
	// byte order mark. Encoded gives New in the file's own encoding.
	Old, New []byte
	// Applied counts the findings whose fix is in New; Skipped those whose
	// fix overlapped one taken before it (a second --fix run takes them).
	Applied, Skipped int
	enc              sourceEncoding
}

// Encoded returns New as the file is to be written: in the file's encoding
// (UTF-8, UTF-8 with a BOM, UTF-16LE or BE with a BOM), line breaks as the
// file had them.
func (f FileFix) Encoded() []byte { return encodeSource(f.New, f.enc) }

// PlanFixes reads the files of the findings that carry a suggested fix and
// returns each file's text with the first fix of each finding applied, in
// the findings' order. A fix that repeats an edit already taken (two
// findings asking for the same preload) counts as applied; one that
// overlaps a different edit is skipped. Files are not written.
func PlanFixes(findings []Finding) ([]FileFix, []FileError) {
	byPath := map[string][]Finding{}
	var paths []string
	for _, f := range findings {
		if len(f.Fixes) == 0 || len(f.Fixes[0].Edits) == 0 {
			continue
		}
		if byPath[f.Path] == nil {
			paths = append(paths, f.Path)
		}
		byPath[f.Path] = append(byPath[f.Path], f)
	}
	sort.Strings(paths)
	var out []FileFix
	var errs []FileError
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			errs = append(errs, FileError{Path: path, Message: "cannot fix: " + cleanErr(err).Error()})
			continue
		}
		src, enc, err := decodeSource(raw)
		if err != nil {
			errs = append(errs, FileError{Path: path, Message: "cannot fix: " + err.Error()})
			continue
		}
		crlf := usesCRLF(src)
		ff := FileFix{Path: path, Old: src, enc: enc}
		var taken []rule.TextEdit
		for _, f := range byPath[path] {
			var add []rule.TextEdit
			ok := true
			edits := f.Fixes[0].Edits
			if crlf {
				edits = crlfEdits(edits)
			}
			for _, e := range edits {
				if containsEdit(taken, e) {
					continue
				}
				if overlapsAny(taken, e) || overlapsAny(add, e) || e.Range.End > len(src) {
					ok = false
					break
				}
				add = append(add, e)
			}
			if !ok {
				ff.Skipped++
				continue
			}
			taken = append(taken, add...)
			ff.Applied++
		}
		ff.New, err = rule.ApplyEdits(src, taken)
		if err != nil { // cannot happen: overlaps were refused above
			errs = append(errs, FileError{Path: path, Message: "cannot fix: " + err.Error()})
			continue
		}
		out = append(out, ff)
	}
	return out, errs
}

func containsEdit(es []rule.TextEdit, e rule.TextEdit) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// overlapsAny reports whether e changes bytes another edit changes, or two
// insertions land at one offset (their order would be a guess).
func overlapsAny(es []rule.TextEdit, e rule.TextEdit) bool {
	for _, x := range es {
		if e.Range.Start < x.Range.End && x.Range.Start < e.Range.End {
			return true
		}
		if e.Range.Start == x.Range.Start || e.Range.End == x.Range.End {
			if e.Range.Start == e.Range.End || x.Range.Start == x.Range.End {
				return true
			}
		}
	}
	return false
}
