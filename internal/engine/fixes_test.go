package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

func edit(start, end int, text string) rule.TextEdit {
	return rule.TextEdit{Range: cudaparse.Range{Start: start, End: end}, NewText: text}
}

func withFix(path string, edits ...rule.TextEdit) Finding {
	return Finding{Path: path, Finding: rule.Finding{Fixes: []rule.Fix{{Message: "fix", Edits: edits}}}}
}

func TestPlanFixesTakesDuplicatesOnceAndSkipsOverlaps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.cu")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	findings := []Finding{
		withFix(path, edit(2, 2, "<")),                 // insertion
		withFix(path, edit(2, 2, "<")),                 // the same insertion again: counted, taken once
		withFix(path, edit(2, 2, ">")),                 // another insertion at the same place: order unknown, skipped
		withFix(path, edit(4, 6, "xx")),                // replacement
		withFix(path, edit(5, 7, "yy")),                // overlaps it: skipped
		withFix(path, edit(8, 9, ""), edit(0, 0, "^")), // two edits, both free
		{Path: path}, // no fix
	}
	fixes, errs := PlanFixes(findings)
	if len(errs) != 0 || len(fixes) != 1 {
		t.Fatalf("fixes %+v errors %v", fixes, errs)
	}
	f := fixes[0]
	if string(f.New) != "^01<23xx679" || f.Applied != 4 || f.Skipped != 2 {
		t.Errorf("new %q applied %d skipped %d", f.New, f.Applied, f.Skipped)
	}
	if _, errs := PlanFixes([]Finding{withFix(filepath.Join(dir, "gone.cu"), edit(0, 0, "x"))}); len(errs) != 1 {
		t.Errorf("a missing file gave no error: %v", errs)
	}
}

func TestApplyEditsRefusesBadEdits(t *testing.T) {
	src := []byte("abc")
	for _, es := range [][]rule.TextEdit{{edit(0, 2, ""), edit(1, 3, "")}, {edit(2, 5, "")}, {edit(2, 1, "")}} {
		if _, err := rule.ApplyEdits(src, es); err == nil {
			t.Errorf("edits %v accepted", es)
		}
	}
	if got, err := rule.ApplyEdits(src, []rule.TextEdit{edit(3, 3, "!"), edit(0, 1, "A")}); err != nil || string(got) != "Abc!" {
		t.Errorf("got %q %v", got, err)
	}
}
