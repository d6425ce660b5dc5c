package engine

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/fastread"
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
func hashSources(checked, context []string, hashes []uint64, workers int, stamps *stampedSources) (int64, bool) {
	var bytesRead atomic.Int64
	var failed atomic.Bool
	onPool(len(checked)+len(context), workers, func(_ *worker, i int) {
		path := ""
		if i < len(checked) {
			path = checked[i]
		} else {
			path = context[i-len(checked)]
		}
		if e, ok := stamps.unchanged(i); ok {
			hashes[i] = e.hash
			if i < len(checked) {
				bytesRead.Add(e.size)
			}
			return
		}
		src, stamp, err := readSourceStamped(path)
		if err == nil {
			hashes[i] = xxhash.Sum64(src)
		}
		stamps.read(i, statEntry{stamp: stamp, hash: hashes[i], size: int64(len(src))}, err == nil)
		switch {
		case err != nil && i < len(checked):
			failed.Store(true)
		case err == nil:
			if i < len(checked) {
				bytesRead.Add(int64(len(src)))
			}
		}
	})
	return bytesRead.Load(), !failed.Load()
}

// stampedSources is a run's use of the stat index: the index of the last
// run (old, nil for none) and what this run learns (fresh), by source.
// A nil *stampedSources reads every file.
type stampedSources struct {
	abs   []string // the sources' absolute paths
	old   *statIndex
	fresh []statEntry
	// started is when this run began stamping (before it read a file).
	started time.Time
	reread  atomic.Int64
}

func newStampedSources(abs []string, old *statIndex) *stampedSources {
	return &stampedSources{abs: abs, old: old, fresh: make([]statEntry, len(abs)), started: time.Now()}
}

// unchanged returns source i's entry when the old index may stand for its
// text (and keeps it for the next index).
func (s *stampedSources) unchanged(i int) (statEntry, bool) {
	if s == nil || s.old == nil {
		return statEntry{}, false
	}
	e, ok := s.old.unchanged(s.abs[i], fastread.StampOf(s.abs[i]))
	if ok {
		s.fresh[i] = e
	}
	return e, ok
}

// read notes that source i was read, and its entry when it could be.
func (s *stampedSources) read(i int, e statEntry, ok bool) {
	if s == nil {
		return
	}
	s.reread.Add(1)
	if ok && e.stamp.Known() {
		s.fresh[i] = e
	}
}

// encode returns the index for the next run (statIndex.encode): the
// entries of the files this run read or trusted, written as they are
// (a large tree's index as a map cost tens of MB for a moment).
func (s *stampedSources) encode() []byte {
	n := 0
	for _, e := range s.fresh {
		if e.stamp.Known() {
			n++
		}
	}
	out := appendStatIndexHead(nil, s.started.UnixNano(), n)
	for i, e := range s.fresh {
		if e.stamp.Known() {
			out = appendStatEntry(out, s.abs[i], e)
		}
	}
	return out
}

func projectMemoKey(opts *Options, shown []string, hashes []uint64, settings func(string) Settings, sources []string) cache.Key {
	h := sha256.New()
	binary, _ := cache.BinaryHash()
	fmt.Fprintf(h, "lazylint project memo %d\n%x\nlow-confidence=%v unused=%v\n", projectMemoVersion, binary, opts.LowConfidence, opts.ReportUnusedSuppressions)
	fmt.Fprintf(h, "include %q\nmacros %v\nroot %q\n", opts.IncludeDirs, opts.GlobalMacros, opts.ProjectRoot)
	var line []byte
	for i := range shown {
		s := settings(sources[i])
		// Path, text and settings as the per-file key has them (rules,
		// severities, options).
		line = append(line[:0], shown[i]...)
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

func encodeMemo(results []sourceResult, rechecked map[int]bool, shown []string, stats *Stats) ([]byte, error) {
	e := memoEntry{Version: projectMemoVersion, Complete: true, LinkParsed: stats.LinkParsed, Rechecked: stats.Rechecked, ProjectFunctions: stats.ProjectFunctions}
	for i := range results {
		r := &results[i]
		if r.how != skipped {
			e.Checked++
		}
		if r.Err != nil {
			e.Complete = false
			continue
		}
		if !rechecked[i] && len(r.Findings) == 0 && len(r.Suppressed) == 0 {
			continue
		}
		data, err := encodeEntry(r.FileResult, nil)
		if err != nil {
			return nil, err
		}
		e.Files = append(e.Files, memoFile{Path: shown[i], Entry: data})
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
func applyMemo(e *memoEntry, results []sourceResult, shown []string, settings func(string) Settings, sources []string, stats *Stats) bool {
	at := make(map[string]int, len(results))
	for i := range results {
		at[shown[i]] = i
	}
	decoded := map[int]FileResult{}
	for _, f := range e.Files {
		i, ok := at[f.Path]
		if !ok {
			return false
		}
		s := settings(sources[i])
		r, _, ok := decodeEntry(f.Entry, &s, f.Path)
		if !ok {
			return false
		}
		decoded[i] = r
	}
	for i, r := range decoded {
		results[i].FileResult = r
	}
	stats.LinkParsed, stats.Rechecked, stats.ProjectFunctions = e.LinkParsed, e.Rechecked, e.ProjectFunctions
	return true
}
