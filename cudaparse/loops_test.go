package cudaparse

import "testing"

func TestCallsInLoop(t *testing.T) {
	names := []string{"cudaMalloc", "cuMemAlloc"}
	cases := []struct {
		src  string
		want bool
	}{
		{"void f() { cudaMalloc(&p, n); }", false},
		{"void f() { while (cudaMalloc(&p, n) == cudaSuccess) v.push_back(p); }", true},
		{"void f() { for (;;) { if (cuMemAlloc(&d, n) != CUDA_SUCCESS) break; } }", true},
		{"void f() { do { e = cuMemAlloc(&d, n); } while (e == CUDA_SUCCESS); }", true},
		{"void f() { do e = cuMemAlloc(&d, n); while (e == CUDA_SUCCESS); }", true},
		{"void f() { for (int i = 0; i < 4; i++) g(i); cudaMalloc(&p, n); }", false},
		{"void f() { for (int i = 0; i < 4; i++) for (;;) { if (x) { cudaMalloc(&p, n); } } }", true},
		{"void f() { while (x) { g(); } cudaMalloc(&p, n); }", false},
		{"void f() { while (x); cudaMalloc(&p, n); }", false},
		{"void f() { if (x) { cudaMalloc(&p, n); } }", false},
		{"// while (cudaMalloc(&p, n))\nvoid f() { cudaMalloc(&p, n); }", false},
		{"void f() { const char *s = \"for (;;) cudaMalloc(\"; cudaMalloc(&p, n); }", false},
		{"void f() { while (more) try_alloc(); }", false},
		{"void f() { for (auto &x : xs) { auto l = [&] { cudaMalloc(&x, n); }; l(); } }", true},
		{"void f() { int cudaMalloc = 0; while (x) cudaMalloc++; }", false},
		// Comments between a loop's keyword, header and body (found by FuzzRules).
		{"void f() { while /* retry */ (cudaMalloc(&p, n) == 0); }", true},
		{"void f() { for (;;) // until it fails\n { if (cudaMalloc(&p, n)) break; } }", true},
		{"void f() { do /* grab */ cudaMalloc(&p, n); while (ok); }", true},
	}
	for _, c := range cases {
		if got := CallsInLoop([]byte(c.src), names); got != c.want {
			t.Errorf("CallsInLoop(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

// A comment that never ends: the parser goes on after it, so the lexer's
// answer cannot be trusted (found by FuzzRules).
func TestCallsInLoopUnterminated(t *testing.T) {
	for _, src := range []string{
		"/* never closed\nvoid f() { for (;;) { if (cudaMalloc(&p, n)) break; } }\n",
		"const char *s = \"never closed\nvoid f() { while (cudaMalloc(&p, n) == 0) {} }",
	} {
		if !CallsInLoop([]byte(src), []string{"cudaMalloc"}) {
			t.Errorf("CallsInLoop(%q) = false", src)
		}
	}
}

func TestCallsInLoopThrough(t *testing.T) {
	names := []string{"atomicAdd", "load"}
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"__global__ void k(int *f) { while (atomicAdd(f, 0) == 0) {} }", true},
		{"__global__ void k(int *f) { atomicAdd(f, 1); }", false},
		// A helper of the file, called in a loop.
		{"__device__ int peek(int *f) { return atomicAdd(f, 0); }\n__global__ void k(int *f) { while (peek(f) == 0) ; }", true},
		// A helper of a helper.
		{"__device__ int peek(int *f) { return atomicAdd(f, 0); }\n__device__ int ready(int *f) { return peek(f); }\n__global__ void k(int *f) { do { } while (!ready(f)); }", true},
		// The helper is called, but not in a loop.
		{"__device__ int peek(int *f) { return atomicAdd(f, 0); }\n__global__ void k(int *f) { int v = peek(f); for (int i = 0; i < v; ++i) out(i); }", false},
		// A loop calls a function of the file that reads nothing.
		{"__device__ int twice(int x) { return 2 * x; }\n__global__ void k(int *f) { for (int i = 0; i < 4; ++i) f[i] = twice(i); }", false},
		// Method calls count by name: flag.load() in a loop.
		{"__global__ void k(cuda::atomic<int> &flag) { while (flag.load() == 0) {} }", true},
	} {
		if got := CallsInLoopThrough([]byte(c.src), names); got != c.want {
			t.Errorf("CallsInLoopThrough(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestSpellsLoop(t *testing.T) {
	for src, want := range map[string]bool{
		"while (!*flag) {}":                    true,
		"do { x++; } while (x < n);":           true,
		"for (int i = 0; i < n; ++i) {}":       true,
		"for\n  (;;) {}":                       true,
		"for /* ever */ (;;)":                  true,
		"// for license information":           false,
		"int before(int x); int format;":       false,
		"asm volatile(\"ld.acquire.gpu.b32\")": false,
		"meanwhile();":                         false,
	} {
		if got := SpellsLoop([]byte(src)); got != want {
			t.Errorf("SpellsLoop(%q) = %v, want %v", src, got, want)
		}
	}
}
