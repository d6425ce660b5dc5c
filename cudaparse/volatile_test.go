package cudaparse

import "testing"

func TestVolatileData(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"__global__ void k(volatile int *flag) { while (*flag == 0) {} }", true},
		{"__device__ int peek(int *p) { return *(volatile int *)p; }", true},
		{"static __device__ volatile int ready;", true},
		{"#define LOAD(p) (*(volatile int *)(p))\n", true},
		// asm statements, comments, strings and member functions do not.
		{"__device__ void f() { asm volatile(\"membar.gl;\" ::: \"memory\"); }", false},
		{"__device__ void f() { asm  __volatile__ (\"bar.sync 0;\"); __asm__ volatile(\"\"); }", false},
		{"// a volatile read\nint x; const char *s = \"volatile\";", false},
		{"struct S { int get() volatile { return 0; } };", false},
		{"#define FENCE() asm volatile(\"fence.sc.gpu;\")\n", false},
		{"template <class T> using rv = std::remove_volatile_t<T>;", false},
	} {
		if got := VolatileData([]byte(c.src)); got != c.want {
			t.Errorf("VolatileData(%q) = %v, want %v", c.src, got, c.want)
		}
	}
}
