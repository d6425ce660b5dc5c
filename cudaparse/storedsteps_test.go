package cudaparse

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/spill"
)

// Steps moved to a store read back as they were: random steps (every
// field, nil and empty slices told apart), and the summaries of the rules'
// own fixtures.
func TestStoredStepsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	names := NewStepStore(spill.New(0, t.TempDir()))
	for range 500 {
		steps := make([]SummaryStep, r.IntN(6))
		for i := range steps {
			steps[i] = randomStep(r)
		}
		got, ok := decodeSteps(appendSteps(nil, steps, names.names.IDs(nil, stepNames(nil, steps))), names.names.Names())
		if !ok || !reflect.DeepEqual(got, steps) {
			t.Fatalf("round trip:\n got %#v\nwant %#v", got, steps)
		}
	}
	files, _ := filepath.Glob("../rules/*/testdata/*.cu")
	if len(files) < 20 {
		t.Fatalf("%d fixtures found", len(files))
	}
	store := NewStepStore(spill.NewChunked(1<<10, 1<<10, t.TempDir()))
	steps, moved, packed := 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sum := parse(t, string(src)).Summary()
		want := slices.Clone(sum.Functions)
		for k := range want {
			steps += len(want[k].Steps)
		}
		sum.MoveSteps(store)
		if sum.FunctionCount() != len(want) {
			t.Fatalf("%s: %d functions once moved, %d before", path, sum.FunctionCount(), len(want))
		}
		if sum.packed != nil {
			packed++
		}
		for k, fn := range sum.EachFunction() {
			if len(want[k].Steps) > 0 && fn.Steps == nil {
				moved++ // a record longer than a chunk stays
			}
			if got := fn.StepList(); !reflect.DeepEqual(got, want[k].Steps) {
				t.Errorf("%s: %s's steps changed:\n got %#v\nwant %#v", path, fn.Name, got, want[k].Steps)
			}
			// Packed or not, the function reads back as it was.
			if got := plainFunction(sum.FunctionAt(k)); !reflect.DeepEqual(got, want[k]) {
				t.Errorf("%s: function %d changed once moved:\n got %#v\nwant %#v", path, k, got, want[k])
			}
			if got := sum.FunctionName(k); got != want[k].Name {
				t.Errorf("%s: function %d's name %q once moved, %q before", path, k, got, want[k].Name)
			}
			if sum.FunctionLocal(k) != want[k].Local || sum.FunctionKinds(k) != kindsOf(want[k].Steps) {
				t.Errorf("%s: function %d's scope or kinds changed once moved", path, k)
			}
		}
	}
	if moved < 20 {
		t.Errorf("%d functions' steps moved", moved)
	}
	if packed < 20 {
		t.Errorf("%d summaries' functions packed", packed)
	}
	if steps < 100 {
		t.Errorf("the fixtures' summaries hold %d steps: the test checks little", steps)
	}
}

// plainFunction is fn with its steps in the heap, as a summary is made.
func plainFunction(fn FunctionSummary) FunctionSummary {
	fn.Steps = fn.StepList()
	fn.stored, fn.storedKinds = storedSteps{}, 0
	return fn
}

func randomStep(r *rand.Rand) SummaryStep {
	str := func() string { return string([]byte("abc:_<>")[:r.IntN(7)]) }
	st := SummaryStep{
		Kind: StepKind(r.IntN(9)), Method: r.IntN(2) == 0, Before: uint16(r.Uint32()), ArgParams: r.Uint32(),
		Line: r.IntN(1 << 20), Param: r.IntN(9) - 1, Arity: r.IntN(12) - 1, Callee: str(), Qualifier: str(),
	}
	switch r.IntN(3) {
	case 1:
		st.Keys = []string{}
	case 2:
		st.Keys = []string{str(), "", str()}[:1+r.IntN(3)]
	}
	switch r.IntN(3) {
	case 1:
		st.Far = []int32{}
	case 2:
		st.Far = []int32{int32(r.IntN(300)), -1, 1 << 30}[:1+r.IntN(3)]
	}
	return st
}

// A record cut short or garbled decodes to nothing, never to a panic.
func FuzzDecodeSteps(f *testing.F) {
	names := []string{"", "warm", "float", "gemm"}
	f.Add(appendSteps(nil, []SummaryStep{{Kind: StepCall, Callee: "warm", Keys: []string{"float"}, Far: []int32{3}}}, []uint32{1, 0, 2}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		if steps, ok := decodeSteps(data, names); ok {
			store := NewStepStore(spill.New(0, ""))
			again, ok := decodeSteps(appendSteps(nil, steps, store.names.IDs(nil, stepNames(nil, steps))), store.names.Names())
			if !ok || !reflect.DeepEqual(again, steps) {
				t.Fatalf("decoded steps do not encode back")
			}
		}
	})
}

// Once a summary's steps are moved, its Steps field is nil: code outside
// the files that build summaries reads them through StepList, or it reads
// nothing on the projects where the move happens (every project check).
func TestStepsReadThroughStepList(t *testing.T) {
	builders := map[string]bool{"summary.go": true, "lexsummary.go": true, "storedsteps.go": true, "packedfunctions.go": true}
	direct := regexp.MustCompile(`\.Steps\b(?:[^(]|$)`) // not Activity.Steps()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			builders[d.Name()] && path == filepath.Join("..", "cudaparse", d.Name()) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for _, loc := range direct.FindAllIndex(src, -1) {
			line := 1 + bytes.Count(src[:loc[0]], []byte("\n"))
			t.Errorf("%s:%d reads a summary's Steps directly: read them through StepList", path, line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("%d Go files checked", checked)
	}
}

// A summary with a function whose numbers a packed one cannot hold (a
// definition of 70,000 lines, an arity past 32,767) is not packed, and
// reads back as it was; one within them is packed.
func TestPackedFunctionsOnlyWhereTheyFit(t *testing.T) {
	src := "__global__ void k(float *x) {}\nvoid run(float *x) { k<<<1, 1>>>(x); }\n"
	for _, c := range []struct {
		name   string
		change func(fn *FunctionSummary)
		packed bool
	}{
		{"as parsed", func(*FunctionSummary) {}, true},
		{"65,535 lines more", func(fn *FunctionSummary) { fn.EndLine = fn.Line + 65535 }, true},
		{"65,536 lines more", func(fn *FunctionSummary) { fn.EndLine = fn.Line + 65536 }, false},
		{"arity 32,768", func(fn *FunctionSummary) { fn.Arity = 32768 }, false},
		{"params -32,769", func(fn *FunctionSummary) { fn.Params = -32769 }, false},
		{"times parameter 40,000", func(fn *FunctionSummary) { fn.TimesParam = 40000 }, false},
		{"ends before it starts", func(fn *FunctionSummary) { fn.EndLine = fn.Line - 1 }, false},
	} {
		sum := parse(t, src).Summary()
		c.change(&sum.Functions[len(sum.Functions)-1])
		want := slices.Clone(sum.Functions)
		sum.MoveSteps(NewStepStore(spill.New(1<<20, t.TempDir())))
		if got := sum.packed != nil; got != c.packed {
			t.Errorf("%s: packed %v, want %v", c.name, got, c.packed)
		}
		for k := range want {
			if got := plainFunction(sum.FunctionAt(k)); !reflect.DeepEqual(got, want[k]) {
				t.Errorf("%s: function %d reads back\n%#v\nwant\n%#v", c.name, k, got, want[k])
			}
		}
	}
}
