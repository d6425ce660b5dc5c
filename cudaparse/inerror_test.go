package cudaparse

import (
	"strings"
	"testing"
)

// A file whose tail the parser cannot finish (a kernel left open at the
// end, as a conditional or a macro that closes it can leave it) is wrapped
// whole in the recovery's ERROR node. The host function above was parsed
// whole: what lies in it is understood; what lies in the broken tail is not.
func TestInErrorIsLocalToTheFunction(t *testing.T) {
	src := `void host_step(float *d) {
  int launched = 1;
  d[0] = launched;
}

template <class T>
__global__ void twice(T *d, int rounds, T v) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  register T a = d[gid], b = 8.0f - a;
  for (int j = 0; j < rounds; ++j) {
     /* the body is a run of statement macros,
        three to a line */
     TWO_STEPS TWO_STEPS TWO_STEPS
     TWO_STEPS TWO_STEPS TWO_STEPS
  }
  d[gid] = a + b;
}

template <class T>
__global__ void unfinished(T *d, int rounds, T v) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  register T a = d[gid], b = 8.0f - a, c = 7.0f - a, e = 7.0f - b;
  for (int j = 0; j < rounds; ++j) {
     /* the file ends before this loop closes
      */
`
	f := parse(t, src)
	if !f.Root().IsError() {
		t.Fatal("the parser's recovery no longer wraps the file in an ERROR node: write another source that makes it")
	}
	var clean, broken Node
	f.Root().Descendants(func(n Node) bool {
		if n.Is("identifier") && n.Text() == "launched" && !clean.Valid() {
			clean = n
		}
		if n.Is("identifier") && n.Text() == "gid" && !broken.Valid() {
			broken = n
		}
		return true
	})
	if !clean.Valid() || !broken.Valid() {
		t.Fatalf("identifiers not found in the tree:\n%s", strings.TrimSpace(src))
	}
	if clean.InError() {
		t.Errorf("a node of the cleanly parsed host function is taken as in error")
	}
	if !broken.InError() {
		t.Errorf("a node of the unfinished kernel is not taken as in error")
	}
}
