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
// it, the GC percent drops to largeHeapGCPercent and the limit is 1 3/8
// times what is live; the percent comes back once little is live.
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
	const large = 192<<20 + 192<<20*3/8
	waitFor(t, func() bool { return debug.SetMemoryLimit(-1) >= large && gcPercent() == largeHeapGCPercent })
	if got := debug.SetMemoryLimit(-1); got < large || got >= 2*192<<20 {
		t.Errorf("limit %d MiB with 192 MiB live, want at least %d MiB, under twice the live heap", got>>20, large>>20)
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
// is 400, memoryTarget as a cap where it binds, 1 3/8 of the live heap
// past it, twice the live heap with the user's GOGC, and the floor.
func TestLimitFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live              int64
		ownPercent, large bool
		want              int64
	}{
		{10 * mib, true, false, softMemoryLimit},
		{100 * mib, true, false, 100*mib + liveHeadroom},
		{170 * mib, true, false, memoryTarget}, // headroom past the target
		{170 * mib, true, true, memoryTarget},  // 1 3/8 of it is 233.75 MiB
		{200 * mib, true, true, 275 * mib},     // 1 3/8 of it
		{170 * mib, false, false, 340 * mib},   // GOGC set: twice
		{200 * mib, false, false, 400 * mib},
	} {
		if got := limitFor(c.live, c.ownPercent, c.large); got != c.want {
			t.Errorf("limitFor(%d MiB, own %v, large %v) = %d MiB, want %d MiB", c.live/mib, c.ownPercent, c.large, got/mib, c.want/mib)
		}
	}
}
