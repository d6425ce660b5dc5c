package cudaparse

import (
	"slices"
	"testing"
)

func TestDeviceSummaries(t *testing.T) {
	f := parse(t, `
struct Spec { float *even, *odd; unsigned *bell; };
__device__ float *cells(Spec *s, unsigned parity) { return parity ? s->odd : s->even; }
__device__ void publish(Spec *s, unsigned parity, unsigned row, float v) {
  atomicExch(&cells(s, parity)[row], v);
}
__device__ float peek(Spec *s, unsigned parity, unsigned row) {
  unsigned *c = reinterpret_cast<unsigned *>(cells(s, parity));
  return __uint_as_float(atomicAdd(&c[row], 0u));
}
__device__ void ring(Spec *s) { *s->bell = 1; }
__device__ void local_only(unsigned *p) { p[0] = 1; atomicAdd(p, 2u); }
__global__ void k(Spec *s) { publish(s, 0, threadIdx.x, 1.0f); ring(s); }
void host() {}
`)
	got := map[string]DeviceSummary{}
	for _, d := range f.DeviceSummaries() {
		got[d.Name] = d
	}
	if _, ok := got["host"]; ok {
		t.Errorf("host functions are not device code: %+v", got["host"])
	}
	if r := got["publish"].Releases; !slices.Contains(r, "call cells") {
		t.Errorf("publish releases %v, want call cells", r)
	}
	if r := got["peek"].Releases; len(r) != 0 {
		t.Errorf("peek only reads (atomicAdd(p, 0)), releases %v", r)
	}
	if r := got["ring"].Releases; !slices.Contains(r, "field bell") {
		t.Errorf("ring releases %v, want field bell", r)
	}
	if r := got["local_only"].Releases; len(r) != 0 {
		t.Errorf("writes through a parameter name nothing other files share, got %v", r)
	}
	if k := got["k"]; !k.Kernel || !slices.Equal(k.Calls, []string{"publish", "ring"}) {
		t.Errorf("kernel k: %+v, want a kernel calling publish and ring", k)
	}
}

func TestOriginKey(t *testing.T) {
	f := parse(t, `
__device__ void f(Spec *s, unsigned i) {
  unsigned *a = reinterpret_cast<unsigned *>(buf(s, 1));
  unsigned *b = a + 4;
  use(b[i], s->flags[i], *(volatile unsigned *)&s->ready, i);
}
`)
	var args []Node
	for _, c := range f.Calls {
		if c.Name == "use" {
			args = c.Args
		}
	}
	want := []string{"call buf", "field flags", "field ready", ""}
	if len(args) != len(want) {
		t.Fatalf("use has %d arguments, want %d", len(args), len(want))
	}
	for k, a := range args {
		if got := OriginKey(a); got != want[k] {
			t.Errorf("OriginKey(%s) = %q, want %q", a.Text(), got, want[k])
		}
	}
}
