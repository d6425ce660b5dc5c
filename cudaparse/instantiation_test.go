package cudaparse

import (
	"fmt"
	"strings"
	"testing"
)

// launchKeys returns the keys of the file's launches, by the text of the
// comment that ends each launch's line.
func launchKeys(t *testing.T, f *File) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(string(f.Src), "\n")
	for _, l := range f.Launches {
		line := lines[f.Position(l.Node.Start()).Line-1]
		if i := strings.Index(line, "// "); i >= 0 {
			out[strings.TrimSpace(line[i+3:])] = l.KernelKey()
		}
	}
	return out
}

const deductionSrc = `
typedef float real;
using count_t = unsigned;
struct Box { double *data; int n; };
template <typename T> __global__ void k1(T a, T *x);
template <typename T, int N = 4> __global__ void k2(const T *__restrict__ in, T &out, const T &c);
template <typename A, typename B = A> __global__ void k3(A *a);
template <typename T> __global__ void k4(T **rows);
template <typename T> __global__ void k5(Vec<T> v);
template <int B, typename T> __global__ void k6(T *x);
template <typename T> __global__ void over(T *x);
template <typename T> __global__ void over(T *x, T *y);
template <typename T> __global__ void over2(T *x);
template <typename T> __global__ void over2(T x);
template <typename... Ts> __global__ void pack(Ts... xs);
constexpr int kBlock = 128;
float *g_buf;
class Solver {
  float *field;
  void step();
};
void Solver::step() {
  k1<<<1, 1>>>(1.0f, field);  // member
}
template <typename T> void templated(T *p) {
  k1<<<1, 1>>>(T(1), p);  // dependent
}
void host(float *f, const float *cf, double *d, int *i, real *r, count_t *u, Box b, Box *pb, Vec<short> vs,
          thrust::device_vector<long> &dv, unsigned char **rows) {
  int n = 3;
  auto a = 2.5;
  k1<<<1, 1>>>(2.0f, f);  // float literal
  k1<<<1, 1>>>(2.0, d);  // double literal
  k1<<<1, 1>>>(1, i);  // int literal
  k1<<<1, 1>>>(1u, (unsigned *)i);  // unsigned literal and C cast
  k1<<<1, 1>>>(true, (bool *)i);  // bool
  k1<<<1, 1>>>('c', (char *)i);  // char
  k1<<<1, 1>>>(a, d);  // auto from a double
  k1<<<1, 1>>>(n, &n);  // address of a local
  k1<<<1, 1>>>(*r, r);  // typedef
  k1<<<1, 1>>>(static_cast<real>(1), reinterpret_cast<real *>(d));  // named casts
  k1<<<1, 1>>>(u[0], u);  // using alias of unsigned
  k1<<<1, 1>>>(b.data[0], b.data);  // member through a struct
  k1<<<1, 1>>>(pb->n, &pb->n);  // member through a pointer
  k1<<<1, 1>>>(1.0f, g_buf);  // global
  k1<<<1, 1>>>(2.0, f);  // conflict
  k1<<<1, 1>>>(opaque(), f);  // one argument known
  k1<<<1, 1>>>(opaque(), opaque());  // unknown
  k1<<<1, 1>>>(n * 2.0, d + n);  // arithmetic
  k2<<<1, 1>>>(cf, *f, 1.0f);  // const T* and references
  k2<double><<<1, 1>>>(d, *d, 1.0);  // default N
  k2<float, kBlock><<<1, 1>>>(cf, *f, 1.0f);  // constexpr N
  k3<<<1, 1>>>(d);  // default naming a parameter
  k4<<<1, 1>>>(rows);  // pointer to pointer
  k5<<<1, 1>>>(vs);  // template type
  k6<32><<<1, 1>>>(thrust::raw_pointer_cast(dv.data()));  // leading explicit, container
  k1<<<1, 1>>>(dv[0], dv.data().get());  // device_ptr get
  over<<<1, 1>>>(f);  // one overload fits
  over2<<<1, 1>>>(f);  // two fit and disagree
  pack<<<1, 1>>>(1, 2.0);  // variadic
  cudaLaunchKernel((void *)k1<float>, 1, 1, nullptr, 0, 0);  // API
}
`

func TestDeducedLaunchKeys(t *testing.T) {
	got := launchKeys(t, parse(t, deductionSrc))
	want := map[string]string{
		"member":                      "k1<float>",
		"dependent":                   "k1<T>",
		"float literal":               "k1<float>",
		"double literal":              "k1<double>",
		"int literal":                 "k1<int>",
		"unsigned literal and C cast": "k1<unsigned int>",
		"bool":                        "k1<bool>",
		"char":                        "k1<char>",
		"auto from a double":          "k1<double>",
		"address of a local":          "k1<int>",
		"typedef":                     "k1<float>",
		"named casts":                 "k1<float>",
		"using alias of unsigned":     "k1<unsigned int>",
		"member through a struct":     "k1<double>",
		"member through a pointer":    "k1<int>",
		"global":                      "k1<float>",
		"conflict":                    "k1<?>",
		"one argument known":          "k1<float>",
		"unknown":                     "k1<?>",
		"arithmetic":                  "k1<double>",
		"const T* and references":     "k2<float,4>",
		"default N":                   "k2<double,4>",
		"constexpr N":                 "k2<float,128>",
		"default naming a parameter":  "k3<double,double>",
		"pointer to pointer":          "k4<unsigned char>",
		"template type":               "k5<short>",
		"leading explicit, container": "k6<32,long>",
		"one overload fits":           "over<float>",
		"two fit and disagree":        "over2<?>",
		"variadic":                    "pack<?>",
		"API":                         "k1<float>",
	}
	for what, key := range want {
		if got[what] != key {
			t.Errorf("%s: key %q, want %q", what, got[what], key)
		}
	}
}

func TestKernelKeySpellings(t *testing.T) {
	f := parse(t, `
typedef float real;
template <typename T, int N = 4> __global__ void k(T *x);
#define TILE 2
void host(float *x) {
  cudaFuncSetCacheConfig(k<float, 4>, c);
  cudaFuncSetCacheConfig(k< float, 4 >, c);
  cudaFuncSetCacheConfig(::k<float, 4>, c);
  cudaFuncSetCacheConfig(k<float>, c);
  cudaFuncSetCacheConfig(k<real, 2 * TILE>, c);
  cudaFuncSetCacheConfig(other< unsigned, long int >, c);
  cudaFuncSetCacheConfig(k<K_TEMPLATE_ARGS>, c);
}
`)
	var keys []string
	for _, p := range f.Preloads() {
		keys = append(keys, p.Keys...)
	}
	want := []string{"k<float,4>", "k<float,4>", "k<float,4>", "k<float,4>", "k<float,4>", "other<unsigned int,long>", "k<K_TEMPLATE_ARGS>"}
	if strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Errorf("keys %q, want %q", keys, want)
	}
}

func TestSameKernelInstantiations(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"k<float>", "k<float>", true},
		{"k<float>", "k<double>", false},
		{"k<?>", "k<double>", true},
		{"k<float,?>", "k<float,8>", true},
		{"k<float,?>", "k<double,8>", false},
		{"k", "k<double>", true},
		{"ns::k<float>", "k<float>", true},
		{"ns::k<float>", "k<double>", false},
		{"k<unsigned int>", "k<unsignedint>", true},
		{"k<float>", "j<float>", false},
		{"k", "j", false},
		{"run (the lambda at line 3)", "run (the lambda at line 3)", true},
		{"run (the lambda at line 3)", "run<F>", false},
		{"", "k", false},
	} {
		if got := SameKernel(c.a, c.b); got != c.same {
			t.Errorf("SameKernel(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
		if got := SameKernel(c.b, c.a); got != c.same {
			t.Errorf("SameKernel(%q, %q) = %v, want %v", c.b, c.a, got, c.same)
		}
	}
}

func TestInstantiationNote(t *testing.T) {
	if InstantiationNote("k<float>") != "" || InstantiationNote("k") != "" {
		t.Error("a known instantiation gets a note")
	}
	if n := InstantiationNote("k<float,?>"); !strings.Contains(n, "any instantiation of k") {
		t.Errorf("note %q", n)
	}
}

// Overloads that launch the same kernels, instantiated differently, merge
// kernel by kernel; overloads that launch other kernels do not merge.
func TestMergeKernelKeys(t *testing.T) {
	for _, tc := range []struct {
		lists [][]string
		want  []string
		ok    bool
	}{
		{[][]string{{"k<int,4>", "fill"}, {"fill", "k<float,4>"}}, []string{"fill", "k<?,4>"}, true},
		{[][]string{{"ns::k<int>"}, {"ns::k<int>"}}, []string{"ns::k<int>"}, true},
		{[][]string{{"k<int>"}, {"k<int,2>"}}, []string{"k<?>"}, true},
		{[][]string{{"k<int>"}, {"j<int>"}}, nil, false},
		{[][]string{{"k<int>"}, {"k"}}, nil, false},
		{[][]string{{"k<int>"}, {"k<int>", "j"}}, nil, false},
		{[][]string{{"(*fp)"}, {"(*fp)"}}, nil, false},
	} {
		got, ok := MergeKernelKeys(tc.lists)
		if ok != tc.ok || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("MergeKernelKeys(%v) = %v, %v; want %v, %v", tc.lists, got, ok, tc.want, tc.ok)
		}
	}
}
