package cudaparse

import "testing"

func TestRegisteredWith(t *testing.T) {
	cases := []struct {
		src, name, method string
		want              bool
	}{
		{"BENCHMARK(run)->Iterations(10);", "run", "Iterations", true},
		{"BENCHMARK_TEMPLATE( run , float)\n  ->Unit(benchmark::kMillisecond)\n  -> Iterations (3);", "run", "Iterations", true},
		{"BENCHMARK(run_all)->Iterations(10);", "run", "Iterations", false},
		{"BENCHMARK(run); x->Iterations(10);", "run", "Iterations", false},
		{"BENCHMARK(run)->UseManualTime();", "run", "Iterations", false},
		{"BENCHMARK(run)->UseManualTime();", "run", "UseManualTime", true},
		{"BENCHMARK(other)->Iterations(1); BENCHMARK(run)->Iterations(2);", "run", "Iterations", true},
		{"BENCHMARK(run)->IterationsX(2);", "run", "Iterations", false},
		{"BENCHMARK(\x91)->Iterations(2);", "\x91", "Iterations", true},
		{"BENCHMARK(\x91b)->Iterations(2);", "\x91", "Iterations", false},
		{"BENCHMARK(run)->Iterations", "run", "Iterations", false},
		{"BENCHMARK", "run", "Iterations", false},
		{"BENCHMARK(run)->Iterations(1);", "", "Iterations", false},
	}
	for _, c := range cases {
		if got := registeredWith([]byte(c.src), c.name, c.method); got != c.want {
			t.Errorf("registeredWith(%q, %q, %q) = %v, want %v", c.src, c.name, c.method, got, c.want)
		}
	}
}
