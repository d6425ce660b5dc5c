package engine

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/cache"
)

// summaryVersion changes when FileSummary's meaning does.
const summaryVersion = 3 // 3: a parsed summary lists every host function (2cd0641)

func summaryKey(binary, src []byte, additions *knowledge.Additions) cache.Key {
	h := sha256.New()
	fmt.Fprintf(h, "lazylint summary %d\n%x\n%s%d\n", summaryVersion, binary, additions.Key(), len(src))
	h.Write(src)
	var k cache.Key
	h.Sum(k[:0])
	return k
}

// summarize parses the files at the indices for their summaries, through
// the cache when there is one. A file that cannot be read or parsed now
// (it vanished, it is binary or too large) simply has no summary: its
// error, if any, was or will be reported by the per-file check.
func (pr *projectRun) summarize(indices []int) { pr.summarizeWith(indices, true) }

// summarizeLexically summarizes the files at the indices from their text
// alone (cudaparse.LexicalSummary): for the functions a file calls through
// another, what they load is enough.
func (pr *projectRun) summarizeLexically(indices []int) { pr.summarizeWith(indices, false) }

func (pr *projectRun) summarizeWith(indices []int, parse bool) {
	var mu sync.Mutex
	var binary []byte // the summary cache's key; hashing the binary costs a small project's run
	if pr.opts.Cache != nil {
		binary, _ = cache.BinaryHash()
	}
	pr.onWorkers(indices, func(parser **cudaparse.Parser, i int) {
		sum, parsed := pr.summarizeOne(parser, binary, i, parse)
		sum.MoveSteps(pr.steps)
		mu.Lock()
		pr.facts[i].setSummary(sum)
		pr.facts[i].set(factLexical, sum != nil && !parse)
		if parsed {
			pr.parsed++
		}
		mu.Unlock()
	})
}

// onWorkers calls do for each of the indices on the run's workers, each
// worker with a parser of its own (created by do on first need).
func (pr *projectRun) onWorkers(indices []int, do func(parser **cudaparse.Parser, i int)) {
	onPool(len(indices), pr.workers, func(w *worker, k int) { do(&w.parser, indices[k]) })
}

func (pr *projectRun) summarizeOne(parser **cudaparse.Parser, binary []byte, i int, parse bool) (sum *cudaparse.FileSummary, parsed bool) {
	defer func() {
		if recover() != nil {
			sum = nil // a bug in the facts: the file takes no part
		}
	}()
	src, err := ReadSource(pr.sources.abs(i))
	if err != nil || binaryError(src) != nil {
		return nil, false
	}
	additions := pr.settings(pr.sources.abs(i)).Additions
	if !parse {
		return pr.lexicalSummary(i, src, additions), false
	}
	return parsedSummary(parser, &pr.opts, binary, pr.sources.shown(i), src, additions)
}

// lexicalSummary summarizes file i from its text src, with the timer
// classes its scan found when it was scanned.
func (pr *projectRun) lexicalSummary(i int, src []byte, additions *knowledge.Additions) *cudaparse.FileSummary {
	additions = pr.withMacroLaunchers(additions)
	if ff := &pr.facts[i]; ff.is(factTimersKnown) {
		return cudaparse.LexicalSummaryWithTimers(pr.sources.shown(i), src, nil, additions, ff.scanResult().timers)
	}
	return cudaparse.LexicalSummary(pr.sources.shown(i), src, nil, additions)
}

// parsedSummary returns the summary of a file's parse, through the cache
// (keyed on the bytes, the binary and the configuration's additions: a
// file's summary depends on nothing else); parsed says whether it parsed.
func parsedSummary(parser **cudaparse.Parser, opts *Options, binary []byte, shown string, src []byte, additions *knowledge.Additions) (sum *cudaparse.FileSummary, parsed bool) {
	var key cache.Key
	if opts.Cache != nil && binary != nil {
		key = summaryKey(binary, src, additions)
		if data, ok := opts.Cache.Get(key); ok {
			if s, ok := decodeSummary(data); ok {
				s.Path = shown
				return s, false
			}
		}
	}
	c := &Checker{ParseLimit: opts.ParseLimit, MaxParseBytes: opts.MaxParseBytes, Additions: additions}
	f, err := c.parse(parser, shown, src, false)
	if err != nil || f == nil {
		return nil, err == nil
	}
	sum = f.Summary()
	if opts.Cache != nil && binary != nil {
		if data, err := encodeSummary(sum); err == nil {
			opts.Cache.Put(key, data)
		}
	}
	return sum, true
}

// summaries counts the files summarized so far.
func (pr *projectRun) summaries() int {
	n := 0
	for i := range pr.facts {
		if pr.facts[i].summary() != nil {
			n++
		}
	}
	return n
}
