package syntax

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// checkShape asserts the pre-pass invariants (ShapeKept).
func checkShape(t *testing.T, src, out []byte) {
	t.Helper()
	if err := ShapeKept(src, out); err != nil {
		t.Fatal(err)
	}
}

func TestNeutralizeRewrites(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"kernel qualifier", "__global__ void k(float *x) {}", "           void k(float *x) {}"},
		{"host device", "__host__ __device__ inline int f();", "                    inline int f();"},
		{"shared and restrict", "__shared__ float s[32]; void g(float* __restrict__ p);", "           float s[32]; void g(float*              p);"},
		{"launch bounds", "__global__ void __launch_bounds__(256, 2) k() {}", "           void                           k() {}"},
		{"launch", "k<<<grid, block>>>(x, y);", "k(  grid, block  )(x, y);"},
		{"launch with stream and spaces", "k <<< g, b, 0, s >>> (x);", "k (   g, b, 0, s   ) (x);"},
		{"template launch", "k<float, 4><<<1, 32>>>(p);", "k<float, 4>(  1, 32  )(p);"},
		{"launch spaced by a formatter", "k << < g, b >> >(x);", "k (    g, b    )(x);"},
		{"spaced shifts untouched", "int a = b << < c; d = e >> > f;", "int a = b << < c; d = e >> > f;"},
		{"nested templates untouched", "std::vector<std::vector<std::vector<int>>> v;", "std::vector<std::vector<std::vector<int>>> v;"},
		{"shift untouched", "int a = b >> 3; c = d << 2;", "int a = b >> 3; c = d << 2;"},
		{"string untouched", `const char *s = "k<<<1,1>>>(x) __global__";`, `const char *s = "k<<<1,1>>>(x) __global__";`},
		{"raw string untouched", `auto s = R"cu(__global__ void k() { k<<<1,1>>>(); })cu";`, `auto s = R"cu(__global__ void k() { k<<<1,1>>>(); })cu";`},
		{"comment untouched", "// k<<<1,1>>>(x); __global__\n/* __device__ */ int x;", "// k<<<1,1>>>(x); __global__\n/* __device__ */ int x;"},
		{"conflict markers untouched", "<<<<<<< HEAD\nint a;\n=======\nint b;\n>>>>>>> branch\n", "<<<<<<< HEAD\nint a;\n=======\nint b;\n>>>>>>> branch\n"},
		{"launch without close untouched", "k<<<1, 2;", "k<<<1, 2;"},
		{"qualifier macro from the file", "#define HD __host__ __device__\nHD int f();", "#define HD __host__ __device__\n   int f();"},
		{"known library macro", "CUTLASS_HOST_DEVICE Coord<2> make_coord(int a);", "                    Coord<2> make_coord(int a);"},
		{"statement macro of the file ended", "#define STEP k<<<1, 1>>>(x);\nvoid g() {\n  if (a) {\n    STEP\n  } else {\n    STEP\n  }\n}", "#define STEP k<<<1, 1>>>(x);\nvoid g() {\n  if (a) {\n    STEP\n; } else {\n    STEP\n; }\n}"},
		{"statement macro followed by a statement", "#define STEP k<<<1, 1>>>(x);\nvoid g() {\n  STEP\n  h();\n}", "#define STEP k<<<1, 1>>>(x);\nvoid g() {\n  STEP\n; h();\n}"},
		{"declaration macro at file scope still blanked", "#define INST template void f<float>(float *);\nINST\nint x;", "#define INST template void f<float>(float *);\n    \nint x;"},
		{"expression macro of the file left alone", "#define N 4\nint g() {\n  return N\n  ;\n}", "#define N 4\nint g() {\n  return N\n  ;\n}"},
		// One round leaves the last macro of the run (judged while the
		// others still stood); the second round, on the first's output,
		// takes it.
		{"run of unknown qualifier macros", "void __ML_INLINE__ __ML_HOST__ __ML_DEVICE__ Init(int n) {}", "void                                         Init(int n) {}"},
		{"unknown macro before a type and a name", "MY_API_EXPORT Result<int> run(int a);", "              Result<int> run(int a);"},
		{"macro-typed declaration untouched", "MYTYPE value;\nFILE *f = fopen(p, \"r\");", "MYTYPE value;\nFILE *f = fopen(p, \"r\");"},
		{"if 0 block blanked", "#if 0\nnot C++ at all {\n#endif\nint x;", "#if 0\n                \n#endif\nint x;"},
		{"digit separator", "int n = 1'000'000; __device__ int x;", "int n = 1'000'000;            int x;"},
		{"target macro", "NV_IF_TARGET(NV_IS_DEVICE, (x = 1;), (x = 2;));", "             NV_IS_DEVICE; {x = 1;}; {x = 2;} ;"},
		{"asm output operand", `asm volatile("mov.u32 %0, 1;" : "=r"(v.x));`, `asm volatile("mov.u32 %0, 1;" : "=r"(v_x));`},
		{"switched-off debug branch", "// #define TRACE\n#ifdef TRACE\nlog(t);\n#endif", "// #define TRACE\n#ifdef TRACE\n       \n#endif"},
		{"undefined before the branch", "#define TRACE\n#undef TRACE\n#ifdef TRACE\nlog(t);\n#endif", "#define TRACE\n#undef TRACE\n#ifdef TRACE\n       \n#endif"},
		{"undefined, then defined again", "#undef TRACE\n#define TRACE 1\n#ifdef TRACE\nlog(t);\n#endif", "#undef TRACE\n#define TRACE 1\n#ifdef TRACE\nlog(t);\n#endif"},
		{"undefined in a conditional", "#ifdef FAST\n#undef TRACE\n#endif\n#ifdef TRACE\nlog(t);\n#endif", "#ifdef FAST\n#undef TRACE\n#endif\n#ifdef TRACE\nlog(t);\n#endif"},
		{"undefined after the branch", "#ifdef TRACE\nlog(t);\n#endif\n#undef TRACE", "#ifdef TRACE\nlog(t);\n#endif\n#undef TRACE"},
		{"switched-off branch closing a loop", "// #define RHO\ndo {\n#ifdef RHO\n} while (a && b);\n#else\n} while (a);\n#endif", "// #define RHO\ndo {\n          \n" + strings.Repeat(" ", len("} while (a && b);")) + "\n     \n} while (a);\n      "},
		{"AMD-only branch", "#ifdef __HIP_PLATFORM_AMD__\nhipMalloc(&p, n);\n#else\ncudaMalloc(&p, n);\n#endif", "#ifdef __HIP_PLATFORM_AMD__\n                 \n#else\ncudaMalloc(&p, n);\n#endif"},
		{"AMD-only else branch", "#if !defined(USE_ROCM)\ncudaFree(p);\n#else\nhipFree(p);\n#endif", "#if !defined(USE_ROCM)\ncudaFree(p);\n#else\n           \n#endif"},
		{"a one-line block holding a macro statement", "auto f = [&](int t) { BODY(n) };", "auto f = [&](int t) { BODY(n);};"},
		{"an initializer list holding a macro call stays", "int a[] = { F(x) };", "int a[] = { F(x) };"},
		{"pointer type as a statement macro's argument", "void f() {\n  SETUP(MinLoc*, d, h, n, 1);\n  k();\n}", "void f() {\n  SETUP(MinLoc , d, h, n, 1);\n  k();\n}"},
		{"a declaration with an unnamed pointer parameter keeps it", "int f(int*, float&);", "int f(int*, float&);"},
		{"AMD-only branch of a suite's switch", "#if defined(RAJA_ENABLE_HIP)\nhipFree(p);\n#endif", "#if defined(RAJA_ENABLE_HIP)\n           \n#endif"},
		{"statements as macro arguments", "void f() {\n  SWITCH(t.dtype, T, run<T>(x); n++;);\n}", "void f() {\n        {            run<T>(x); n++;};\n}"},
		{"block as the last macro argument", "void f() {\n  DISPATCH(kind, K, { go<K>(); });\n}", "void f() {\n          {         { go<K>(); }};\n}"},
		{"block after an expression argument", "void f() {\n  DISPATCH(a / b, G, { go<G>(); });\n}", "void f() {\n          {          { go<G>(); }};\n}"},
		{"statements after a call argument, template commas", "void f() {\n  SWITCH(x.dtype(), T, run<T, U>(y); n++;);\n}", "void f() {\n        {              run<T, U>(y); n++;};\n}"},
		{"nested statement macros", "void f() {\n  OUTER(a.t(), A, INNER(b, B, go<A, B>();));\n}", "void f() {\n       {               {      go<A, B>();}};\n}"},
		{"statements after template arguments split over commas", "void f() {\n  D(t, \"n\", run<A, B, float>(x););\n}", "void f() {\n   {        run<A, B, float>(x);};\n}"},
		{"statement macros nested three deep", "void f() {\n  D(a, 0, D(b, 1, D(c, 2, go<X>(a, b);)));\n}", "void f() {\n   {       {       {      go<X>(a, b);}}};\n}"},
		{"if statement as the last macro argument", "void f() {\n  SW(c, K, if (K) { go(); } else { stop(); });\n}", "void f() {\n    {      if (K) { go(); } else { stop(); }};\n}"},
		{"comparison argument untouched", "void f() {\n  x = MIN(a < b, c);\n}", "void f() {\n  x = MIN(a < b, c);\n}"},
		{"member initializers before another declarator", "struct R {\n  unsigned head = 0, tail = 0;\n};", "struct R {\n  unsigned head    , tail = 0;\n};"},
		{"member initializer with template arguments untouched", "struct R {\n  static constexpr bool k = f<A, B, C>();\n};", "struct R {\n  static constexpr bool k = f<A, B, C>();\n};"},
		{"enumerators untouched", "struct R {\n  enum { A = 1, B = 2 };\n};", "struct R {\n  enum { A = 1, B = 2 };\n};"},
		{"local declarators untouched", "void f() {\n  int a = 0, b = 1;\n}", "void f() {\n  int a = 0, b = 1;\n}"},
		{"computed include", "#include BACKEND_HEADER(atomic.cuh)\nint x;", "#include BACKEND_HEADER(          )\nint x;"},
		{"macro as a template parameter", "template <typename T, ENABLE_IF(is_int<T> || b)>\nvoid f(T x);", "template <typename T, int                      >\nvoid f(T x);"},
		{"explicit operator calls", "bool g() {\n  return !operator bool() && this->operator[](1);\n}", "bool g() {\n  return !operator_bool() && this->operator__(1);\n}"},
		{"operator declarations untouched", "struct S {\n  bool operator[](int i) const;\n  explicit operator bool() const;\n};", "struct S {\n  bool operator[](int i) const;\n  explicit operator bool() const;\n};"},
		{"qualified member definition after a qualifier macro", "template <typename T>\nHD_MACRO index_t deque<T>::size() const { return n; }", "template <typename T>\n         index_t deque<T>::size() const { return n; }"},
		{"qualified constructor after a qualifier macro", "template <typename T>\nHD_MACRO\nbits<T>::ref::ref(int b) : v(b) {}", "template <typename T>\n        \nbits<T>::ref::ref(int b) : v(b) {}"},
		{"check macro continued by a stream operator", "void f() {\n  x = 1;\n  CHECK(p == nullptr)\n      << \"message\";\n}", "void f() {\n  x = 1;\n  CHECK(p == nullptr)\n      << \"message\";\n}"},
		{"macros adding parameters at the end of a list", "void f(double cap EXTRA_PARAMS PROFILER_PARAMS) {}", "void f(double cap                             ) {}"},
		{"bare template disambiguator", "void f() {\n  smem.template store(x);\n}", "void f() {\n  smem.         store(x);\n}"},
		{"template disambiguator with arguments untouched", "void f() {\n  smem.template store<4>(x);\n}", "void f() {\n  smem.template store<4>(x);\n}"},
		{"conditional else branch", "void f() {\n  if (a) { x(); }\n#if V2\n  else { y(); }\n#endif\n}", "void f() {\n  if (a) { x(); }\n      \n  else { y(); }\n      \n}"},
		{"statement macros without semicolons before case labels", "void f() {\n  switch (t) {\n  case 1: RUN(int8_t, uint8_t)\n  case 2: RUN(float, int)\n  }\n}", "void f() {\n  switch (t) {\n  case 1: RUN Int8_t, Uint8_t;\n  case 2: RUN Float, Int;\n  }\n}"},
		{"statement macro without a semicolon before a comment", "void f() {\n  RUN(f(a)) // note\n  RUN(g(b));\n}", "void f() {\n  RUN(f(a));// note\n  RUN(g(b));\n}"},
		{"pointer default of a template parameter", "template <typename T = void*, int N = 2>\nvoid f();", "template <typename T = void , int N = 2>\nvoid f();"},
		{"declaration as a macro argument", "void f() {\n  EXPECT_THROW(Buf b(nullptr, 1), error);\n}", "void f() {\n              {Buf b(nullptr, 1);      };\n}"},
		{"declaration as the only macro argument", "void f() {\n  EXPECT_NO_THROW(Buf b(4));\n}", "void f() {\n                 {Buf b(4);}\n}"},
		{"call arguments untouched", "void f() {\n  CHECK(run(a, b), 0);\n}", "void f() {\n  CHECK(run(a, b), 0);\n}"},
		{"scope macros around a block", "void f() {\n  BEGIN_CHECK {\n    g();\n  } END_CHECK;\n}", "void f() {\n              {\n    g();\n  }          ;\n}"},
		{"block comment inside a define", "#define RUN(n) \\\n  go({n, /*hint=*/0}); \\\n  stop()\nint x;", "#define RUN(n) \\\n  go({n,          0}); \\\n  stop()\nint x;"},
		{"comment text inside a string of a define untouched", "#define S \"a/*b*/\"\nint x;", "#define S \"a/*b*/\"\nint x;"},
		{"error handler as the last macro argument", "bool f() {\n  CHECK(run(a, b), return false);\n}", "bool f() {\n  CHECK(run(a, b)              );\n}"},
		{"initializer list argument untouched", "void f() {\n  call(a, {1, 2});\n}", "void f() {\n  call(a, {1, 2});\n}"},
		{"if with an initializer untouched", "void f() {\n  if (auto e = g(); e) h();\n}", "void f() {\n  if (auto e = g(); e) h();\n}"},
		{"semicolon after a const member function", "struct S {\n  int get() const { return v; };\n  int v;\n};", "struct S {\n  int get() const { return v; } \n  int v;\n};"},
		{"has_include condition", "#if __has_include(<filesystem>)\nint x;\n#endif", "#if 1                          \nint x;\n#endif"},
		{"decltype brace initialization", "constexpr int k = decltype(c){};", "constexpr int k =         (c){};"},
		{"trailing decltype return type untouched", "auto f(int x) -> decltype(x) { return x; }", "auto f(int x) -> decltype(x) { return x; }"},
		{"pointer qualifier macro", "void f(const float *p) {\n  const float * MY_RESTRICT x = p;\n}", "void f(const float *p) {\n  const float *             x = p;\n}"},
		{"multiplication untouched", "void f() {\n  y = a * SCALE;\n  z = b * K + c;\n}", "void f() {\n  y = a * SCALE;\n  z = b * K + c;\n}"},
		{"type argument of a statement macro", "void f() {\n  RUN_PASS(float, 32, v);\n}", "void f() {\n  RUN_PASS(Float, 32, v);\n}"},
		{"type argument of an expression untouched", "int n = COUNT(int, 3);", "int n = COUNT(int, 3);"},
		{"macro call in a class body", "struct S {\n  int a;\n  CHECK_SIZE(N == 8, \"n\");\n};", "struct S {\n  int a;\n                          \n};"},
		{"member function call untouched", "void f() {\n  S s{};\n  INIT(s);\n}", "void f() {\n  S s{};\n  INIT(s);\n}"},
		{"macro arguments in a nested namespace", "namespace a::b {\nINSTANTIATE(float, int);\n}", "namespace a::b {\nINSTANTIATE(          );\n}"},
		{"for header untouched", "void f() {\n  for (i = 0; i < n; i++) g();\n}", "void f() {\n  for (i = 0; i < n; i++) g();\n}"},
		{"asm constraint macro", `asm volatile("st.u32 [%0], %1;" :: PTR_CONSTRAINT(p), "r"(v) : "memory");`, `asm volatile("st.u32 [%0], %1;" :: "l"           (p), "r"(v) : "memory");`},
		{"asm constraint macro of an output", `asm("ld %0;" : OUT_C(s.v));`, `asm("ld %0;" : "l"  (s_v));`},
		{"stray byte in a name", "\xf9do { g(); } while (x);", "_do { g(); } while (x);"},
		{"UTF-8 name, comment and string", "int \u00e9t\u00e9 = 1; // \u00e9\nauto s = \"\u00e9\";", "int __t__ = 1; // \u00e9\nauto s = \"\u00e9\";"},
		{"stray semicolon after namespace", "namespace a {\nint x;\n}; // namespace a", "namespace a {\nint x;\n}  // namespace a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := Neutralize([]byte(tt.in))
			checkShape(t, []byte(tt.in), out)
			if string(out) != tt.want {
				t.Errorf("Neutralize(%q)\n got %q\nwant %q", tt.in, out, tt.want)
			}
		})
	}
}

func TestNeutralizeRecordsWhatItRemoved(t *testing.T) {
	src := []byte("__global__ void k(int *p) {}\n__device__ int counter;\n__managed__ float m;\nvoid host() { k<<<g, b, 16, stream>>>(p); }\n")
	_, rw := Neutralize(src)
	var kinds []string
	for _, q := range rw.Qualifiers {
		kinds = append(kinds, q.Kind.String()+"@"+string(src[q.Start:q.End]))
	}
	if got := strings.Join(kinds, " "); got != "global@__global__ device@__device__ managed@__managed__" {
		t.Errorf("qualifiers: %s", got)
	}
	if len(rw.Launches) != 1 {
		t.Fatalf("launches: %+v", rw.Launches)
	}
	var cfg []string
	for _, r := range rw.Launches[0].Config {
		cfg = append(cfg, string(src[r.Start:r.End]))
	}
	if got := strings.Join(cfg, "|"); got != "g|b|16|stream" {
		t.Errorf("launch configuration: %s", got)
	}
}

// TestNeutralizeKeepsShapeOnEveryByte feeds the pre-pass inputs that stress
// its scanning and checks length, line breaks and idempotence.
func TestNeutralizeKeepsShapeOnEveryByte(t *testing.T) {
	inputs := []string{
		"", "<<<", ">>>", "k<<<", "k<<<a>>>", "k<<<a>>>(", "\"unterminated", "/* unterminated",
		"R\"x(unterminated", "#define X \\\n  __global__\\\r\nint y;", "__global__\r\nvoid k() {}\r\n",
		"ü__global__ü k<<<1,1>>>(é);", "#if 0\n#if 1\n#else\n#endif\n", "#if A\nvoid f() {\n#else\nvoid f(int) {\n#endif\n}\n",
		strings.Repeat("{", 1000) + strings.Repeat("}", 1000), "a<<<b<<<c>>>(d)>>>(e);",
	}
	for _, in := range inputs {
		out, _ := Neutralize([]byte(in))
		checkShape(t, []byte(in), out)
		again, _ := Neutralize(out)
		if !bytes.Equal(again, out) {
			t.Errorf("not idempotent on %q:\n once %q\ntwice %q", in, out, again)
		}
	}
}

func TestCommentedDefines(t *testing.T) {
	src := []byte("// #define A\n  //#define B 1\n#define C\nx; // #define D\n// # define E\n//#defineF\n/* #define G */\n")
	got := commentedDefines(src)
	want := []string{"A", "B", "E"}
	if !slices.Equal(got, want) {
		t.Errorf("commentedDefines = %q, want %q", got, want)
	}
}
