package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	stop := tuneGC()
	defer stop()
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GC percent %d, want 400", got)
	}
	if got := debug.SetMemoryLimit(-1); got != softMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, softMemoryLimit)
	}

	// The user's settings win.
	t.Setenv("GOGC", "50")
	t.Setenv("GOMEMLIMIT", "2GiB")
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(2 << 30)
	defer tuneGC()()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GC percent %d with GOGC=50, want 50", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 2<<30 {
		t.Errorf("memory limit %d with GOMEMLIMIT=2GiB, want 2 GiB", got)
	}
}

// The soft limit follows the live heap: with more than half of it live,
// it is raised to the live heap plus liveHeadroom (under twice it); past
// it, the GC percent drops to largeHeapGCPercent and the limit is the
// percent's goal and the runtime's overhead; the percent comes back once
// little is live.
func TestLimitFollowsLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	debug.SetMemoryLimit(softMemoryLimit)
	stop := followLiveHeap(time.Millisecond, true)
	defer stop()
	held := make([][]byte, 0, 192)
	for range 128 { // 128 MiB live: under softMemoryLimit, over half of it
		held = append(held, make([]byte, 1<<20))
	}
	runtime.GC()
	const mid = 128<<20 + liveHeadroom
	waitFor(t, func() bool { return debug.SetMemoryLimit(-1) >= mid })
	if got := debug.SetMemoryLimit(-1); got < mid || got >= 2*128<<20 {
		t.Errorf("limit %d MiB with 128 MiB live, want the live heap plus %d MiB, under twice it", got>>20, liveHeadroom>>20)
	}
	if got := gcPercent(); got != 400 {
		t.Errorf("GC percent %d with 128 MiB live, want 400", got)
	}
	for range 64 { // 192 MiB live, more than softMemoryLimit
		held = append(held, make([]byte, 1<<20))
	}
	runtime.GC()
	const goal = 192<<20 + 192<<20*largeHeapGCPercent/100
	waitFor(t, func() bool { return debug.SetMemoryLimit(-1) >= goal && gcPercent() == largeHeapGCPercent })
	if got := debug.SetMemoryLimit(-1); got < goal || got >= 2*192<<20 {
		t.Errorf("limit %d MiB with 192 MiB live, want at least the GC percent's goal, %d MiB, under twice the live heap", got>>20, goal>>20)
	}
	if got := gcPercent(); got != largeHeapGCPercent {
		t.Errorf("GC percent %d with 192 MiB live, want %d", got, largeHeapGCPercent)
	}
	runtime.KeepAlive(held)
	clear(held) // let them go
	runtime.GC()
	waitFor(t, func() bool { return gcPercent() == 400 })
	if got := gcPercent(); got != 400 {
		t.Errorf("GC percent %d once the heap is freed, want 400", got)
	}
}

// gcPercent reads the GC percent (setting it back).
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// waitFor polls ok for up to two seconds.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !ok() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// TestLimitFor pins the limit's parts: the headroom while the GC percent
// is 400, memoryTarget as a cap there, past it the larger of memoryTarget
// and the GC percent's goal plus the runtime's overhead, twice the live
// heap at most and with the user's GOGC, and the floor.
func TestLimitFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, overhead    int64
		ownPercent, large bool
		want              int64
	}{
		{10 * mib, 0, true, false, softMemoryLimit},
		{100 * mib, 0, true, false, 100*mib + liveHeadroom},
		{170 * mib, 40 * mib, true, false, memoryTarget}, // the headroom is past the target
		{180 * mib, 10 * mib, true, true, memoryTarget},  // goal and overhead 235 MiB
		{200 * mib, 30 * mib, true, true, 280 * mib},     // goal and overhead
		{200 * mib, 300 * mib, true, true, 400 * mib},    // twice the live heap
		{170 * mib, 0, false, false, 340 * mib},          // GOGC set: twice
		{200 * mib, 0, false, true, 400 * mib},
	} {
		if got := limitFor(c.live, c.overhead, c.ownPercent, c.large); got != c.want {
			t.Errorf("limitFor(%d MiB, overhead %d MiB, own %v, large %v) = %d MiB, want %d MiB", c.live/mib, c.overhead/mib, c.ownPercent, c.large, got/mib, c.want/mib)
		}
	}
	// The overhead is what the runtime holds beside objects and free
	// pages, never below nothing, in steps of overheadStep.
	for _, c := range []struct{ total, released, free, objects, want uint64 }{
		{100 * mib, 10 * mib, 20 * mib, 50 * mib, 20 * mib},
		{100 * mib, 10 * mib, 20 * mib, 50*mib - 1, 20*mib + overheadStep},
		{10 * mib, 2 * mib, 5 * mib, 8 * mib, 0},
	} {
		if got := runtimeOverhead(c.total, c.released, c.free, c.objects); got != int64(c.want) {
			t.Errorf("runtimeOverhead(%d, %d, %d, %d) = %d, want %d", c.total, c.released, c.free, c.objects, got, c.want)
		}
	}
}
