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
