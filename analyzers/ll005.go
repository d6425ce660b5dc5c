package analyzers

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"

	"golang.org/x/tools/go/analysis"
)

// LL005 reports the same module loaded into each context by hand from Go:
// a loop (for, range) whose iterations make a different context or device
// current and load a module image that does not change with the loop,
// directly through cgo or through functions of any package that do
// (gorgonia's `for each engine { e.LoadCUDAFunc(name, ptx) }`, which makes
// the engine's context current and calls cu.LoadData on the same PTX).
//
// As in the C rule, it stays silent when the image changes with the loop,
// when the context does not, when the loop stops at the first success,
// when only chosen iterations load (an if on the loop's variable), when
// the module is unloaded in the same iteration, and when the function also
// loads a context-independent library (the loop is the fallback for old
// drivers). The C rule's per-device cache filled on demand is not looked
// for in Go.
var LL005 = newAnalyzer("LL005", "Looks at loops in Go that make each context or device current and load the same module into it, through cgo or binding packages.", runLL005)

func runLL005(pass *analysis.Pass) (any, error) {
	s := summary(pass)
	if !s.relevant() {
		return nil, nil
	}
	reported := map[*ast.CallExpr]bool{}
	for _, sf := range s.files {
		for _, fb := range sf.fns {
			if s.loadsLibrary(sf, fb) {
				continue // the loop is the fallback for drivers older than CUDA 12.0
			}
			ast.Inspect(fb.body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case ast.Stmt:
					if loopBody(n) == nil {
						return true
					}
					for _, d := range s.perContextLoads(sf, fb, n) {
						if !reported[d.load] {
							reported[d.load] = true
							pass.Report(diagnostic("LL005", d.load.Pos(), d.load.End(), d.message()))
						}
					}
				}
				return true
			})
		}
	}
	return nil, nil
}

// perContextLoad is a module load in a loop that switches context.
type perContextLoad struct {
	load, sw     *ast.CallExpr
	loadCallee   callee
	switchCallee callee
}

func (d perContextLoad) message() string {
	name := d.loadCallee.name
	switch {
	case d.loadCallee.c == "" && d.sw == d.load:
		name += ", which makes its context current and calls " + d.loadCallee.eff.LoadAPI + ","
	case d.loadCallee.c == "":
		name += " (" + d.loadCallee.eff.LoadAPI + ")"
	}
	sw := "in a loop that switches with " + d.switchCallee.name
	if d.sw == d.load {
		sw = "in a loop over contexts"
	}
	library := "cuLibraryLoadData"
	if d.loadCallee.eff.LoadAPI == "cuModuleLoad" {
		library = "cuLibraryLoadFromFile"
	}
	return fmt.Sprintf("the same module is loaded into each context by hand (%s %s): since CUDA 12.0, %s loads it once for every context, current and future, and cuLibraryGetKernel gives one context-independent kernel handle to launch in whichever context is current; under lazy loading each context loads the kernels at first use either way",
		name, sw, library)
}

// loadsLibrary reports whether fb loads a context-independent library.
func (s *Summary) loadsLibrary(sf *srcFile, fb *funcBody) bool {
	for _, c := range fb.calls {
		if ce := s.callee(sf, fb, c); ce.eff != nil && ce.eff.Load == LoadLibrary {
			return true
		}
	}
	return false
}

// perContextLoads returns the loads of one loop that load the same image
// into a context the loop changes.
func (s *Summary) perContextLoads(sf *srcFile, fb *funcBody, loop ast.Stmt) []perContextLoad {
	body := loopBody(loop)
	vary := varyingNames(loop)
	var inLoop []*ast.CallExpr
	var callees []callee
	for _, c := range fb.calls {
		if within(body, c) {
			inLoop = append(inLoop, c)
			callees = append(callees, s.callee(sf, fb, c))
		}
	}
	var sw *ast.CallExpr
	var swCallee callee
	for i, c := range inLoop {
		ce := callees[i]
		if ce.eff != nil && ce.eff.Switch && ce.eff.Switched != 0 && mentionsAny(callArg(c, ce, ce.eff.Switched), vary) {
			sw, swCallee = c, ce
			break
		}
	}
	if sw == nil || stopsOnSuccess(body) {
		return nil
	}
	var out []perContextLoad
	for i, c := range inLoop {
		ce := callees[i]
		if ce.eff == nil || ce.eff.Load != LoadModule {
			continue
		}
		if ce.eff.Image != 0 && mentionsAny(callArg(c, ce, ce.eff.Image), vary) {
			continue // a different image per context
		}
		if selectsIterations(body, c, vary) || unloadedAfter(inLoop[i+1:], callees[i+1:]) {
			continue
		}
		out = append(out, perContextLoad{load: c, sw: sw, loadCallee: ce, switchCallee: swCallee})
	}
	return out
}

func loopBody(loop ast.Stmt) *ast.BlockStmt {
	switch l := loop.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// varyingNames are the variables that change from one iteration of the
// loop to the next: its own, and those the body derives from them
// (e := &engines[i]).
func varyingNames(loop ast.Stmt) map[string]bool {
	vary := loopVariables(loop)
	body := loopBody(loop)
	for range 3 {
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && mentionsAny(as.Rhs[i], vary) {
					vary[id.Name] = true
				}
			}
			return true
		})
	}
	return vary
}

// loopVariables are the names a loop's header sets: range key and value,
// the for clause's init and post.
func loopVariables(loop ast.Stmt) map[string]bool {
	vary := map[string]bool{}
	var nodes []ast.Node
	switch l := loop.(type) {
	case *ast.RangeStmt:
		nodes = append(nodes, l.Key, l.Value)
	case *ast.ForStmt:
		for _, st := range []ast.Stmt{l.Init, l.Post} {
			switch st := st.(type) {
			case *ast.AssignStmt:
				for _, x := range st.Lhs {
					nodes = append(nodes, x)
				}
			case *ast.IncDecStmt:
				nodes = append(nodes, st.X)
			}
		}
	}
	for _, n := range nodes {
		if n == nil || reflect.ValueOf(n).IsNil() {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name != "_" {
				vary[id.Name] = true
			}
			return true
		})
	}
	return vary
}

// stopsOnSuccess reports whether the loop leaves when something succeeds
// (`if err == nil { break }`): it looks for one context that can load.
func stopsOnSuccess(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.IfStmt:
			if be, ok := n.Cond.(*ast.BinaryExpr); ok && be.Op == token.EQL && (isNil(be.X) || isNil(be.Y)) && leaves(n.Body) {
				found = true
			}
		}
		return !found
	})
	return found
}

func isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// leaves reports whether a block breaks out of the loop or returns.
func leaves(b *ast.BlockStmt) bool {
	for _, st := range b.List {
		switch st := st.(type) {
		case *ast.ReturnStmt:
			return true
		case *ast.BranchStmt:
			if st.Tok == token.BREAK {
				return true
			}
		}
	}
	return false
}

// selectsIterations reports whether c runs only in chosen iterations: it
// lies in an if (or a switch) whose condition reads the loop's variables.
func selectsIterations(body *ast.BlockStmt, c *ast.CallExpr, vary map[string]bool) bool {
	for _, n := range enclosing(body, c) {
		switch n := n.(type) {
		case *ast.IfStmt:
			if within(n.Body, c) && mentionsAny(n.Cond, vary) {
				return true
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && mentionsAny(n.Tag, vary) {
				return true
			}
		}
	}
	return false
}

// unloadedAfter reports whether a later call of the iteration unloads a
// module (a per-device self-test).
func unloadedAfter(calls []*ast.CallExpr, callees []callee) bool {
	for i := range calls {
		if callees[i].eff != nil && callees[i].eff.Unload {
			return true
		}
	}
	return false
}
