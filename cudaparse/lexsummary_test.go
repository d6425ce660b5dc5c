package cudaparse

import (
	"reflect"
	"testing"
)

func TestLexicalSummary(t *testing.T) {
	src := []byte(`// A launcher file as a header would hold it.
template <typename T>
void launch_scale(T *p, int n, cudaStream_t s) {
  detail::scale<T, 4><<<(n + 255) / 256, 256, 0, s>>>(p, n);  // "<<<" in a comment
}

static void launch_api(float *p) {
  void *args[] = {&p};
  cudaLaunchKernel((const void *)relu, dim3(1), dim3(1), args, 0, 0);
  cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, args, 0);
}

void preload_table() {
  for (const void *k : table) {
    cudaFuncAttributes a;
    cudaFuncGetAttributes(&a, k);
  }
  cudaFuncGetAttributes(&a, reinterpret_cast<const void *>(&gelu<float>));
}

void driver(float *p) {
  launch_scale(p, 1, 0);
  obj.run();
  cudaSetDevice(1);
}
`)
	s := LexicalSummary("x.cuh", src, nil, nil)
	got := map[string][]SummaryStep{}
	var local []string
	for _, fn := range s.Functions {
		got[fn.Name] = fn.Steps
		if fn.Local {
			local = append(local, fn.Name)
		}
	}
	kinds := func(name string) (out []string) {
		for _, st := range got[name] {
			switch st.Kind {
			case StepLaunch:
				out = append(out, "launch "+st.Keys[0])
			case StepPreload:
				out = append(out, "preload "+st.Keys[0])
			case StepPreloadAll:
				out = append(out, "preload all")
			case StepCall:
				m := ""
				if st.Method {
					m = " (method)"
				}
				out = append(out, "call "+st.Callee+m)
			case StepDeviceSwitch:
				out = append(out, "switch")
			}
		}
		return out
	}
	want := map[string][]string{
		"launch_scale":  {"launch detail::scale<T,4>"},
		"launch_api":    {"launch relu"}, // cuLaunchKernel takes a loaded CUfunction
		"preload_table": {"preload all", "preload gelu<float>"},
		"driver":        {"call launch_scale", "call run (method)", "switch"},
	}
	for name, w := range want {
		if k := kinds(name); !reflect.DeepEqual(k, w) {
			t.Errorf("%s: %v, want %v", name, k, w)
		}
	}
	if !reflect.DeepEqual(local, []string{"launch_api"}) {
		t.Errorf("local functions %v, want [launch_api]", local)
	}
}

// Definitions of one name in two branches of a preprocessor conditional
// are variants of one function; overloads side by side are not.
func TestLexicalSummaryVariants(t *testing.T) {
	src := []byte(`#ifdef SUN
double wall(void) { return gethrtime() / 1e9; }
#elif defined(UNIX_TIMER)
double wall(void) { struct tms t; times(&t); return t.tms_utime; }
#else
double wall(void) { return MPI_Wtime(); }
#endif
double scale(double x) { return 2 * x; }
double scale(double x, double y) { return x * y; }
`)
	variant := map[string][]bool{}
	for _, fn := range LexicalSummary("clock.c", src, nil, nil).Functions {
		variant[fn.Name] = append(variant[fn.Name], fn.Variant)
	}
	if got := variant["wall"]; len(got) != 3 || !got[0] || !got[1] || !got[2] {
		t.Errorf("wall: variants %v, want three", got)
	}
	if got := variant["scale"]; len(got) != 2 || got[0] || got[1] {
		t.Errorf("scale: variants %v, want none (overloads)", got)
	}
}

func TestReadsInOneBuild(t *testing.T) {
	clocks := [][]byte{[]byte("gettimeofday("), []byte("QueryPerformanceCounter(")}
	for _, c := range []struct {
		body string
		want int
	}{
		{"{ gettimeofday(&a, 0); x(); gettimeofday(&b, 0); }", 2},
		{"{\n#ifdef WIN32\n QueryPerformanceCounter(&li);\n#else\n gettimeofday(&tv, 0);\n#endif\n}", 1},
		{"{\n#if A\n gettimeofday(&a, 0); gettimeofday(&b, 0);\n#elif B\n QueryPerformanceCounter(&li);\n#endif\n gettimeofday(&c, 0);\n}", 3},
		{"{\n#ifdef A\n#ifdef B\n gettimeofday(&a, 0);\n#else\n gettimeofday(&b, 0);\n#endif\n#endif\n}", 1},
	} {
		if got := readsInOneBuild([]byte(c.body), clocks); got != c.want {
			t.Errorf("readsInOneBuild(%q) = %d, want %d", c.body, got, c.want)
		}
	}
}
