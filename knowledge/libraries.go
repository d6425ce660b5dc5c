package knowledge

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Libraries that launch kernels for the code they are given. A call of a
// performance-portability layer's parallel pattern instantiates a kernel
// for its functor or lambda in the calling file: every lambda is a kernel
// of its own, every functor type another, and each loads at its first
// launch like a kernel of the file (the same holds for CUB and thrust
// algorithms, which LL002 keys by algorithm and types).

// LibraryLauncher is one family of library calls that launch a kernel
// built from one of their arguments.
type LibraryLauncher struct {
	// Library names the library in messages ("Kokkos").
	Library string
	// Qualifiers are the namespaces a call is written under (the last
	// component: "Kokkos" for Kokkos::parallel_for); a call written without
	// one counts only in a file that spells the library's name.
	Qualifiers []string
	// Names are the calls.
	Names map[string]bool
	// HostPolicies are words that, in the call's execution policy or
	// template arguments, make it run on the host (no kernel).
	HostPolicies []string
	// NestedPolicies are policies of a pattern nested in a kernel (a team's
	// threads or vector lanes): a device-side loop, no launch.
	NestedPolicies []string
	// FunctorAfterPolicy: without a lambda, the functor is the argument
	// after the policy (and after a leading label string), not the last
	// (Kokkos::parallel_reduce("l", policy, functor, result)).
	FunctorAfterPolicy bool
	// DevicePolicies, when set, are words one of which the call's template
	// arguments (or what they alias in the file) must spell for it to run on
	// the device: RAJA runs where its policy says, sequentially by default.
	DevicePolicies []string
}

// LibraryLaunchers are the portability layers' parallel patterns.
var LibraryLaunchers = []LibraryLauncher{
	{
		Library:            "Kokkos",
		Qualifiers:         []string{"Kokkos"},
		Names:              map[string]bool{"parallel_for": true, "parallel_reduce": true, "parallel_scan": true},
		HostPolicies:       []string{"Serial", "OpenMP", "Threads", "HPX", "DefaultHostExecutionSpace", "HostSpace"},
		NestedPolicies:     []string{"TeamThreadRange", "ThreadVectorRange", "TeamVectorRange", "TeamThreadMDRange", "ThreadVectorMDRange", "TeamVectorMDRange"},
		FunctorAfterPolicy: true,
	},
	{
		Library:        "RAJA",
		Qualifiers:     []string{"RAJA"},
		Names:          map[string]bool{"forall": true, "kernel": true, "launch": true, "kernel_param": true, "kernel_resource": true, "kernel_param_resource": true, "inclusive_scan": true, "exclusive_scan": true, "sort": true, "sort_pairs": true, "stable_sort": true},
		DevicePolicies: []string{"cuda", "gpu", "Cuda", "CUDA", "Gpu", "GPU", "device"},
	},
	{
		Library:      "AMReX",
		Qualifiers:   []string{"amrex"},
		Names:        map[string]bool{"ParallelFor": true, "ParallelForRNG": true, "launch": true},
		HostPolicies: []string{"RunOn::Host", "LoopOnCpu"},
	},
}

// LibraryLauncherOf returns the launcher family of a call named name under
// qualifier q (its last namespace component, "" when none), or nil.
// Unqualified calls match when unqualified is set (the file spells the
// library's namespace, as `using namespace Kokkos;` code does).
func LibraryLauncherOf(q, name string, unqualified func(library string) bool) *LibraryLauncher {
	for i := range LibraryLaunchers {
		l := &LibraryLaunchers[i]
		if !l.Names[name] {
			continue
		}
		for _, want := range l.Qualifiers {
			if q == want || q == "" && unqualified != nil && unqualified(want) {
				return l
			}
		}
	}
	return nil
}

// RunsOnHost reports whether a policy text names a host execution space.
func (l *LibraryLauncher) RunsOnHost(policy string) bool {
	for _, w := range l.HostPolicies {
		if strings.Contains(policy, w) {
			return true
		}
	}
	return false
}

// Nested reports whether a policy text names a pattern nested in a
// kernel.
func (l *LibraryLauncher) Nested(policy string) bool {
	for _, w := range l.NestedPolicies {
		if strings.Contains(policy, w) {
			return true
		}
	}
	return false
}

// NamesDevice reports whether a policy text names a device policy, for a
// library that needs one.
func (l *LibraryLauncher) NamesDevice(policy string) bool {
	if len(l.DevicePolicies) == 0 {
		return true
	}
	for _, w := range l.DevicePolicies {
		if strings.Contains(policy, w) {
			return true
		}
	}
	return false
}

// LibraryLaunchSpellings are literals every file that calls a library
// launcher contains: the library's namespace, written before the call or
// in a using-directive (the calls' own names, parallel_for or sort, are
// everywhere).
func LibraryLaunchSpellings() []string {
	var out []string
	for _, l := range LibraryLaunchers {
		out = append(out, l.Qualifiers...)
	}
	sort.Strings(out)
	return out
}

// LibraryTimerTypes are timer classes of libraries whose constructor
// starts the clock and whose ReadMethods read it (Kokkos::Timer t; ...;
// t.seconds()); Restart methods start it again.
var LibraryTimerTypes = map[string]LibraryTimer{
	"Kokkos::Timer":       {ReadMethods: []string{"seconds"}, Restart: []string{"reset"}},
	"Kokkos::Impl::Timer": {ReadMethods: []string{"seconds"}, Restart: []string{"reset"}},
	"Timer":               {ReadMethods: []string{"seconds"}, Restart: []string{"reset"}, NeedsLibrary: "Kokkos"},
}

// LibraryTimer is what a library timer class's methods do.
type LibraryTimer struct {
	ReadMethods, Restart []string
	// NeedsLibrary: the unqualified name counts only in a file that spells
	// this library's namespace.
	NeedsLibrary string
}

// WarmupRunners are methods of benchmark libraries that run the callable
// they are handed once or more, unmeasured, before the runs they measure
// and report, keyed by the receiver's type: nvbench's state.exec runs the
// launcher's warm-up (measure_cold::run_warmup, at least one run) before
// its trials, with the same lambda, so a kernel the lambda launches is
// loaded before any reported trial (but under --profile, which skips the
// warm-up to run once).
var WarmupRunners = map[string]map[string]bool{
	"nvbench::state": {"exec": true},
}

// EventLoops are library calls that run the callbacks registered before
// them, until the program ends: glutMainLoop (and freeglut's one-pass
// glutMainLoopEvent) calls the functions handed to GLUT's registration
// calls (IsCallbackRegistrar). A callback never runs before the loop is
// entered: what the code launched on the way to the loop is loaded when
// it does.
var EventLoops = map[string]bool{"glutMainLoop": true, "glutMainLoopEvent": true}

// IsCallbackRegistrar reports whether a call registers a callback that an
// event loop runs: GLUT's glut*Func (glutDisplayFunc, glutTimerFunc,
// glutKeyboardFunc, ...).
func IsCallbackRegistrar(name string) bool {
	return len(name) > len("glutFunc") && strings.HasPrefix(name, "glut") && strings.HasSuffix(name, "Func")
}

// LambdaMacros are macros that open a lambda, with what they open it
// with (Kokkos: `[=] __host__ __device__`); the parser sees the capture in
// their place.
var LambdaMacros = map[string]string{
	"KOKKOS_LAMBDA":       "[=]",
	"KOKKOS_CLASS_LAMBDA": "[=,*this]",
}

// LibraryQualifierMacros are the portability layers' spellings of
// __device__ and __host__ __device__ (on functions and lambdas).
var LibraryQualifierMacros = []string{
	"KOKKOS_FUNCTION", "KOKKOS_INLINE_FUNCTION", "KOKKOS_FORCEINLINE_FUNCTION",
	"RAJA_DEVICE", "RAJA_HOST_DEVICE",
	"AMREX_GPU_DEVICE", "AMREX_GPU_HOST_DEVICE",
}

// LibraryLaunchCalls are the launchers' calls as written with their
// namespace (Kokkos::parallel_for, amrex::ParallelFor, RAJA::forall): a
// file that spells one may launch, as one that spells `<<<` may.
func LibraryLaunchCalls() []string {
	var out []string
	for _, l := range LibraryLaunchers {
		for _, q := range l.Qualifiers {
			for name := range l.Names {
				out = append(out, q+"::"+name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// LibraryLaunchAt returns the launcher family of a call of name written
// under qualifier q (its namespaces, `Kokkos` or `amrex::Gpu`), whose text
// from its name to its closing parenthesis is call (template arguments,
// policy, functor), when the call launches a kernel on the device: not a
// host policy, not a pattern nested in a kernel, and a device policy
// where the library needs one. Only calls written with the library's
// namespace count: the text is all there is.
func LibraryLaunchAt(q, name, call string) *LibraryLauncher {
	last := q[strings.LastIndex(q, ":")+1:]
	l := LibraryLauncherOf(last, name, nil)
	if l == nil || l.RunsOnHost(call) || l.Nested(call) || !l.NamesDevice(call) {
		return nil
	}
	return l
}

// LibraryLaunchKey is the kernel key of a library launch at path:line,
// as other files' summaries name it (each call site instantiates a kernel
// of its own functor).
func LibraryLaunchKey(l *LibraryLauncher, name, path string, line int) string {
	return fmt.Sprintf("%s::%s (at %s:%d)", l.Library, name, path, line)
}

// KokkosKernelsRoutines are the host-callable routines of KokkosKernels,
// by name, with their namespace: each launches Kokkos kernels of the
// library, instantiated for its views' types in the calling file, that
// load at their first call like any kernel (an NVIDIA library's first
// call is out of scope; this is not one). Team- and thread-level
// versions called inside a kernel launch nothing.
var KokkosKernelsRoutines = func() map[string]string {
	out := map[string]string{}
	for _, name := range []string{"abs", "axpby", "axpy", "dot", "fill", "gemm", "gemv", "ger", "iamax", "mult",
		"nrm1", "nrm2", "nrm2_squared", "nrminf", "reciprocal", "scal", "sum", "syr", "trmm", "trsm", "update"} {
		out[name] = "KokkosBlas"
	}
	// Left out: the symbolic phases of the factorizations and the
	// triangular solve (spiluk, sptrsv, par_ilut, Gauss-Seidel), which
	// work on host mirrors of the graph.
	for _, name := range []string{"spmv", "spadd_symbolic", "spadd_numeric", "spgemm_symbolic", "spgemm_numeric",
		"spiluk_numeric", "sptrsv_solve", "par_ilut_numeric", "gauss_seidel_numeric", "symmetric_gauss_seidel_apply",
		"forward_sweep_gauss_seidel_apply", "backward_sweep_gauss_seidel_apply", "trsv", "sort_crs_matrix"} {
		out[name] = "KokkosSparse"
	}
	return out
}()

// KokkosKernelsRoutine returns the library key of a call of a KokkosKernels
// routine (KokkosBlas::dot written `KokkosBlas::dot`, or `dot` in a file
// that spells the namespace), or "": qualifier is what the call writes
// before its name, spells tells whether the file spells a namespace.
func KokkosKernelsRoutine(qualifier, name string, spells func(ns string) bool) string {
	ns, ok := KokkosKernelsRoutines[name]
	if !ok {
		return ""
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(qualifier, "::"), "::")
	if first == ns || qualifier == "" && spells(ns) {
		return ns + "::" + name
	}
	return ""
}

// ThrustAlgorithms are thrust's algorithms that launch kernels when they
// run on the device (a device execution policy, or iterators of device
// memory): thrust's searching, reductions, prefix sums, reordering, set
// operations, sorting and transformations. Left out: copy, copy_n and the
// uninitialized copies, whose copies between host and device are memory
// copies and launch nothing.
var ThrustAlgorithms = NameSet(
	// Searching and queries.
	"find", "find_if", "find_if_not", "mismatch", "partition_point", "lower_bound", "upper_bound",
	"binary_search", "equal_range", "equal", "all_of", "any_of", "none_of", "is_sorted", "is_sorted_until",
	"is_partitioned", "min_element", "max_element", "minmax_element",
	// Reductions.
	"reduce", "reduce_by_key", "transform_reduce", "inner_product", "count", "count_if",
	// Prefix sums.
	"inclusive_scan", "exclusive_scan", "inclusive_scan_by_key", "exclusive_scan_by_key",
	"transform_inclusive_scan", "transform_exclusive_scan", "adjacent_difference",
	// Copies within the device, merging and reordering.
	"copy_if", "gather", "gather_if", "scatter", "scatter_if", "merge", "merge_by_key",
	"partition", "partition_copy", "stable_partition", "stable_partition_copy",
	"remove", "remove_if", "remove_copy", "remove_copy_if", "unique", "unique_copy", "unique_by_key",
	"unique_by_key_copy", "unique_count", "reverse", "reverse_copy", "shuffle", "shuffle_copy",
	// Set operations.
	"set_difference", "set_difference_by_key", "set_intersection", "set_intersection_by_key",
	"set_symmetric_difference", "set_symmetric_difference_by_key", "set_union", "set_union_by_key",
	// Sorting.
	"sort", "sort_by_key", "stable_sort", "stable_sort_by_key",
	// Transformations.
	"transform", "transform_if", "for_each", "for_each_n", "fill", "fill_n", "generate", "generate_n",
	"sequence", "tabulate", "replace", "replace_if", "replace_copy", "replace_copy_if",
	"uninitialized_fill", "uninitialized_fill_n", "swap_ranges",
)

// NameSet returns the names as a set.
func NameSet(names ...string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// GinkgoOperations are the methods through which code using Ginkgo (a
// sparse linear algebra library) runs the library's kernels: a linear
// operator's apply (a solver's solve, a matrix's product, a
// preconditioner's application) and a factory's generate (the setup of a
// solver or preconditioner: Jacobi blocks, ILU factors, multigrid
// levels). On a CUDA executor each runs kernels of the library's CUDA
// module, which load at their first launch like any kernel, so a timed
// first solve holds their loading. No parse of the calling file shows
// them: they are reached through virtual methods and the executor's
// operation dispatch.
var GinkgoOperations = NameSet("apply", "generate")

// GinkgoDeviceExecutor is what a file spells when its Ginkgo objects may
// run on a CUDA device (`gko::CudaExecutor::create(0, host)`, or a table
// of executors that holds it); without it they run on the host executors.
const GinkgoDeviceExecutor = "CudaExecutor"

// GinkgoKeyPrefix starts the kernel keys of Ginkgo operations.
const GinkgoKeyPrefix = "Ginkgo's "

// GinkgoOperationKey is the kernel key of a Ginkgo operation called on
// the object named object: each object's operation is its own set of
// kernels as far as a file can tell (a matrix's apply is a product, a
// solver's a solve).
func GinkgoOperationKey(object, name string) string {
	return GinkgoKeyPrefix + object + "->" + name
}

// CUTLASS's device-level operators (cutlass::gemm::device::Gemm,
// GemmUniversalAdapter, cutlass::conv::device::ImplicitGemmConvolution)
// are class templates whose run() or call operator launches the kernel
// they instantiate in the calling file: it loads at that first launch
// like a kernel of the file. initialize() and can_implement() launch
// nothing.
var cutlassDeviceOperator = regexp.MustCompile(`\bcutlass::(\w+::)*device::\w+`)

// IsCUTLASSDeviceOperator reports whether a type, as written or as an
// alias defines it, is a CUTLASS device-level operator.
func IsCUTLASSDeviceOperator(typ string) bool { return cutlassDeviceOperator.MatchString(typ) }

// CUTLASSOperatorRuns are the methods of a device-level operator that
// launch its kernel.
var CUTLASSOperatorRuns = map[string]bool{"run": true, "operator()": true}
