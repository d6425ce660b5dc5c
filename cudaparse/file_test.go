package cudaparse

import (
	"slices"
	"strings"
	"testing"
)

func parse(t *testing.T, src string) *File {
	t.Helper()
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("test.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const kernelsSrc = `#define KERNEL __global__
template <typename T>
__global__ void __launch_bounds__(128) scale(T *x, T a) { x[threadIdx.x] *= a; }
KERNEL void fill(int *x) {}
CUTLASS_GLOBAL void gemm(int n) {}
__device__ __forceinline__ float twice(float v) { return 2 * v; }
__host__ __device__ int both(int v) { return v; }
__global__ void declared_only(int);
void host_fn(cudaStream_t s, float *d, int *i) {
  scale<float><<<dim3(4), 128, 0, s>>>(d, 2.0f);
  scale<double><<<1, 1>>>(nullptr, 1.0);
  fill<<<1, 1>>>(i);
  void *args[] = {&i};
  cudaLaunchKernel((void *)fill, dim3(1), dim3(1), args, 0, s);
  cudaLaunchKernel(reinterpret_cast<const void *>(&scale<float>), 1, 1, args, 0, nullptr);
  cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, s, params, nullptr);
  CUDA_CHECK(cudaMalloc(&d, 1 << 20));
}
`

func TestFunctionsAndKernels(t *testing.T) {
	f := parse(t, kernelsSrc)
	got := map[string]ExecSpace{}
	for _, fn := range f.Functions {
		got[fn.Name] = fn.Space
	}
	want := map[string]ExecSpace{
		"scale": SpaceGlobal, "fill": SpaceGlobal, "gemm": SpaceGlobal,
		"twice": SpaceDevice, "both": SpaceHost | SpaceDevice, "host_fn": SpaceHost,
	}
	for name, space := range want {
		if got[name] != space {
			t.Errorf("%s: space %b, want %b", name, got[name], space)
		}
	}
	if i := slices.IndexFunc(f.Prototypes, func(fn *Function) bool { return fn.Name == "declared_only" }); i < 0 || !f.Prototypes[i].IsKernel() {
		t.Errorf("prototype of a kernel not recorded: %v", f.Prototypes)
	}
	scale := f.FunctionNamed("scale")
	if !scale.Template || len(scale.Params) != 2 || scale.Params[1].Name != "a" {
		t.Errorf("scale: template=%v params=%+v", scale.Template, scale.Params)
	}
	if f.ErrorCount() != 0 {
		t.Errorf("%d ERROR nodes in clean CUDA: %v", f.ErrorCount(), f.Root())
	}
}

func TestLaunches(t *testing.T) {
	f := parse(t, kernelsSrc)
	var got []string
	for _, l := range f.Launches {
		got = append(got, l.KernelKey()+"/"+l.API+"/"+l.Stream.Text())
	}
	want := "scale<float>//s scale<double>// fill// fill/cudaLaunchKernel/s scale<float>/cudaLaunchKernel/nullptr fn/cuLaunchKernel/s"
	if strings.Join(got, " ") != want {
		t.Errorf("launches:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	l := f.Launches[0]
	if len(l.Config) != 4 || l.Config[0].Text() != "dim3(4)" || len(l.Args) != 2 || l.Func.Name != "host_fn" {
		t.Errorf("first launch: config %d args %d func %v", len(l.Config), len(l.Args), l.Func)
	}
	// The launch is not a call of its configuration, and the kernel is not
	// a call either.
	for _, c := range f.Calls {
		if c.Name == "scale" || c.Name == "fill" || c.Name == "" {
			t.Errorf("launch seen as a call: %q at %v", c.Name, f.Position(c.Node.Start()))
		}
	}
}

func TestCallsThroughMacros(t *testing.T) {
	f := parse(t, kernelsSrc)
	calls := f.CallsTo("cudaMalloc")
	if len(calls) != 1 {
		t.Fatalf("cudaMalloc calls: %d", len(calls))
	}
	c := calls[0]
	if c.Func.Name != "host_fn" || len(c.Args) != 2 || c.Arg(1).Text() != "1 << 20" {
		t.Errorf("call: func %v args %d", c.Func, len(c.Args))
	}
	if pos := f.Position(c.Callee.Start()); pos != (Position{Line: 17, Column: 14}) {
		t.Errorf("position %v", pos)
	}
}

func TestPositionsCountCharacters(t *testing.T) {
	src := "// ünïcödé\nvoid f() { /* é */ cudaMalloc(&p, n); }\n"
	f := parse(t, src)
	c := f.CallsTo("cudaMalloc")[0]
	if pos := f.Position(c.Node.Start()); pos != (Position{Line: 2, Column: 20}) {
		t.Errorf("got %v, want 2:20 (characters, not bytes)", pos)
	}
	if off := f.Lines.Offset(Position{Line: 2, Column: 20}); off != c.Node.Start() {
		t.Errorf("Offset does not invert Position: %d vs %d", off, c.Node.Start())
	}
}

const defUseSrc = `#define RESERVE (64 << 20)
static const size_t kHeadroom = 512 * 1024 * 1024;
void f(size_t budget, bool small) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  size_t n = free_b;
  n -= RESERVE;
  if (small) {
    n = n / 2;
  }
  use(n);
  size_t m = budget;
  m = 7;
  use(m);
  size_t k = kHeadroom;
  auto [a, b] = pair();
  while (cond()) {
    use(a);
    a = next();
  }
}
`

func TestReachingDefs(t *testing.T) {
	f := parse(t, defUseSrc)
	uses := map[string]Node{}
	for _, c := range f.CallsTo("use") {
		uses[c.Arg(0).Text()+"@"+c.Node.Text()] = c.Arg(0)
	}
	describe := func(defs []Def) string {
		var parts []string
		for _, d := range defs {
			parts = append(parts, string(d.Op)+":"+strings.TrimSpace(d.Node.Text()))
		}
		return strings.Join(parts, " | ")
	}
	// n: the unconditional `n -= RESERVE` kills `n = free_b`, but the
	// assignment under if may or may not run.
	if got := describe(f.ReachingDefs(uses["n@use(n)"])); got != "-=:n -= RESERVE | =:n = n / 2" {
		t.Errorf("n: %s", got)
	}
	if got := describe(f.ReachingDefs(uses["m@use(m)"])); got != "=:m = 7" {
		t.Errorf("m: %s", got)
	}
	// In a loop, the definition later in the body reaches through the back edge.
	if got := describe(f.ReachingDefs(uses["a@use(a)"])); got != "bind:[a, b] = pair() | =:a = next()" {
		t.Errorf("a: %s", got)
	}
	// The out-parameter of cudaMemGetInfo is a definition.
	n := f.FunctionNamed("f").Body.NamedChildren()[2] // size_t n = free_b;
	var freeUse Node
	n.Descendants(func(x Node) bool {
		if x.Is("identifier") && x.Text() == "free_b" {
			freeUse = x
		}
		return true
	})
	defs := f.ReachingDefs(freeUse)
	if len(defs) != 1 || defs[0].Op != DefOut || defs[0].Call.Name != "cudaMemGetInfo" || defs[0].Index != 0 {
		t.Errorf("free_b: %s", describe(defs))
	}
}

func TestConstValue(t *testing.T) {
	f := parse(t, defUseSrc+`
void g() {
  size_t local = 3 * (1ULL << 30) + 0x10;
  take(local, RESERVE, kHeadroom, sizeof(float) * 4, 1'024, 0.95f, 010, -2);
}
`)
	c := f.CallsTo("take")[0]
	want := []float64{3*(1<<30) + 16, 64 << 20, 512 * 1024 * 1024, 16, 1024, 0.95, 8, -2}
	for i, w := range want {
		v, ok := f.ConstValue(c.Arg(i))
		if !ok || v != w {
			t.Errorf("arg %d %q: %v %v, want %v", i, c.Arg(i).Text(), v, ok, w)
		}
	}
	if _, ok := f.ConstValue(f.CallsTo("use")[0].Arg(0)); ok {
		t.Error("n is not constant")
	}
}

func TestErrorNodesAreReported(t *testing.T) {
	f := parse(t, "void f() { int x = ; cudaMalloc(&p, n) }\nint ok;")
	if f.ErrorCount() == 0 || f.ErrorBytes() == 0 {
		t.Errorf("no ERROR node for `int x = ;`: %v", f.Root())
	}
	// The parse must not silently drop the call after the error.
	calls := f.CallsTo("cudaMalloc")
	if len(calls) != 1 {
		t.Fatalf("call lost in broken code")
	}
	if calls[0].Node.InError() {
		t.Logf("call recovered inside an ERROR node (low confidence)")
	}
}

// A kernel at the very start of a file: the root node starts after the
// blanked qualifier, which must still count.
func TestKernelFirstInFile(t *testing.T) {
	f := parse(t, "__global__ void k(int *p) {}\n")
	if len(f.Functions) != 1 || !f.Functions[0].IsKernel() {
		t.Errorf("not a kernel: %+v", f.Functions)
	}
}

func TestExclusive(t *testing.T) {
	f := parse(t, `void run(int m, bool push) {
  if (push) { a(); } else if (m) { b(); } else { c(); }
  switch (m) {
  case 0: d(); break;
  case 1: e();
  case 2: { g(); return; }
  default: h();
  }
  int x = push ? i() : j();
  k(); l();
}
`)
	call := map[string]Node{}
	for _, c := range f.Calls {
		call[c.Name] = c.Node
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"a", "b", true}, {"b", "c", true}, {"a", "c", true}, {"a", "d", false},
		{"d", "e", true}, {"e", "g", false}, {"g", "h", true}, {"d", "h", true},
		{"i", "j", true}, {"k", "l", false}, {"i", "k", false},
	} {
		if got := Exclusive(call[tt.a], call[tt.b]); got != tt.want {
			t.Errorf("Exclusive(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := Exclusive(call[tt.b], call[tt.a]); got != tt.want {
			t.Errorf("Exclusive(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestLaunchesThroughMacros(t *testing.T) {
	f := parse(t, `template <typename T> __global__ void k(T *x) {}
void run(float *a, double *b, cudaStream_t s) {
#define LAUNCH(T, p) \
  k<T><<<1, 32, 0, s>>>(p)
  LAUNCH(float, a);
  LAUNCH(double, b);
#define NOT_A_LAUNCH(x) ((x) << 2)
  int y = NOT_A_LAUNCH(3);
}
`)
	var got []string
	for _, l := range f.Launches {
		got = append(got, l.KernelKey()+"/"+l.Kernel+"/"+l.ViaMacro+"/"+l.Func.Name)
	}
	if want := "k<float>/k/LAUNCH/run k<double>/k/LAUNCH/run"; strings.Join(got, " ") != want {
		t.Errorf("launches:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestSummaryFarWarmup checks that a warm-up launch at the top of a long
// function is on the way to a call hundreds of calls later (a long main of
// printf calls used to use up the checks before reaching it).
func TestSummaryFarWarmup(t *testing.T) {
	var b strings.Builder
	b.WriteString("__global__ void k() {}\nvoid timed();\nint main() {\n  cudaSetDevice(0);\n  k<<<1, 1>>>();\n")
	for i := 0; i < 400; i++ {
		b.WriteString("  printf(\"x\");\n")
	}
	b.WriteString("  timed();\n  return 0;\n}\n")
	f := parse(t, b.String())
	var main *FunctionSummary
	for i := range f.Summary().Functions {
		if fs := &f.Summary().Functions[i]; fs.Name == "main" {
			main = fs
		}
	}
	if main == nil {
		t.Fatal("no summary of main")
	}
	last := main.Steps[len(main.Steps)-1]
	if last.Callee != "timed" {
		t.Fatalf("last step %+v", last)
	}
	found := false
	for _, j := range last.Far {
		found = found || main.Steps[j].Kind == StepLaunch
	}
	if !found {
		t.Errorf("the launch of k is not among the steps on the way to timed(): Far = %v", last.Far)
	}
}
