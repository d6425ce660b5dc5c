package cudaparse

import (
	"reflect"
	"strings"
	"testing"
)

func TestScanDirectives(t *testing.T) {
	src := []byte(`#include "gpu/api.h"
#  include <cuda_runtime.h>
// #define NOT_A_MACRO 1 (a comment line)
#define gpuMalloc cudaMalloc
#define GPU_API(x) cuda##x
#define gpuMemGetInfo(...) \
    cudaMemGetInfo(__VA_ARGS__)
int x = 1; # not a directive
`)
	macros, includes := ScanDirectives(src)
	wantIncludes := []Include{{Path: "gpu/api.h", Quoted: true}, {Path: "cuda_runtime.h"}}
	if !reflect.DeepEqual(includes, wantIncludes) {
		t.Errorf("includes = %+v, want %+v", includes, wantIncludes)
	}
	var names []string
	for _, m := range macros {
		names = append(names, m.Name)
	}
	if want := []string{"gpuMalloc", "GPU_API", "gpuMemGetInfo"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("macros = %v, want %v", names, want)
	}
	if got := macros[2].Body; got != "cudaMemGetInfo(__VA_ARGS__)" {
		t.Errorf("continued body = %q", got)
	}
}

func table(t *testing.T, src string) MacroTable {
	t.Helper()
	macros, _ := ScanDirectives([]byte(src))
	tab := MacroTable{}
	tab.Add(macros...)
	return tab
}

func TestCalleeName(t *testing.T) {
	tab := table(t, `#define gpuMalloc cudaMalloc
#define gpuFree(p) cudaFree(p)
#define gpuMemGetInfo(...) cudaMemGetInfo(__VA_ARGS__)
#define devAlloc gpuMalloc
#define qualified ::cuda_ns::cudaLaunch
#define CHECK(x) x
#define LOG(x) log_error((x), #x, __FILE__)
#define selfish selfish
#define ping pong
#define pong ping
#ifdef __HIP_PLATFORM_AMD__
#define portableMalloc hipMalloc
#else
#define portableMalloc cudaMalloc
#endif
`)
	cases := map[string]string{
		"gpuMalloc":      "cudaMalloc",
		"gpuFree":        "cudaFree",
		"gpuMemGetInfo":  "cudaMemGetInfo",
		"devAlloc":       "cudaMalloc", // an alias of an alias
		"qualified":      "cudaLaunch",
		"portableMalloc": "cudaMalloc", // CUDA wins over the HIP branch
		"CHECK":          "",           // a wrapper, not a rename
		"LOG":            "",           // arguments rearranged: not a pass-through
		"selfish":        "",           // expands into itself
		"unknown":        "",
	}
	for name, want := range cases {
		got, ok := tab.calleeName(name, 0)
		if got != want || ok != (want != "") {
			t.Errorf("calleeName(%s) = %q, %v; want %q", name, got, ok, want)
		}
	}
	// A cycle ends at the depth bound with some name of the cycle, never hangs.
	if got, _ := tab.calleeName("ping", 0); got != "ping" && got != "pong" {
		t.Errorf("calleeName(ping) = %q", got)
	}
}

func TestPastedName(t *testing.T) {
	tab := table(t, `#define GPU_API(x) cuda##x
#define CAT(a, b) a##b
#define API(x) CAT(cuda, x)
#define LOOP(x) LOOP(x)
#define HIPORCUDA(x) hip##x
#define HIPORCUDA(x) cuda##x
`)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"GPU_API", []string{"Malloc"}, "cudaMalloc"},
		{"API", []string{"MemGetInfo"}, "cudaMemGetInfo"},
		{"HIPORCUDA", []string{"Free"}, "cudaFree"},
		{"LOOP", []string{"x"}, ""},
		{"GPU_API", []string{"a", "b"}, ""}, // wrong number of arguments
	}
	for _, c := range cases {
		got, ok := tab.pastedName(c.name, c.args, 0)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("pastedName(%s%v) = %q, %v; want %q", c.name, c.args, got, ok, c.want)
		}
	}
}

// Calls spelled through the file's own macros are named after the CUDA
// call they expand to.
func TestCallsThroughRenamingMacros(t *testing.T) {
	src := `#define gpuMalloc cudaMalloc
#define GPU_API(x) cuda##x
void f(void **p, size_t n) {
  gpuMalloc(p, n);
  GPU_API(Free)(*p);
  other(p);
}
`
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("m.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range f.Calls {
		got[c.Name] = c.Spelled
	}
	if got["cudaMalloc"] != "gpuMalloc" || got["cudaFree"] != "GPU_API(Free)" {
		t.Errorf("calls = %v", got)
	}
	if _, ok := got["other"]; !ok {
		t.Errorf("other call lost: %v", got)
	}
}

// Volatile access through chains of macros, cycles included: the table's
// names and VolatileAccess agree, and a cycle ends.
func TestVolatileAccessNames(t *testing.T) {
	table := MacroTable{}
	def := func(name, params, body string) Macro {
		return Macro{Name: name, Params: strings.Split(params, ","), FunctionLike: true, Body: body}
	}
	table.Add(
		def("ACCESS_ONCE", "x", "(*(volatile typeof(x) *)&(x))"),
		def("READ_ONCE", "x", "ACCESS_ONCE(x)"),
		def("WRITE_ONCE", "x,v", "(ACCESS_ONCE(x) = (v))"),
		def("PING", "x", "PONG(x)"), // PING -> PONG -> PING, and PONG -> READ_ONCE
		def("PONG", "x", "PING(x) + READ_ONCE(x)"),
		def("SELF", "x", "SELF(x)"),
		def("LOOP_A", "x", "LOOP_B(x)"),
		def("LOOP_B", "x", "LOOP_A(x)"),
		def("PLAIN", "x", "(x) + 1"),
	)
	want := map[string]bool{"ACCESS_ONCE": true, "READ_ONCE": true, "WRITE_ONCE": true, "PING": true, "PONG": true}
	got := table.VolatileAccessNames()
	for name := range table {
		_, ok := table.VolatileAccess(name)
		if ok != want[name] || got[name] != want[name] {
			t.Errorf("%s: VolatileAccess %v, VolatileAccessNames %v, want %v", name, ok, got[name], want[name])
		}
	}
	if write, _ := table.VolatileAccess("WRITE_ONCE"); !write {
		t.Error("WRITE_ONCE does not write")
	}
}
