package link

import (
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
)

// The callers' index gives each function its own call sites, in the
// order the calls are found, and a function of another project none.
func TestCallersByFunction(t *testing.T) {
	src := `
__global__ void k(float *x) {}
void warm(float *x) { k<<<1, 1>>>(x); }
void step(float *x) { k<<<1, 1>>>(x); }
void run(float *x) { warm(x); step(x); step(x); }
void again(float *x) { step(x); }
`
	project := func() *Project {
		sum := parse(t, src).Summary()
		sum.Path = "a.cu"
		p := NewProject([]*cudaparse.FileSummary{sum})
		p.Freeze()
		return p
	}
	p := project()
	for name, want := range map[string]int{"warm": 1, "step": 3, "run": 0, "again": 0} {
		fn := p.ResolveCall("", name, "", 1, false, "a.cu")
		if fn == nil {
			t.Fatalf("%s not found", name)
		}
		if got := p.Callers(fn); got != want {
			t.Errorf("%s has %d callers, want %d", name, got, want)
		}
	}
	// step is entered after warm launched k in run, but not in again.
	step := p.ResolveCall("", "step", "", 1, false, "a.cu")
	if k := p.LoadedOnEntry(step); !k.Empty() {
		t.Errorf("step has %+v loaded on entry, want nothing (again calls it cold)", k)
	}
	other := project()
	if got := other.Callers(step); got != 0 {
		t.Errorf("another project's step has %d callers here, want 0", got)
	}
	if got := other.Callers(other.ResolveCall("", "step", "", 1, false, "a.cu")); got != 3 {
		t.Errorf("the other project's own step has %d callers, want 3", got)
	}
}
