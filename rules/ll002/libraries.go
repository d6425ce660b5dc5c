package ll002

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// CUB and thrust algorithms are templates: their kernels are instantiated
// in the file that calls them and load at their first launch like the
// file's own kernels. Measured on an H100 (driver 580, CUDA 13.0;
// testdata/measure/libraries.cu, three runs per mode): a first
// cub::DeviceReduce::Sum over 1M floats took 0.048-0.059 ms under LAZY and
// 0.018-0.023 ms under EAGER (later calls 0.015); a first thrust::sort of
// 1M ints 0.42-0.47 ms under LAZY and 0.32-0.45 ms under EAGER (later
// 0.24-0.34). cuBLAS and cuFFT kernels live in the libraries' own modules:
// a first cufftExecC2C was as fast under LAZY as under EAGER (the plan loads
// them), and a first 256x256 cublasSgemm took 79-191 ms in both modes (the
// library's own first-call work). Later first calls of other cuBLAS
// routines do pay a LAZY-only load (+0.15 ms to +3.5 ms), but which call is
// a routine's first cannot be told from the source: neither library is
// reported.

// libraryLaunch returns the kernel key a call of a CUB device algorithm or
// a thrust algorithm on the device launches: "cub::DeviceReduce::Sum",
// "thrust::sort". CUB's sizing call (null temporary storage) launches
// nothing.
func (a *analysis) libraryLaunch(c *cudaparse.Call) (string, bool) {
	q := cudaparse.CalleeQualifier(c)
	switch {
	case strings.HasPrefix(q, "cub::Device") || strings.HasPrefix(q, "Device") && strings.Contains(c.Callee.Text(), "cub::"):
		if len(c.Args) == 0 || isNull(c.Args[0]) {
			return "", false
		}
		return "cub::" + strings.TrimPrefix(q, "cub::") + "::" + c.Name, true
	case q == "thrust" && thrustAlgorithms[c.Name] && len(c.Args) > 0 && a.onDevice(c):
		return "thrust::" + c.Name, true
	}
	return "", false
}

// thrustAlgorithms launch kernels when run on the device.
var thrustAlgorithms = map[string]bool{
	"sort": true, "sort_by_key": true, "stable_sort": true, "stable_sort_by_key": true,
	"reduce": true, "reduce_by_key": true, "transform": true, "transform_reduce": true,
	"inclusive_scan": true, "exclusive_scan": true, "inclusive_scan_by_key": true, "exclusive_scan_by_key": true,
	"copy_if": true, "remove_if": true, "unique": true, "unique_by_key": true, "partition": true,
	"count_if": true, "for_each": true, "for_each_n": true, "fill": true, "sequence": true, "gather": true, "scatter": true,
	"min_element": true, "max_element": true, "minmax_element": true, "merge": true, "set_intersection": true,
}

// onDevice reports whether a thrust call runs on the device: a device
// execution policy first (thrust::device, thrust::cuda::par.on(s)), or an
// argument on a thrust::device_vector of the function.
func (a *analysis) onDevice(c *cudaparse.Call) bool {
	policy := strings.ReplaceAll(c.Args[0].Text(), " ", "")
	if strings.HasPrefix(policy, "thrust::device") || strings.HasPrefix(policy, "thrust::cuda::par") || strings.HasPrefix(policy, "thrust::cuda_cub::par") {
		return true
	}
	for _, arg := range c.Args {
		base := arg.Unparen()
		for base.Is("call_expression") {
			base = base.ChildByField("function") // v.begin()
		}
		if base.Is("field_expression") {
			base = base.ChildByField("argument")
		}
		if !base.Is("identifier") {
			continue
		}
		for _, d := range a.file.ReachingDefs(base) {
			for p := d.Node; p.Valid(); p = p.Parent() {
				if p.Is("declaration", "parameter_declaration", "field_declaration") {
					if t := p.ChildByField("type").Text(); strings.Contains(t, "device_vector") || strings.Contains(t, "device_ptr") {
						return true
					}
					break
				}
			}
		}
	}
	return false
}

func isNull(n cudaparse.Node) bool {
	switch strings.TrimSpace(n.Unparen().Text()) {
	case "nullptr", "NULL", "0":
		return true
	}
	if n.Unparen().Is("identifier") {
		defs := n.File().ReachingDefs(n.Unparen())
		if len(defs) == 0 {
			return false
		}
		for _, d := range defs {
			if !d.Value.Valid() || !isNull(d.Value) {
				return false
			}
		}
		return true
	}
	return false
}
