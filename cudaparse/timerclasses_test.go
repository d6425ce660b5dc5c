package cudaparse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/knowledge"
)

func TestTimerClasses(t *testing.T) {
	cases := []struct {
		name, src string
		want      []knowledge.TimerClass
	}{
		{"constructor starts through a method", `
#include <sys/time.h>
class Clocker {
 public:
  Clocker() { Mark(); }
  explicit Clocker(bool go) { if (go) Mark(); }
  void Mark() { gettimeofday(&t0_, 0); }
  double Elapsed() const { timeval t; gettimeofday(&t, 0); return t.tv_sec - t0_.tv_sec; }
  ~Clocker() {}
 private:
  timeval t0_;
};`, []knowledge.TimerClass{{Class: "Clocker", Reads: []string{"Elapsed", "Mark"}, Constructor: true}}},
		{"out of line, through a static helper and a forwarding twin", `
#include "lap.hpp"
static double mono() { timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec; }
namespace impl {
Lap::Lap() : begun(0) {}
void Lap::Begin() { begun = mono(); }
double Lap::Total() { return mono() - begun; }
}
void Lap::Begin() { p->Begin(); }
int Lap::Count() { return n; }`, []knowledge.TimerClass{{Class: "Lap", Reads: []string{"Begin", "Total"}}}},
		{"methods without a clock", `
struct Tally {
  void Start() { n = 0; }
  void Stop() { done = true; }
  double Total() const { return n; }
  int n; bool done;
};
double stamp() { return omp_get_wtime(); }`, nil},
		{"reads a clock but is no timer", `
class Solver {
 public:
  double Run() { auto t = std::chrono::steady_clock::now(); iterate(); return 0; }
};`, nil},
		{"launches: no timer", `
class Timer {
 public:
  void start() { t = std::chrono::steady_clock::now(); }
  void warm() { noop<<<1, 1>>>(); }
};`, nil},
		{"template parameter is no class", `
template <class T> void tick(T &x) { x.t = clock(); }`, nil},
		{"constructor after a member initializer list, in a namespace", `
namespace lab { namespace perf {
Watch::Watch(int comm, bool sync)
  : comm_(comm)
  , sync_(sync)
{
  reset();
  start();
}
void Watch::start() { t0_ = std::chrono::steady_clock::now(); }
void Watch::reset() { total_ = 0; }
} }`, []knowledge.TimerClass{{Class: "Watch", Reads: []string{"start"}, Constructor: true, Namespace: "lab::perf"}}},
		{"qualified out of line, in-class initializer list", `
double util::Ticker::since() { return std::chrono::steady_clock::now() - t0_; }
namespace util {
class Ticker {
 public:
  Ticker() : t0_(std::chrono::steady_clock::now()) {}
  double since();
};
}`, []knowledge.TimerClass{{Class: "Ticker", Reads: []string{"since"}, Constructor: true, Namespace: "util"}}},
	}
	for _, c := range cases {
		got := TimerClasses([]byte(c.src), nil)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestDeclaresObjectOf(t *testing.T) {
	for src, want := range map[string]bool{
		"Clocker tim;":                true,
		"kaldi::Clocker tim(false);":  true,
		"Clocker tim{}; ":             true,
		"Clocker *tim = nullptr;":     false,
		"const Clocker &tim = other;": false,
		"MyClocker tim;":              false,
		"return Clocker::Now();":      false,
		"std::vector<Clocker> laps;":  false,
		"Clocker a, b;":               true,
	} {
		if got := declaresObjectOf([]byte(src), "Clocker", nil); got != want {
			t.Errorf("%q: got %v, want %v", src, got, want)
		}
	}
	// The project's class is in a namespace (or the global one): an
	// object of another namespace's class of the name is not its.
	for _, tt := range []struct {
		src        string
		namespaces []string
		want       bool
	}{
		{"Kokkos::Timer timer;", []string{""}, false},
		{"Timer timer;", []string{""}, true},
		{"::Timer timer;", []string{""}, true},
		{"util::Timer timer;", []string{"app::util"}, true},
		{"Kokkos::Timer timer;", []string{"app::util"}, false},
		{"Kokkos::Timer timer;", []string{"Kokkos"}, true},
		{"timer2::Timer timer;", []string{"timer"}, true},
		{"Kokkos::Timer a; Timer b;", []string{""}, true},
	} {
		if got := declaresObjectOf([]byte(tt.src), "Timer", tt.namespaces); got != tt.want {
			t.Errorf("%q in %q: got %v, want %v", tt.src, tt.namespaces, got, tt.want)
		}
	}
}

// containsHostClockCall answers what a search for each "name(" of
// knowledge.HostClockCalls answers, a name ending a longer one included.
func TestContainsHostClockCall(t *testing.T) {
	spelled := func(src string) bool {
		for name := range knowledge.HostClockCalls {
			if strings.Contains(src, name+"(") {
				return true
			}
		}
		return false
	}
	for _, src := range []string{
		"", "(", "x(", "clock(", "f(clock ()", "t0 = clock();", "my_gettimeofday(&tv, 0);",
		"double s = omp_get_wtime();", "MPI_Wtime()", "clock64()", "seconds", "time(NULL)",
		"sdkStartTimer(&t); g(); sdkStopTimer(&t);", "__rdtsc()", "a(b(c(d(e(wall_time(",
	} {
		if got, want := containsHostClockCall([]byte(src)), spelled(src); got != want {
			t.Errorf("containsHostClockCall(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestNamespaceAt(t *testing.T) {
	src := `namespace a {
int x;  // a
namespace { int hidden; }  // a
inline namespace v2 { int y; }  // a
namespace b::c { int z; }  // a::b::c
struct S { int w; };  // a
}
namespace fs = std::filesystem;
int g;  // global
`
	blocks := namespaceBlocks([]byte(src))
	for _, line := range strings.Split(src, "\n") {
		_, want, ok := strings.Cut(line, "// ")
		if !ok {
			continue
		}
		if want == "global" {
			want = ""
		}
		at := strings.Index(src, line) + strings.Index(line, "int")
		if got := namespaceAt(blocks, at); got != want {
			t.Errorf("%q: namespace %q, want %q", line, got, want)
		}
	}
}

func TestSeesNamespace(t *testing.T) {
	for _, c := range []struct {
		src, ns string
		want    bool
	}{
		{"Timer t;", "", true},
		{"dealii::Timer t;", "dealii", true},
		{"internal::Timer t;", "testing::internal", true},
		{"using namespace dealii;\nTimer t;", "dealii", true},
		{"using namespace ::dealii ;\nTimer t;", "dealii", true},
		{"namespace dealii { void f() { Timer t; } }", "dealii", true},
		{"using namespace dealii;\nTimer t;", "Kokkos", false},
		{"dealii::Timer t; // not Kokkos::Timers", "Kokkos", false},
		{"MyKokkos::Timer t;", "Kokkos", false},
		{"using namespace Kokkos_extra;\nTimer t;", "Kokkos", false},
	} {
		if got := SeesNamespace([]byte(c.src), c.ns, "Timer"); got != c.want {
			t.Errorf("SeesNamespace(%q, %q) = %v, want %v", c.src, c.ns, got, c.want)
		}
	}
}

func TestInitializerListOwner(t *testing.T) {
	for _, c := range []struct{ src, item, want string }{
		{"Timer::Timer(int c) : comm_(c), sync_(false) {", "sync_", "Timer"},
		{"Timer() noexcept : begun_{now()}, n_(0) {", "n_", "Timer"},
		{"Derived(int n) : Base<int>(n), ns::Mixin(1), k_(n) {", "k_", "Derived"},
		{"Solo(int n) : k_(n) {", "k_", "Solo"},
		{"void run() { x = cond ? a : b_(1); }", "b_", ""},
		{"int f(int a, int b_(int)) {", "b_", ""},
		{"switch (k) { case 1: go_(2); }", "go_", ""},
	} {
		at := strings.LastIndex(c.src, c.item)
		got, ok := initializerListOwner([]byte(c.src), at)
		if string(got) != c.want || ok != (c.want != "") {
			t.Errorf("%q at %q: got %q, %v; want %q", c.src, c.item, got, ok, c.want)
		}
	}
}
