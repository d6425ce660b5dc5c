package engine

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"

	"github.com/lazylint/lazylint/internal/cache"
)

const projectMemoVersion = 3

// hashSources reads the checked files and the context files and puts the
// fingerprint of each one's text in hashes (checked first, then context,
// as in Run's sources). It returns the bytes of the checked files, and
// false when one of them could not be read (its error must be reported,
// and errors are not memoized).
//
// The fingerprint is xxHash's 64 bits, not SHA-256: it is all a warm run
// computes over every byte of the tree, and SHA-256 made that run twice
// as slow (bench/README.md). Two texts of one path with the same 64 bits
// would reuse a memo: a chance of 2^-64 per change, which the per-file
// cache (SHA-256) does not take.
//
// A file whose stamp stamps holds from the last run (statIndex) is not
// read: its fingerprint is the one kept with the stamp.
func hashSources(sources *filePaths, checked int, hashes []uint64, workers int, stamps *stampedSources) (int64, bool) {
	var bytesRead atomic.Int64
	var failed atomic.Bool
	onPool(sources.len(), workers, func(_ *worker, i int) {
		if e, ok := stamps.unchanged(i); ok {
			hashes[i] = e.hash
			if i < checked {
				bytesRead.Add(e.size)
			}
			return
		}
		src, stamp, err := readSourceStamped(sources.abs(i))
		if err == nil {
			hashes[i] = xxhash.Sum64(src)
		}
		stamps.read(i, statEntry{stamp: stamp, hash: hashes[i], size: int64(len(src))}, err == nil)
		switch {
		case err != nil && i < checked:
			failed.Store(true)
		case err == nil:
			if i < checked {
				bytesRead.Add(int64(len(src)))
			}
		}
	})
	return bytesRead.Load(), !failed.Load()
}

func projectMemoKey(opts *Options, sources *filePaths, hashes []uint64, settings func(string) Settings) cache.Key {
	h := sha256.New()
	binary, _ := cache.BinaryHash()
	fmt.Fprintf(h, "lazylint project memo %d\n%x\nlow-confidence=%v unused=%v\n", projectMemoVersion, binary, opts.LowConfidence, opts.ReportUnusedSuppressions)
	fmt.Fprintf(h, "include %q\nmacros %v\nroot %q\n", opts.IncludeDirs, opts.GlobalMacros, opts.ProjectRoot)
	var line []byte
	for i := range sources.len() {
		s := settings(sources.abs(i))
		// Path, text and settings as the per-file key has them (rules,
		// severities, options).
		line = append(line[:0], sources.shown(i)...)
		line = append(line, ' ')
		line = strconv.AppendUint(line, hashes[i], 16)
		line = append(line, '\n')
		line = s.appendKey(line)
		h.Write(line)
	}
	var out cache.Key
	h.Sum(out[:0])
	return out
}

type memoFile struct {
	Path  string
	Entry json.RawMessage
}

// memoEntry is the outcome of a run with the project step: the results of
// the files checked again (which replace their per-file results) and of
// every other file with a finding or a suppressed one. When it is
// Complete (no checked file had an error, and errors are never kept), it
// is the whole run's outcome: a file it does not list has no findings.
type memoEntry struct {
	Version  int
	Complete bool
	// Checked is how many files some rule could fire on: the files a warm
	// run without the memo takes from the cache.
	Checked                                 int
	Files                                   []memoFile
	LinkParsed, Rechecked, ProjectFunctions int
}

func encodeMemo(results sourceResults, rechecked map[int]bool, sources *filePaths, stats *Stats) ([]byte, error) {
	e := memoEntry{Version: projectMemoVersion, Complete: true, LinkParsed: stats.LinkParsed, Rechecked: stats.Rechecked, ProjectFunctions: stats.ProjectFunctions}
	for i, how := range results.how {
		if how != skipped {
			e.Checked++
		}
		out := results.result(i)
		if out.Err != nil {
			e.Complete = false
			continue
		}
		if !rechecked[i] && len(out.Findings) == 0 && len(out.Suppressed) == 0 {
			continue
		}
		data, err := encodeEntry(out, nil)
		if err != nil {
			return nil, err
		}
		e.Files = append(e.Files, memoFile{Path: sources.shown(i), Entry: data})
	}
	return json.Marshal(e)
}

// decodeMemo reads a memo back; nil when it cannot be read.
func decodeMemo(data []byte) *memoEntry {
	var e memoEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Version != projectMemoVersion {
		return nil
	}
	return &e
}

// applyMemo puts a memo's results in place; false (and nothing changed)
// when one cannot be read or names a file the run does not check.
func applyMemo(e *memoEntry, results sourceResults, sources *filePaths, settings func(string) Settings, stats *Stats) bool {
	at := newPathIndex(results.len(), sources.shown, sources.isShown)
	decoded := map[int]FileResult{}
	for _, f := range e.Files {
		i, ok := at.find(f.Path)
		if !ok {
			return false
		}
		s := settings(sources.abs(i))
		r, _, ok := decodeEntry(f.Entry, &s, f.Path)
		if !ok {
			return false
		}
		decoded[i] = r
	}
	for i, r := range decoded {
		results.set(i, r)
	}
	stats.LinkParsed, stats.Rechecked, stats.ProjectFunctions = e.LinkParsed, e.Rechecked, e.ProjectFunctions
	return true
}
