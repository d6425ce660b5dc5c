// Command lazylint finds CUDA lazy-loading hazards. See README.md.
package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/lazylint/lazylint/internal/cli"
)

func main() {
	tuneGC()
	tuneMalloc()
	os.Exit(cli.Main(os.Args[1:]))
}

// tuneMalloc bounds the C heap's arenas at one per CPU the runtime uses
// (boundMallocArenas), unless the environment sets them.
func tuneMalloc() {
	if os.Getenv("MALLOC_ARENA_MAX") != "" || strings.Contains(os.Getenv("GLIBC_TUNABLES"), "arena_max") {
		return
	}
	boundMallocArenas(runtime.GOMAXPROCS(0))
}

// tuneGC lets the heap grow to five times what is live instead of twice,
// unless the environment says otherwise: a check reads every file of a
// tree into a fresh buffer that is garbage a moment later, and collecting
// that often cost a warm run over the 151 MB corpus of bench/README.md
// about a tenth of its time (median of 15 runs 0.41-0.43 s at GOGC=100,
// 0.36-0.37 s at 400; peak RSS 31-33 -> 42-57 MB). The soft memory limit
// keeps a run that holds more (project-wide facts, parsed files kept for
// the project step: 60-80 MB live on the 151 MB corpus, which GOGC=400
// let grow to 460-500 MB of RSS) from growing far on that account.
// softMemoryLimit is the heap size past which the collector runs whatever
// GOGC says.
//
// A fixed limit is a trap on a larger tree: once what is live passes it,
// the collector runs back to back (a third of the CPU on the 38-project
// corpus twice over, and more with each doubling: the cost grew faster
// than the tree). So the limit follows the live heap (followLiveHeap,
// limitFor): liveHeadroom past it, at most twice it, as GOGC=100 would,
// and under memoryTarget while what is live allows.
//
// The peak RSS of a run whose live heap stays under half the limit is
// about the limit plus 40 MB (the binary's pages, tree-sitter's C heap,
// stacks): 176 MiB keeps the 13-project tree (live 83-91 MB) at about
// 225 MB; 192 MiB, as before, gave 240-250 MB for no measurable CPU.
const softMemoryLimit = 176 << 20

// largeHeapGCPercent is the GC percent once what is live passes
// softMemoryLimit (the 13-project tree, 58 MB live at most, never does;
// nor the 38-project corpus as one project, 94 MB; four copies of it do).
// A large tree's heap then grows a quarter past what is live instead of
// doubling: eight copies of the 38-project corpus checked
// as one project peaked at 754 MB of RSS at twice and 563 MB at a quarter,
// for 9% more CPU (143 against 131 s); 40% gave 631 MB for 3%. Lowering the
// memory limit to the same end instead cost 27% (167 s for 534 MB): the
// limit counts memory beyond the heap, so the collector ran more often, and
// returned pages to the system only to fault them back.
const largeHeapGCPercent = 25

// tuneGC returns what stops followLiveHeap (for tests).
func tuneGC() (stop func()) {
	ownPercent := os.Getenv("GOGC") == ""
	if ownPercent {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
		return followLiveHeap(20*time.Millisecond, ownPercent)
	}
	return func() {}
}

// liveHeadroom is how far past the live heap the soft limit lets the heap
// grow while the GC percent is 400 (the live heap under softMemoryLimit):
// there twice the live heap let a tree whose facts hold 120-180 MB grow
// its heap to twice that. Two copies of the 38-project corpus checked as
// one project peaked at 300-309 MB of RSS with the limit at twice the live
// heap, 274-277 MB with 96 MiB of headroom, at the same CPU (about 31 s);
// 64 MiB gave 247-256 MB for 6% more CPU. Past softMemoryLimit the GC
// percent (largeHeapGCPercent) keeps the heap closer than that, and the
// limit is memoryTarget or the heap's goal plus the runtime's overhead
// (limitFor). The
// headroom there too (the live heap plus 96 MiB, or half of it when more)
// took four copies from 360-371 to 335-344 MB for 2% more CPU, but ran
// the collector on the limit at eight copies: 4-17% more CPU for 480-491
// against 500-505 MB.
const liveHeadroom = 96 << 20

// followLiveHeap sets the soft memory limit every period, until stopped,
// to limitFor the live heap. With ownPercent (GOGC not set by the user) it
// also lowers the GC percent to largeHeapGCPercent while the live heap is
// large, and restores 400 once it is small again (a long-lived language
// server checks trees of both kinds). (Setting the limit after each
// collection instead, from a finalizer, cost a third more CPU on the
// 38-project corpus: the limit lagged a cycle behind.) The limit is set
// only when the wanted value changes, so a limit set since by other means
// stays until the live heap or the runtime's overhead moves (in steps of
// overheadStep).
func followLiveHeap(period time.Duration, ownPercent bool) (stop func()) {
	done := make(chan struct{})
	go func() {
		sample := []metrics.Sample{
			{Name: "/gc/heap/live:bytes"},
			// What the runtime holds beside the heap's objects and its
			// free pages (runtimeOverhead).
			{Name: "/memory/classes/total:bytes"},
			{Name: "/memory/classes/heap/released:bytes"},
			{Name: "/memory/classes/heap/free:bytes"},
			{Name: "/memory/classes/heap/objects:bytes"},
		}
		limit := int64(softMemoryLimit)
		large := false
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			for _, m := range sample {
				if m.Value.Kind() != metrics.KindUint64 {
					return // not known to this runtime: keep the fixed limit
				}
			}
			live := int64(sample[0].Value.Uint64())
			overhead := runtimeOverhead(sample[1].Value.Uint64(), sample[2].Value.Uint64(), sample[3].Value.Uint64(), sample[4].Value.Uint64())
			if ownPercent {
				// Large past the floor; small again below a fifth of it
				// (where GOGC=400 stays under the floor).
				switch {
				case !large && live > softMemoryLimit:
					debug.SetGCPercent(largeHeapGCPercent)
					large = true
				case large && 5*live < softMemoryLimit:
					debug.SetGCPercent(400)
					large = false
				}
			}
			if want := limitFor(live, overhead, ownPercent, large); want != limit {
				debug.SetMemoryLimit(want)
				limit = want
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// limitFor is the soft memory limit followLiveHeap sets with live bytes
// live and the runtime's overhead beside the heap's objects: twice the
// live heap; with ownPercent (GOGC ours), while the GC percent is 400
// (not large) also at most liveHeadroom past it and at most
// memoryTarget, and past that (large) at most the larger of memoryTarget
// and the GC percent's goal plus the overhead; never below
// softMemoryLimit.
//
// Below softMemoryLimit the target may have the collector run sooner
// than even largeHeapGCPercent would (from about 150 MiB live: eight
// copies of the corpus ran 25% more collections, for the same CPU). Past
// softMemoryLimit the limit never has the collector run sooner than
// largeHeapGCPercent would, but it has the runtime return the free pages
// it holds beyond that: sixteen copies of the corpus as one project
// (276-291 MiB live) peaked at 500 MB with twice the live heap,
// and a limit at 1 3/8 of it (no overhead measured) cut that to 411 MB
// for 2.6 times the collections and a quarter more CPU (457 against 362
// s, one run each), 1 1/2 of it to 442 MB for 15% more; the goal plus the
// overhead gives 461-464 MB for 1,136-1,138 collections against 884-889
// (bench/README.md).
func limitFor(live, overhead int64, ownPercent, large bool) int64 {
	want := 2 * live
	if ownPercent {
		if large {
			want = min(want, max(memoryTarget, live+live/4+overhead))
		} else {
			want = min(want, live+liveHeadroom, memoryTarget)
		}
	}
	return max(want, softMemoryLimit)
}

// runtimeOverhead is the memory the runtime holds beside the heap's
// objects and its free pages not yet returned, from runtime/metrics'
// classes: the free slots of the spans in use, stacks, the collector's
// own. It is rounded up to overheadStep: it moves with every allocation,
// and the limit need not.
func runtimeOverhead(total, released, free, objects uint64) int64 {
	held := max(int64(total)-int64(released)-int64(free)-int64(objects), 0)
	return (held + overheadStep - 1) / overheadStep * overheadStep
}

const overheadStep = 4 << 20

// memoryTarget is the Go memory (the heap's spans, stacks, the
// collector's own) a run keeps under while what is live allows: about
// 35 MB under the peak RSS (tree-sitter's C heap, the binary's pages).
//
// Without it the limit that binds while the GC percent is 400, the live
// heap plus liveHeadroom, rose past this target once 144 MiB were live,
// and past softMemoryLimit the limit was twice the live heap, a backstop
// that never bound: eight copies of the 38-project corpus checked as one
// project (170-178 MiB live at most) peaked at 318-323 MB of RSS, with
// 40-odd MB of free pages the runtime had not returned (memory classes
// at that peak, in the session before); with it at
// 280-289 MB, 25% more collections and the same CPU time (154-172
// against 149-175 s, alternated). Four copies and smaller trees never
// reach it.
const memoryTarget = 240 << 20
