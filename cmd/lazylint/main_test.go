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
// it is raised to twice what is live.
func TestLimitFollowsLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(softMemoryLimit)
	stop := followLiveHeap(time.Millisecond)
	defer stop()
	held := make([][]byte, 0, 160)
	for range 160 { // 160 MiB live, more than half of 192 MiB
		held = append(held, make([]byte, 1<<20))
	}
	runtime.GC()
	deadline := time.Now().Add(2 * time.Second)
	for debug.SetMemoryLimit(-1) < 2*160<<20 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < 2*160<<20 {
		t.Errorf("limit %d MiB with 160 MiB live, want at least 320 MiB", got>>20)
	}
	runtime.KeepAlive(held)
}
