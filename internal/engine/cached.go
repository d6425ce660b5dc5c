package engine

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/suppress"
)

// The warm cache keeps the result of each C/C++/CUDA file that needed a
// parse; files no rule can fire on are cheaper to check than to look up.

// cacheEntryVersion changes when the entry's layout does.
const cacheEntryVersion = 3

// cachedFinding is a Finding on disk. encoding/json drops an embedded
// field that a shallower one of the same name shadows: Rule (an ID) shadows
// the rule pointer, and Finding.Related the rule's byte-range related
// locations, which RuleRelated carries instead. Paths are restored from
// the file: the same bytes under another name give the same entry.
type cachedFinding struct {
	Finding
	Rule        string
	RuleRelated []rule.RelatedLocation
}

func toCached(f Finding) cachedFinding {
	return cachedFinding{Finding: f, Rule: f.Rule.ID, RuleRelated: f.Finding.Related}
}

type cacheEntry struct {
	Version    int
	Findings   []cachedFinding
	Suppressed []cachedFinding
	// Summary is the file's exported facts, for project-wide analysis.
	// It is decoded only when the project step needs it (summaryRef).
	Summary json.RawMessage `json:",omitempty"`
}

// cacheKey hashes everything a file's result depends on: the lazylint
// binary, the settings, the options that change results, and the bytes.
func cacheKey(binary []byte, s *Settings, opts *Options, src []byte, projectDigest [32]byte, noSummary bool) cache.Key {
	h := sha256.New()
	fmt.Fprintf(h, "lazylint cache %d\n%x\nlow-confidence=%v unused=%v\nproject %x\nno-summary=%v\n", cacheEntryVersion, binary, opts.LowConfidence, opts.ReportUnusedSuppressions, projectDigest, noSummary)
	h.Write(s.appendKey(nil))
	fmt.Fprintf(h, "%d\n", len(src))
	h.Write(src)
	var k cache.Key
	h.Sum(k[:0])
	return k
}

// appendKey appends to b what of the settings changes a file's results:
// each rule with its severity and options, and the team's additions to
// the tables. The project memo writes it for every file of the tree, so it
// is built without fmt.
func (s *Settings) appendKey(b []byte) []byte {
	b = append(b, s.Additions.Key()...)
	for _, r := range s.Rules {
		b = append(b, "rule "...)
		b = append(b, r.ID...)
		b = append(b, " severity="...)
		b = strconv.AppendInt(b, int64(s.severity(r)), 10)
		b = append(b, '\n')
		names := make([]string, 0, len(s.RuleOptions[r.ID]))
		for name := range s.RuleOptions[r.ID] {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			b = append(b, "option "...)
			b = strconv.AppendQuote(b, name)
			b = append(b, '=')
			b = strconv.AppendQuote(b, s.RuleOptions[r.ID][name])
			b = append(b, '\n')
		}
	}
	return b
}

func encodeEntry(r FileResult, sum *cudaparse.FileSummary) ([]byte, error) {
	e := cacheEntry{Version: cacheEntryVersion}
	if sum != nil {
		raw, err := json.Marshal(sum)
		if err != nil {
			return nil, err
		}
		e.Summary = raw
	}
	for _, f := range r.Findings {
		e.Findings = append(e.Findings, toCached(f))
	}
	for _, f := range r.Suppressed {
		e.Suppressed = append(e.Suppressed, toCached(f))
	}
	return json.Marshal(e)
}

// decodeEntry rebuilds a result for the file shown as path; false when the
// entry is corrupt or names a rule not in s.
func decodeEntry(data []byte, s *Settings, path string) (FileResult, *summaryRef, bool) {
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Version != cacheEntryVersion {
		return FileResult{}, nil, false
	}
	var ref *summaryRef
	if len(e.Summary) > 0 {
		ref = &summaryRef{raw: e.Summary, path: path}
	}
	byID := map[string]*rule.Rule{suppress.Rule.ID: suppress.Rule}
	for _, r := range s.Rules {
		byID[r.ID] = r
	}
	restore := func(in []cachedFinding) ([]Finding, bool) {
		var out []Finding
		for _, c := range in {
			f := c.Finding
			if f.Rule = byID[c.Rule]; f.Rule == nil {
				return nil, false
			}
			f.Finding.Related = c.RuleRelated
			f.Path = path
			for i := range f.Related {
				f.Related[i].Path = path
			}
			out = append(out, f)
		}
		return out, true
	}
	var r FileResult
	var ok1, ok2 bool
	r.Findings, ok1 = restore(e.Findings)
	r.Suppressed, ok2 = restore(e.Suppressed)
	return r, ref, ok1 && ok2
}

// summaryRef is a file's summary, parsed now or read from the cache and
// decoded on first use: a warm run whose project memo hits never needs
// it.
type summaryRef struct {
	sum  *cudaparse.FileSummary
	raw  json.RawMessage
	path string
}

func (r *summaryRef) get() *cudaparse.FileSummary {
	if r == nil {
		return nil
	}
	if r.sum == nil && len(r.raw) > 0 {
		var s cudaparse.FileSummary
		if json.Unmarshal(r.raw, &s) == nil {
			s.Path = r.path
			r.sum = &s
		}
		r.raw = nil
	}
	return r.sum
}

func encodeSummary(s *cudaparse.FileSummary) ([]byte, error) { return json.Marshal(s) }

func decodeSummary(data []byte) (*cudaparse.FileSummary, bool) {
	var s cudaparse.FileSummary
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, false
	}
	return &s, true
}
