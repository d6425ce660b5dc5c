package ll005

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// Runtimes that open the driver themselves reach it through pointers they
// look up by name: a function of the file resolves "cuModuleLoadData" and
// calls the pointer with its own parameters. A call of that function is a
// load, with the arguments the function forwards as slot and image.

// Others name the load as the first argument of a checking macro or
// dispatcher, followed by its arguments: CHECK_DRIVER(cuModuleLoadDataEx,
// &mods[dev], image, 0, nullptr, nullptr). That is a load too.
// (Both belong with the parser's macro-aware calls; they are here until
// cudaparse names such calls itself.)

// dispatchedLoads returns the calls that name a load as their first
// argument, each as a call of that load with the arguments that follow.
func dispatchedLoads(f *cudaparse.File) []*cudaparse.Call {
	var out []*cudaparse.Call
	for _, c := range f.Calls {
		if len(c.Args) < 3 {
			continue
		}
		if api := c.Args[0].Unparen(); api.Is("identifier") && moduleLoads[api.Text()] {
			out = append(out, &cudaparse.Call{
				Name: api.Text(), Spelled: c.Name, Callee: c.Callee, Node: c.Node, Func: c.Func, Args: c.Args[1:],
			})
		}
	}
	return out
}

// stubLoads returns the calls of the file's load stubs, each as a call of
// the load it forwards to (Spelled keeps the stub's name).
func stubLoads(f *cudaparse.File) []*cudaparse.Call {
	var out []*cudaparse.Call
	for _, stub := range f.Functions {
		api, slot, image, ok := stubOf(f, stub)
		if !ok {
			continue
		}
		for _, c := range f.Calls {
			if c.Name != stub.Name || c.Func == nil || c.Func == stub || len(c.Args) != len(stub.Params) {
				continue
			}
			out = append(out, &cudaparse.Call{
				Name: api, Spelled: c.Name, Callee: c.Callee, Node: c.Node, Func: c.Func,
				Args: []cudaparse.Node{c.Args[slot], c.Args[image]},
			})
		}
	}
	return out
}

// stubOf reports whether fn resolves a module load by name and forwards
// two of its parameters to a call (the looked-up pointer): the load's
// name, and the positions of the parameters that are its slot and image.
func stubOf(f *cudaparse.File, fn *cudaparse.Function) (api string, slot, image int, ok bool) {
	if !fn.Body.Valid() || len(fn.Params) < 2 {
		return "", 0, 0, false
	}
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if n.Is("string_literal") {
			if name := strings.Trim(n.Text(), `"`); moduleLoads[name] {
				api = name
			}
		}
		return api == ""
	})
	if api == "" {
		return "", 0, 0, false
	}
	index := map[string]int{}
	for _, p := range fn.Params {
		index[p.Name] = p.Index
	}
	for _, c := range f.CallsIn(fn) {
		if len(c.Args) < 2 {
			continue
		}
		s, sok := index[strings.TrimSpace(c.Args[0].Unparen().Text())]
		i, iok := index[strings.TrimSpace(c.Args[1].Unparen().Text())]
		if sok && iok && c.Args[0].Unparen().Is("identifier") && c.Args[1].Unparen().Is("identifier") {
			return api, s, i, true
		}
	}
	return "", 0, 0, false
}
