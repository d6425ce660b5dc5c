package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/internal/engine"
)

// writeDiff prints the fixes as one unified diff and returns the exit
// code: 1 when there is something to fix, 2 on file errors.
func writeDiff(cmd *cobra.Command, fixes []engine.FileFix, errs []engine.FileError) error {
	out := cmd.OutOrStdout()
	changed := false
	for _, f := range fixes {
		from, to := "a/"+f.Path, "b/"+f.Path
		if filepath.IsAbs(f.Path) {
			from, to = f.Path, f.Path
		}
		d := udiff.Unified(from, to, string(f.Old), string(f.New))
		if d == "" {
			continue
		}
		changed = true
		if _, err := fmt.Fprint(out, d); err != nil {
			return err
		}
	}
	for _, e := range errs {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: error: %s\n", e.Path, e.Message)
	}
	switch {
	case len(errs) > 0:
		return exitError{ExitFailure}
	case changed:
		return exitError{ExitFindings}
	}
	return nil
}

// writeFixes writes the fixed files in place, keeping their permissions,
// and says on stderr what it did.
func writeFixes(cmd *cobra.Command, fixes []engine.FileFix) error {
	applied, skipped, files := 0, 0, 0
	for _, f := range fixes {
		skipped += f.Skipped
		if string(f.New) == string(f.Old) {
			continue
		}
		st, err := os.Stat(f.Path)
		if err != nil {
			return fmt.Errorf("cannot fix %s: %w", f.Path, err)
		}
		if err := writeFileAtomic(f.Path, f.Encoded(), st.Mode().Perm()); err != nil {
			return fmt.Errorf("cannot fix %s: %w", f.Path, err)
		}
		applied += f.Applied
		files++
	}
	msg := fmt.Sprintf("lazylint: fixed %d finding(s) in %d file(s)", applied, files)
	if skipped > 0 {
		msg += fmt.Sprintf("; %d fix(es) overlapped another and were left for a second --fix run", skipped)
	}
	fmt.Fprintln(cmd.ErrOrStderr(), msg)
	return nil
}

// writeFileAtomic replaces path's contents through a temporary file in the
// same folder, so an interrupted run leaves the old file or the new one.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".lazylint-fix-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(name)
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Chmod(name, perm); err != nil {
		os.Remove(name)
		return err
	}
	if err := os.Rename(name, path); err != nil {
		os.Remove(name)
		return err
	}
	return nil
}
