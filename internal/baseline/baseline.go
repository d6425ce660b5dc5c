// Package baseline records the findings a project accepts for now, so that
// only new ones fail a run. An entry is keyed on the content of the finding
// (rule, file, the finding's line with its white space normalized), never on
// its line number: moving code, or adding lines above it, does not bring an
// accepted finding back, while a second copy of the same line is new.
package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/lazylint/lazylint/internal/engine"
)

// Version is the file format's version.
const Version = 1

// File is a baseline file.
type File struct {
	Version  int     `json:"version"`
	Tool     string  `json:"tool"`
	Findings []Entry `json:"findings"`
}

// Entry is one accepted finding, or Count identical ones.
type Entry struct {
	Rule    string `json:"rule"`
	Path    string `json:"path"` // relative to the baseline file's folder, with /
	Snippet string `json:"snippet"`
	Count   int    `json:"count"`
	// Message is for the reader of the file; it is not part of the key, so
	// that rewording a rule's message does not bring findings back.
	Message string `json:"message,omitempty"`
}

type key struct{ rule, path, snippet string }

// Baseline is a loaded baseline, ready to filter results.
type Baseline struct {
	dir    string // absolute folder of the file
	counts map[key]int
}

// Write writes the findings to a baseline file at path.
func Write(path string, findings []engine.Finding, baseDir string) error {
	dir, err := absDir(path)
	if err != nil {
		return err
	}
	byKey := map[key]*Entry{}
	var entries []*Entry
	for _, f := range findings {
		k := keyOf(f, baseDir, dir)
		if e := byKey[k]; e != nil {
			e.Count++
			continue
		}
		e := &Entry{Rule: k.rule, Path: k.path, Snippet: k.snippet, Count: 1, Message: f.Message}
		byKey[k] = e
		entries = append(entries, e)
	}
	sort.SliceStable(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Snippet < b.Snippet
	})
	file := File{Version: Version, Tool: "lazylint", Findings: []Entry{}}
	for _, e := range entries {
		file.Findings = append(file.Findings, *e)
	}
	// <, > and & literally (json.Marshal writes \u003c...): a committed
	// baseline of C++ lines (templates, &&, ->) stays readable in a diff.
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(file); err != nil {
		return err
	}
	return os.WriteFile(path, data.Bytes(), 0o644)
}

// Read reads a baseline file.
func Read(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var file File
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, fmt.Errorf("%s: not a lazylint baseline: %w", path, err)
	}
	if file.Version != Version || file.Tool != "lazylint" {
		return nil, fmt.Errorf("%s: not a lazylint baseline of version %d (tool %q, version %d)", path, Version, file.Tool, file.Version)
	}
	dir, err := absDir(path)
	if err != nil {
		return nil, err
	}
	b := &Baseline{dir: dir, counts: map[key]int{}}
	for i, e := range file.Findings {
		if e.Rule == "" || e.Path == "" || e.Count < 1 {
			return nil, fmt.Errorf("%s: entry %d needs a rule, a path and a count of at least 1", path, i+1)
		}
		b.counts[key{e.Rule, e.Path, e.Snippet}] += e.Count
	}
	return b, nil
}

// Filter splits findings into new ones and those the baseline accepts, and
// counts the baseline's entries that matched no finding (fixed since).
func (b *Baseline) Filter(findings []engine.Finding, baseDir string) (fresh, known []engine.Finding, stale int) {
	left := make(map[key]int, len(b.counts))
	for k, n := range b.counts {
		left[k] = n
	}
	for _, f := range findings {
		k := keyOf(f, baseDir, b.dir)
		if left[k] > 0 {
			left[k]--
			known = append(known, f)
			continue
		}
		fresh = append(fresh, f)
	}
	for _, n := range left {
		stale += n
	}
	return fresh, known, stale
}

// keyOf keys a finding, its path made relative to the baseline's folder.
func keyOf(f engine.Finding, baseDir, dir string) key {
	p := f.Path
	if !filepath.IsAbs(p) {
		p = filepath.Join(baseDir, p)
	}
	if rel, err := filepath.Rel(dir, p); err == nil {
		p = rel
	}
	return key{rule: f.Rule.ID, path: filepath.ToSlash(p), snippet: f.Snippet}
}

func absDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.Dir(abs), nil
}
