package cudaparse

import (
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// Facts about kernels beyond their launches: which calls load ("preload") a
// kernel without launching it. Under lazy loading a kernel is loaded at its
// first launch or first reference; these calls reference it.

// Preload is a call that loads a kernel before (or instead of) launching it.
type Preload struct {
	// Keys name the loaded kernel: its symbol with template arguments
	// ("scale<float>"), and for the driver API the CUfunction variable that
	// now holds it and the kernel's name string.
	Keys []string
	// All is set for a preload inside a loop over a table of kernels
	// (`for (auto k : kernels) cudaFuncGetAttributes(&a, k);`): it loads
	// every kernel of the table, which lazylint takes as every kernel.
	All  bool
	Call *Call
	// FromParam: the kernel is the one the enclosing function's caller
	// passes as parameter Param (a preload helper: `template <class K> int
	// occupancy(K kernel) { cudaFuncGetAttributes(&a, kernel); ... }`);
	// Keys name the parameter, not a kernel.
	FromParam bool
	Param     int
}

// Preloads returns the calls of the file that load a kernel, in source
// order. It is computed once per file (LoadedOnTheWay asks for every
// allocation and launch, which made it quadratic in the file's calls); the
// slice is shared, callers must not modify it.
func (f *File) Preloads() []Preload {
	f.preloadsOnce.Do(func() { f.preloads = f.findPreloads() })
	return f.preloads
}

func (f *File) findPreloads() []Preload {
	var out []Preload
	for _, c := range f.Calls {
		if k, ok := knowledge.PreloadAPIs[c.Name]; ok && k < len(c.Args) {
			out = append(out, f.apiPreload(c, k))
			continue
		}
		if p, ok := f.ownPreload(c); ok {
			out = append(out, p)
			continue
		}
		if knowledge.HandleAPIs[c.Name] && len(c.Args) >= 2 {
			p := Preload{Call: c}
			if h := VarKey(kernelOperand(c.Args[0])); h != "" { // &f
				p.Keys = append(p.Keys, h)
			}
			switch c.Name {
			case "cuModuleGetFunction":
				if len(c.Args) >= 3 {
					if name, ok := StringValue(c.Args[2]); ok {
						p.Keys = append(p.Keys, name)
					}
				}
			case "cuKernelGetFunction":
				p.Keys = append(p.Keys, KernelKeyOf(kernelOperand(c.Args[1])))
			}
			out = append(out, p)
		}
	}
	return out
}

// apiPreload is the preload of a call c of a preload API whose kernel is
// argument k.
func (f *File) apiPreload(c *Call, k int) Preload {
	arg := kernelOperand(c.Args[k])
	p := Preload{Call: c, Keys: []string{KernelKeyOf(arg)}}
	// auto *fn = &k<B>; cudaFuncGetAttributes(&attr, fn): loads k<B>,
	// under either name.
	if key := f.ArgumentKernelKey(c.Args[k]); key != "" && key != p.Keys[0] {
		p.Keys = append(p.Keys, key)
	}
	p.All = isTableElement(arg)
	// A helper's parameter: only a function with parameters has one, and
	// a kernel the file defines is named, not handed in.
	if c.Func != nil && len(c.Func.Params) > 0 && (!arg.Is("identifier") || f.FunctionNamed(arg.Text()) == nil) {
		p.Param, p.FromParam = f.KernelParamOf(c.Func, c.Args[k])
	}
	return p
}

// isTableElement reports whether a kernel operand is a loop variable or an
// element of an array, as in a preload loop over a table of kernels.
func isTableElement(n Node) bool {
	if n.Is("subscript_expression") {
		return true
	}
	if !n.Is("identifier") {
		return false
	}
	for _, d := range n.f.ReachingDefs(n) {
		if d.Op == DefRange {
			return true
		}
		// void *fn = kernels[k]; (or kernels[k].fn) cudaFuncGetAttributes(&attr, fn);
		if (d.Op == DefInit || d.Op == DefAssign) && d.Value.Valid() {
			v := d.Value.Unparen()
			for v.Is("field_expression") {
				v = v.ChildByField("argument").Unparen()
			}
			if v.Is("subscript_expression") {
				return true
			}
		}
	}
	return false
}

// StringValue returns the contents of a string literal without escapes
// resolved beyond the quotes ("name" gives name).
func StringValue(n Node) (string, bool) {
	n = n.Unparen()
	if !n.Is("string_literal") {
		return "", false
	}
	s := n.Text()
	i := strings.IndexByte(s, '"')
	j := strings.LastIndexByte(s, '"')
	if i < 0 || j <= i {
		return "", false
	}
	return s[i+1 : j], true
}

// LoadedOnTheWay returns the kernels that n's function loads on the way to
// n, by a preload or a launch (keys as in Preload.Keys and
// Launch.KernelKey), and whether a preload loop over a kernel table runs
// there, which lazylint takes as loading every kernel.
func (f *File) LoadedOnTheWay(n Node) (keys []string, all bool) {
	fn := f.FunctionOf(n)
	if fn == nil {
		return nil, false
	}
	for _, p := range f.Preloads() {
		if p.Call.Func == fn && OnTheWay(p.Call.Node, n) {
			all = all || p.All
			keys = append(keys, p.Keys...)
		}
	}
	for _, l := range f.Launches {
		if l.Func == fn && l.Kernel != "" && OnTheWay(l.Node, n) {
			keys = append(keys, l.KernelKey())
		}
	}
	return keys, all
}
