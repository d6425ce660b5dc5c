package cudaparse

import (
	"strings"
	"testing"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

func TestNeutralizedCodeParsesCleanly(t *testing.T) {
	for _, src := range []string{
		"struct S {\n  [[nodiscard]] MY_API friend constexpr bool operator==(const S&, const S&) noexcept { return true; }\n};\n",
		"class C {\n MY_SEMI_PRIVATE:\n  int x;\n};\n",
		"template <class T>\nstruct B { using T2 = T; };\ntemplate <class T>\nstruct D : B<T> { using typename B<T>::T2; };\n",
		"#if MY_COMPILER(GCC, >=, 8)\nint a;\n#endif\n",
		"#if defined(USE_GPU) and not defined(NO_CUDA)\nint b;\n#elif A or B\nint c;\n#endif\n",
		"using Policy MY_DEPRECATED(\"use X\") = int;\n",
		"void CUDART_CB callback(void *data) {}\n",
		"__global__ void k(Params NCCL_GRID_CONSTANT const p) {}\n",
		"void f(int pred) { unsigned x = unsigned(pred) << 2; }\n",
		"namespace a {\nvoid f() {}\n}; // namespace a\n",
		"auto g = [](int x) { return x; };\nvoid h() {};\n",
	} {
		assertParsesCleanly(t, src)
	}
}

// assertParsesCleanly fails when the neutralized src has an ERROR node.
func assertParsesCleanly(t *testing.T, src string) {
	t.Helper()
	f := parse(t, src)
	if f.ErrorCount() > 0 {
		out, _ := syntax.Neutralize([]byte(src))
		t.Errorf("ERROR nodes in\n%s\nneutralized:\n%s\ntree: %v", src, out, f.Root())
	}
}

func TestNeutralizedLibraryShapesParseCleanly(t *testing.T) {
	for _, src := range []string{
		"template <typename CG>\n__device__ constexpr void clear(CG const& group) noexcept;\n",
		"namespace RAFT_EXPORT raft {\nint x;\n}\n",
		"void f(long v) { printf(\"v=%\" PRId64 \"\\n\", v); }\n",
		"extern template void run<float, 96>(Params &params, cudaStream_t stream);\n",
		"struct KV { int k; };\nvoid g(KV const& kv);\n",
	} {
		assertParsesCleanly(t, src)
	}
}

func TestFileScopeMacroInvocations(t *testing.T) {
	src := "TEMPLATE_TEST_CASE(\"x\", \"[t]\", float, double) {\n  CUDA_CHECK(cudaMalloc(&p, n));\n}\nINSTANTIATE(int, float);\nvoid f() { CHECK(cudaFree(p)); }\n"
	p, _ := NewParser()
	defer p.Close()
	f, err := p.Parse("t.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if f.ErrorCount() > 0 {
		t.Errorf("ERROR nodes: %v", f.Root())
	}
	// The body of the test macro is kept, and calls inside functions are
	// not touched.
	if len(f.CallsTo("cudaMalloc")) != 1 || len(f.CallsTo("cudaFree")) != 1 {
		t.Errorf("calls lost: %d cudaMalloc, %d cudaFree", len(f.CallsTo("cudaMalloc")), len(f.CallsTo("cudaFree")))
	}
}

func TestMemoryQualifierMacros(t *testing.T) {
	src := "#define MANAGED __managed__\n#define DEV_MANAGED __device__ __managed__\nMANAGED long long a;\nDEV_MANAGED int b;\n"
	p, _ := NewParser()
	defer p.Close()
	f, err := p.Parse("m.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range f.Variables {
		got = append(got, v.Name+":"+v.Kind.String())
	}
	if strings.Join(got, " ") != "a:managed b:managed" {
		t.Errorf("variables: %v", got)
	}
}
