package metamorphic

import (
	"path"
	"regexp"
	"sort"
	"strconv"

	"github.com/lazylint/lazylint/cudaparse"
)

// Calls wrapped in a project macro that expands to its argument:
// f(x) -> CALL(f(x)), with #define CALL(...) __VA_ARGS__ (variadic, so that
// the commas of a launch configuration or of template arguments pass
// through). The calls wrapped are the ones rules look at: launches, CUDA
// and atomic calls, clocks, and calls of the fixture's own functions.

func wrapCallMacro(fx *fixture) []candidate { return wrapCalls(fx, false) }

func wrapCallMacroHeader(fx *fixture) []candidate { return wrapCalls(fx, true) }

// relevantCallee matches names of calls the rules read.
var relevantCallee = regexp.MustCompile(`^(cu|nvml|atomic|__|clock|gettimeofday)|^now$`)

func wrapCalls(fx *fixture, header bool) []candidate {
	macro := fx.freshName("CALL")
	var out []candidate
	for _, p := range fx.paths() {
		f := fx.parsed[p]
		if f == nil {
			continue
		}
		seen := map[cudaparse.Range]bool{}
		sites := fx.relevantCallNodes(p)
		// Outer calls first: a call inside one wrapped already is left alone.
		sort.SliceStable(sites, func(i, k int) bool {
			if sites[i].Start() != sites[k].Start() {
				return sites[i].Start() < sites[k].Start()
			}
			return sites[i].End() > sites[k].End()
		})
		// One variant per function, every such call of it wrapped (a
		// failing variant's lost finding names the call); for the header,
		// one per file.
		var group []cudaparse.Node
		var groupFn *cudaparse.Function
		// wrap makes the variant wrapping the calls of group.
		wrap := func(group []cudaparse.Node, site string) candidate {
			rw := newRewrite(fx.files)
			def := "#define " + macro + "(...) __VA_ARGS__\n"
			if header {
				hdr := path.Join(path.Dir(p), fx.freshFile("call.h"))
				rw.addFile(hdr, lit("#pragma once\n"+def))
				rw.insert(p, 0, lit("#include \""+path.Base(hdr)+"\"\n"))
			} else {
				rw.insert(p, 0, lit(def))
			}
			wrapped, end := 0, -1
			for _, n := range group {
				if n.Start() < end {
					continue // inside the call wrapped before it
				}
				rw.replace(p, n.Start(), n.End(), lit(macro+"("), cp(p, n.Start(), n.End()), lit(")"))
				wrapped++
				end = n.End()
			}
			return candidate{site: site + "(" + strconv.Itoa(wrapped) + " calls)", rw: rw, project: header}
		}
		flush := func() {
			if len(group) == 0 {
				return
			}
			site := siteName(f, p, groupFn.Body)
			if header {
				site = p + " "
			}
			c := wrap(group, site)
			calls := group
			c.parts = func() []candidate {
				var out []candidate
				for _, n := range calls {
					out = append(out, wrap([]cudaparse.Node{n}, siteName(f, p, n)))
				}
				return out
			}
			out = append(out, c)
			group = nil
		}
		for _, n := range sites {
			fn := inFunctionBody(f, n)
			if seen[n.Range()] || n.InError() || n.Field() == "function" || fn == nil {
				continue
			}
			seen[n.Range()] = true
			if groupFn != fn && !header {
				flush()
			}
			group, groupFn = append(group, n), fn
		}
		flush()
	}
	return out
}

// relevantCallNodes are the launches of the file and its calls of CUDA,
// atomics, clocks and the fixture's own functions, in function bodies.
func (fx *fixture) relevantCallNodes(p string) []cudaparse.Node {
	f := fx.parsed[p]
	if f == nil {
		return nil
	}
	own := fx.ownFunctions()
	var sites []cudaparse.Node
	for _, l := range f.Launches {
		if l.Func != nil && l.ViaMacro == "" {
			sites = append(sites, l.Node)
		}
	}
	for _, c := range f.Calls {
		if c.Func != nil && (relevantCallee.MatchString(c.Name) || own[c.Name]) {
			sites = append(sites, c.Node)
		}
	}
	return sites
}

// relevantCalls are the ranges of relevantCallNodes.
func (fx *fixture) relevantCalls(p string) map[cudaparse.Range]bool {
	out := map[cudaparse.Range]bool{}
	for _, n := range fx.relevantCallNodes(p) {
		out[n.Range()] = true
	}
	return out
}

// ownFunctions are the names of the functions the fixture defines or
// declares.
func (fx *fixture) ownFunctions() map[string]bool {
	out := map[string]bool{}
	for _, f := range fx.parsed {
		for _, list := range [][]*cudaparse.Function{f.Functions, f.Prototypes} {
			for _, fn := range list {
				out[fn.Name] = true
			}
		}
	}
	return out
}

// freshFile returns base, or base with a number before its ending, naming
// no file of the fixture.
func (fx *fixture) freshFile(base string) string {
	ext := path.Ext(base)
	stem := base[:len(base)-len(ext)]
	name := base
	for i := 2; ; i++ {
		clash := false
		for p := range fx.files {
			if path.Base(p) == name {
				clash = true
			}
		}
		if !clash {
			return name
		}
		name = stem + strconv.Itoa(i) + ext
	}
}
