package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	tuneGC()
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
	tuneGC()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("GC percent %d with GOGC=50, want 50", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 2<<30 {
		t.Errorf("memory limit %d with GOMEMLIMIT=2GiB, want 2 GiB", got)
	}
}
