package cli

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// heapAtPeak is the --memprofile writer (for bench/): at each phase
// boundary of a check (each line the engine traces) it measures the live
// heap after a collection and, when that is the largest so far, writes a
// heap profile to path, replacing the last. What it leaves is the profile
// of the boundary where the most was held, which is what bounds the peak
// RSS; the profile at exit shows nothing, the facts being dropped by then.
type heapAtPeak struct {
	path string
	peak uint64
	next io.Writer // the --trace output, or nil
	err  error
}

func (h *heapAtPeak) Write(p []byte) (int, error) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > h.peak && h.err == nil {
		h.peak = ms.HeapAlloc
		h.err = writeHeapProfile(h.path)
	}
	if h.next != nil {
		return h.next.Write(p)
	}
	return len(p), nil
}

func writeHeapProfile(path string) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(out, 0); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
