package analyzers

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"golang.org/x/tools/go/analysis"
)

// LL001 reports device allocations from Go (C.cudaMalloc, C.cuMemAlloc...)
// sized from the free or total memory a C.cudaMemGetInfo or C.cuMemGetInfo
// reported: at least 90% of it, or all of it minus less than 256 MiB.
var LL001 = newAnalyzer("LL001", "Looks at C.cudaMalloc, C.cuMemAlloc and the other allocators of the CUDA APIs called from Go, sized from C.cudaMemGetInfo or C.cuMemGetInfo.", runLL001)

// goAllocators map allocation functions to their size argument: the
// allocators of knowledge.Allocators that take their size in one argument
// (a pitched allocation's size is a product this analyzer does not follow).
var goAllocators = func() map[string]int {
	out := map[string]int{}
	for name, al := range knowledge.Allocators {
		if len(al.SizeArgs) == 1 {
			out[name] = al.SizeArgs[0]
		}
	}
	return out
}()

// goShare is a size in terms of a memory query: frac of it minus bytes.
type goShare struct {
	total bool
	api   string
	frac  float64
	minus float64
}

// goValue is a constant, a share, or unknown.
type goValue struct {
	isConst, isShare bool
	c                float64
	s                goShare
}

func runLL001(pass *analysis.Pass) (any, error) {
	threshold, err := floatFlag(pass.Analyzer, "threshold")
	if err != nil {
		return nil, err
	}
	headroomMiB, err := floatFlag(pass.Analyzer, "min-headroom-mib")
	if err != nil {
		return nil, err
	}
	headroom := headroomMiB * (1 << 20)
	for _, rf := range cgoFiles(pass) {
		consts := numericConstants(rf.file)
		fns := functions(rf.file)
		helpers := map[string]*funcBody{}
		for _, fb := range fns {
			if fb.name != "" {
				helpers[fb.name] = fb
			}
		}
		ev := &goEval{consts: consts, helpers: helpers}
		wrappers := allocatorWrappers(fns)
		for _, fb := range fns {
			for _, c := range fb.calls {
				name := cCall(c)
				k, ok := goAllocators[name]
				if !ok {
					name = calleeName(c)
					k, ok = wrappers[name]
				}
				if !ok || k >= len(c.Args) {
					continue
				}
				v := ev.eval(fb, c.Args[k], c.Pos(), 0)
				if !v.isShare || v.s.frac < threshold || v.s.minus >= headroom {
					continue
				}
				what := "free"
				if v.s.total {
					what = "total"
				}
				left := fmt.Sprintf("%.0f%% of it (under %.0f MiB whenever less than %.1f GiB is %s)", 100*(1-v.s.frac), headroom/(1<<20), (headroom-v.s.minus)/(1-v.s.frac)/(1<<30), what)
				fix := fmt.Sprintf("subtract a fixed headroom of at least %.0f MiB", headroom/(1<<20))
				if v.s.frac >= 1 {
					left = fmt.Sprintf("only %.0f MiB", v.s.minus/(1<<20))
					fix = fmt.Sprintf("leave at least %.0f MiB", headroom/(1<<20))
				}
				preload := "preload every kernel (cudaFuncGetAttributes on each, or CUDA_MODULE_LOADING=EAGER)"
				if strings.HasPrefix(name, "cu") && !strings.HasPrefix(name, "cuda") {
					preload = "load every kernel first (cuModuleGetFunction or cuLibraryGetKernel on each, or CUDA_MODULE_LOADING=EAGER)"
				}
				pass.Report(diagnostic("LL001", c.Pos(), c.End(), fmt.Sprintf(
					"%s takes %.0f%% of the %s memory reported by %s, leaving %s for kernels that load lazily later; %s, or %s before this allocation",
					name, 100*v.s.frac, what, v.s.api, left, fix, preload)))
			}
		}
	}
	return nil, nil
}

const maxGoDepth = 12

// goEval evaluates size expressions: constants of the file, and helper
// functions of the file whose result derives from a memory query.
type goEval struct {
	consts  map[string]float64
	helpers map[string]*funcBody
}

func (ev *goEval) eval(fb *funcBody, e ast.Expr, pos token.Pos, depth int) goValue {
	return evalGo(fb, e, pos, ev.consts, depth, ev)
}

// evalGo evaluates a size expression at pos in fb.
func evalGo(fb *funcBody, e ast.Expr, pos token.Pos, consts map[string]float64, depth int, ev *goEval) goValue {
	if depth > maxGoDepth {
		return goValue{}
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if v, err := strconv.ParseFloat(e.Value, 64); err == nil {
			return goValue{isConst: true, c: v}
		}
		if v, err := strconv.ParseInt(e.Value, 0, 64); err == nil {
			return goValue{isConst: true, c: float64(v)}
		}
	case *ast.ParenExpr:
		return evalGo(fb, e.X, pos, consts, depth+1, ev)
	case *ast.CallExpr:
		// A helper of the file: func freeBytes() C.size_t { ...; return free }
		if h := ev.helper(calleeName(e)); h != nil && h != fb {
			return ev.returned(h, depth+1)
		}
		// conversions: C.size_t(x), uint64(x), float64(x)
		if len(e.Args) == 1 {
			return evalGo(fb, e.Args[0], pos, consts, depth+1, ev)
		}
	case *ast.BinaryExpr:
		return combineGo(e.Op, evalGo(fb, e.X, pos, consts, depth+1, ev), evalGo(fb, e.Y, pos, consts, depth+1, ev))
	case *ast.Ident:
		if v, ok := consts[e.Name]; ok {
			return goValue{isConst: true, c: v}
		}
		return evalIdent(fb, e.Name, pos, consts, depth+1, ev)
	}
	return goValue{}
}

func (ev *goEval) helper(name string) *funcBody {
	if ev == nil || name == "" {
		return nil
	}
	return ev.helpers[name]
}

// returned evaluates the first result of h's return statements.
func (ev *goEval) returned(h *funcBody, depth int) goValue {
	var out goValue
	ast.Inspect(h.body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
			if v := evalGo(h, r.Results[0], r.Pos(), ev.consts, depth+1, ev); v.isShare {
				out = v
			}
		}
		return true
	})
	return out
}

// calleeName is the name of a Go function or method a call calls.
func calleeName(c *ast.CallExpr) string {
	switch fun := c.Fun.(type) {
	case *ast.Ident:
		return fun.Name
	case *ast.SelectorExpr:
		if x, ok := fun.X.(*ast.Ident); ok && x.Name == "C" {
			return ""
		}
		return fun.Sel.Name
	}
	return ""
}

// allocatorWrappers finds Go functions of the file that pass one of their
// parameters to an allocator as its size: func alloc(n C.size_t) { C.cudaMalloc(&p, n) }.
func allocatorWrappers(fns []*funcBody) map[string]int {
	out := map[string]int{}
	for _, fb := range fns {
		decl, ok := fb.node.(*ast.FuncDecl)
		if !ok {
			continue
		}
		params := map[string]int{}
		i := 0
		for _, field := range decl.Type.Params.List {
			for _, n := range field.Names {
				params[n.Name] = i
				i++
			}
			if len(field.Names) == 0 {
				i++
			}
		}
		for _, c := range fb.calls {
			k, ok := goAllocators[cCall(c)]
			if !ok || k >= len(c.Args) {
				continue
			}
			arg := c.Args[k]
			for {
				conv, isCall := arg.(*ast.CallExpr)
				if !isCall || len(conv.Args) != 1 {
					break
				}
				arg = conv.Args[0] // C.size_t(n)
			}
			if id, ok := arg.(*ast.Ident); ok {
				if idx, isParam := params[id.Name]; isParam {
					out[fb.name] = idx
				}
			}
		}
	}
	return out
}

// evalIdent evaluates a variable through its last assignment before pos,
// or the memory query that wrote it through a pointer.
func evalIdent(fb *funcBody, name string, pos token.Pos, consts map[string]float64, depth int, ev *goEval) goValue {
	var out goValue
	found := false
	ast.Inspect(fb.body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == name && i < len(n.Rhs) && len(n.Lhs) == len(n.Rhs) {
					v := evalGo(fb, n.Rhs[i], n.Pos(), consts, depth+1, ev)
					switch n.Tok {
					case token.SUB_ASSIGN:
						v = combineGo(token.SUB, evalIdent(fb, name, n.Pos(), consts, depth+1, ev), v)
					case token.MUL_ASSIGN:
						v = combineGo(token.MUL, evalIdent(fb, name, n.Pos(), consts, depth+1, ev), v)
					case token.QUO_ASSIGN:
						v = combineGo(token.QUO, evalIdent(fb, name, n.Pos(), consts, depth+1, ev), v)
					}
					out, found = v, true
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if id.Name == name && i < len(n.Values) {
					out, found = evalGo(fb, n.Values[i], n.Pos(), consts, depth+1, ev), true
				}
			}
		case *ast.CallExpr:
			switch api := cCall(n); {
			case api != "" && knowledge.DeviceMemoryQueries[api]:
				for k, arg := range n.Args {
					if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
						if id, ok := u.X.(*ast.Ident); ok && id.Name == name {
							out, found = goValue{isShare: true, s: goShare{total: k == 1, api: api, frac: 1}}, true
						}
					}
				}
			}
		}
		return true
	})
	if !found {
		return goValue{}
	}
	return out
}

func combineGo(op token.Token, x, y goValue) goValue {
	switch {
	case x.isConst && y.isConst:
		switch op {
		case token.ADD:
			return goValue{isConst: true, c: x.c + y.c}
		case token.SUB:
			return goValue{isConst: true, c: x.c - y.c}
		case token.MUL:
			return goValue{isConst: true, c: x.c * y.c}
		case token.QUO:
			if y.c != 0 {
				return goValue{isConst: true, c: x.c / y.c}
			}
		case token.SHL:
			return goValue{isConst: true, c: x.c * float64(uint64(1)<<uint64(y.c))}
		}
	case x.isShare && y.isConst:
		s := x.s
		switch op {
		case token.MUL:
			s.frac *= y.c
			s.minus *= y.c
		case token.QUO:
			if y.c == 0 {
				return goValue{}
			}
			s.frac /= y.c
			s.minus /= y.c
		case token.SUB:
			s.minus += y.c
		default:
			return goValue{}
		}
		return goValue{isShare: true, s: s}
	case x.isConst && y.isShare && op == token.MUL:
		return combineGo(op, y, x)
	}
	return goValue{}
}

// numericConstants returns the file's numeric constants by name.
func numericConstants(f *ast.File) map[string]float64 {
	out := map[string]float64{}
	eachConstant(f, func(name string, value ast.Expr) {
		if v := evalGo(&funcBody{body: &ast.BlockStmt{}}, value, token.NoPos, out, 0, nil); v.isConst {
			out[name] = v.c
		}
	})
	return out
}
