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
// it, the GC percent drops to largeHeapGCPercent and the limit is twice
// what is live; the percent comes back once little is live.
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
	waitFor(t, func() bool { return debug.SetMemoryLimit(-1) >= 2*192<<20 && gcPercent() == largeHeapGCPercent })
	if got := debug.SetMemoryLimit(-1); got < 2*192<<20 {
		t.Errorf("limit %d MiB with 192 MiB live, want at least 384 MiB", got>>20)
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
