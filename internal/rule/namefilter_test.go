package rule

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// A name filter never says no to a name its text holds, reads the same
// from its bytes (NameFilterOf), and says no to most names the text does
// not hold.
func TestNameFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("cudaLaunchKernel warmup timer_start elapsed kernel_a kernel_b run_gemm bench " +
		"cudaEventRecord std::chrono steady_clock now launch_fused reduce_sum scan_block init_table")
	absent := strings.Fields("zzq_never xylophone_kernel qqqqq_launch wvwv_time jjj_alloc")
	misses := 0
	for _, size := range []int{0, 2, 40, 600, 5000, 60000} {
		var src bytes.Buffer
		for src.Len() < size {
			src.WriteString(words[r.IntN(len(words))])
			src.WriteString("(x); ")
		}
		text := NewText(src.Bytes())
		nf := text.NameFilter()
		view := NameFilterOf(nf.Bytes())
		if view == nil || len(nf.bits)%8 != 0 || len(nf.bits) > maxFilterWords*8 {
			t.Fatalf("size %d: filter of %d bytes", size, len(nf.bits))
		}
		for _, w := range append(append([]string{}, words...), absent...) {
			holds := bytes.Contains(src.Bytes(), []byte(w))
			if got := nf.MayContain(w); holds && !got {
				t.Errorf("size %d: filter says %q is absent", size, w)
			} else if got && !holds {
				misses++
			}
			if nf.MayContain(w) != view.MayContain(w) {
				t.Errorf("size %d: the filter's bytes answer %q otherwise", size, w)
			}
			if got, probed := nf.MayContain(w), nf.MayContainProbe(NewNameProbe(w)); got != probed {
				t.Errorf("size %d: %q may be there: %v; its probe says %v", size, w, got, probed)
			}
		}
	}
	if misses > 8 {
		t.Errorf("the filters admitted %d absent names: they filter little", misses)
	}
	if NameFilterOf([]byte{1, 2}) != nil {
		t.Error("two bytes taken for a filter")
	}
}
