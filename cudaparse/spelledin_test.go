package cudaparse

import (
	"bytes"
	"slices"
	"testing"
)

// spelledIn answers as a search per literal would.
func TestSpelledIn(t *testing.T) {
	lits := [][]byte{[]byte("::now"), []byte("clock_gettime("), []byte("clock("), []byte("x"), []byte(""), []byte("gettimeofday(")}
	for _, src := range []string{
		"",
		"auto t = std::chrono::steady_clock::now();",
		"clock_gettime(CLOCK_MONOTONIC, &ts); c = clock();",
		"clock_gettime clock( x",
		"::no ::now",
		"clock_gettime(",
		"gettimeofday",
	} {
		var want [][]byte
		for _, l := range lits {
			if bytes.Contains([]byte(src), l) {
				want = append(want, l)
			}
		}
		got := spelledIn([]byte(src), lits)
		if !slices.EqualFunc(got, want, bytes.Equal) {
			t.Errorf("spelledIn(%q) = %q, want %q", src, got, want)
		}
	}
}
