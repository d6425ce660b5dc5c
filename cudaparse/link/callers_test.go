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

// A project that forgot its memos answers as before, and holds none of
// them until asked again.
func TestForgetKeepsAnswers(t *testing.T) {
	src := `
__global__ void k(float *x) {}
void warm(float *x) { k<<<1, 1>>>(x); }
void step(float *x) { k<<<1, 1>>>(x); }
void run(float *x) { warm(x); step(x); }
`
	sum := parse(t, src).Summary()
	sum.Path = "a.cu"
	p := NewProject([]*cudaparse.FileSummary{sum})
	p.Freeze()
	answers := func() (launched []string, entry bool, callers int) {
		warm := p.ResolveCall("", "warm", "", 1, false, "a.cu")
		step := p.ResolveCall("", "step", "", 1, false, "a.cu")
		if warm == nil || step == nil {
			t.Fatal("warm or step not found")
		}
		return p.Kernels(warm).Launched, p.LoadedOnEntry(step).Empty(), p.Callers(step)
	}
	launched, entryEmpty, callers := answers()
	if len(launched) != 1 || launched[0] != "k" || entryEmpty || callers != 1 {
		t.Fatalf("before: warm launches %v, step's entry empty %v, %d callers; want [k], false, 1", launched, entryEmpty, callers)
	}
	if p.resolved == nil || p.entry == nil {
		t.Fatal("no memo to forget: the test asks nothing memoized")
	}
	p.Forget()
	if p.resolved != nil || p.entry != nil || p.loaders != nil {
		t.Error("Forget kept a memo")
	}
	for k := range p.byID {
		if p.byID[k].kernels != nil {
			t.Errorf("Forget kept %s's kernels", p.byID[k].Name())
		}
	}
	l2, e2, c2 := answers()
	if len(l2) != 1 || l2[0] != "k" || e2 != entryEmpty || c2 != callers {
		t.Errorf("after Forget: %v, %v, %d; want %v, %v, %d", l2, e2, c2, launched, entryEmpty, callers)
	}
}
