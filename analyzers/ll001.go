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

// LL001 reports device allocations from Go (C.cudaMalloc, C.cuMemAlloc...,
// or a function of this or another package that passes its parameter on to
// one, such as a binding's cu.MemAlloc(n)) sized from the free or total
// memory a memory query reported (C.cudaMemGetInfo, C.cuMemGetInfo, or a
// function that returns what one reported, such as cu.MemInfo()): at least
// 90% of it, or all of it minus less than 256 MiB.
var LL001 = newAnalyzer("LL001", "Looks at C.cudaMalloc, C.cuMemAlloc and the other allocators of the CUDA APIs called from Go, and at the functions of binding packages that wrap them, sized from C.cudaMemGetInfo, C.cuMemGetInfo or a binding's memory query.", runLL001)

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
	s := summary(pass)
	if !s.relevant() {
		return nil, nil
	}
	for _, sf := range s.files {
		ev := &evaluator{s: s, sf: sf, consts: sf.numericConstants()}
		for _, fb := range sf.fns {
			for _, c := range fb.calls {
				ce := s.callee(sf, fb, c)
				if ce.eff == nil || !isParam(ce.eff.Alloc) || paramIndex(ce.eff.Alloc) >= len(c.Args) {
					continue
				}
				v := ev.eval(fb, c.Args[paramIndex(ce.eff.Alloc)], c.Pos(), 0)
				if !v.isShare || v.s.frac < threshold || v.s.minus >= headroom {
					continue
				}
				pass.Report(diagnostic("LL001", c.Pos(), c.End(), ll001Message(s, ce, v.s, headroom)))
			}
		}
	}
	return nil, nil
}

func ll001Message(s *Summary, ce callee, sh goShare, headroom float64) string {
	what := "free"
	if sh.total {
		what = "total"
	}
	left := fmt.Sprintf("%.0f%% of it (under %.0f MiB whenever less than %.1f GiB is %s)", 100*(1-sh.frac), headroom/(1<<20), (headroom-sh.minus)/(1-sh.frac)/(1<<30), what)
	fix := fmt.Sprintf("subtract a fixed headroom of at least %.0f MiB", headroom/(1<<20))
	if sh.frac >= 1 {
		left = fmt.Sprintf("only %.0f MiB", sh.minus/(1<<20))
		fix = fmt.Sprintf("leave at least %.0f MiB", headroom/(1<<20))
	}
	api := ce.eff.AllocAPI
	preload := "preload every kernel (cudaFuncGetAttributes on each, or CUDA_MODULE_LOADING=EAGER)"
	if strings.HasPrefix(api, "cu") && !strings.HasPrefix(api, "cuda") {
		preload = "load every kernel first (cuModuleGetFunction or cuLibraryGetKernel on each, or CUDA_MODULE_LOADING=EAGER)"
	}
	name := ce.name
	if ce.c == "" && ce.pkg != s.Path && api != "" && api != name {
		name += " (" + api + ")"
	}
	return fmt.Sprintf("%s takes %.0f%% of the %s memory reported by %s, leaving %s for kernels that load lazily later; %s, or %s before this allocation",
		name, 100*sh.frac, what, sh.api, left, fix, preload)
}

const maxGoDepth = 12

// evaluator evaluates size expressions in one file: constants of the file,
// variables through their assignments, and calls whose effects say they
// report device memory (C.cudaMemGetInfo(&free, &total), a helper of the
// package, a binding's cu.MemInfo()).
type evaluator struct {
	s      *Summary
	sf     *srcFile
	consts map[string]float64
}

// eval evaluates a size expression at pos in fb.
func (ev *evaluator) eval(fb *funcBody, e ast.Expr, pos token.Pos, depth int) goValue {
	if depth > maxGoDepth {
		return goValue{}
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		return literalValue(e)
	case *ast.ParenExpr:
		return ev.eval(fb, e.X, pos, depth+1)
	case *ast.CallExpr:
		return ev.evalCall(fb, e, pos, depth)
	case *ast.BinaryExpr:
		return combineGo(e.Op, ev.eval(fb, e.X, pos, depth+1), ev.eval(fb, e.Y, pos, depth+1))
	case *ast.Ident:
		if v, ok := ev.consts[e.Name]; ok {
			return goValue{isConst: true, c: v}
		}
		return ev.evalIdent(fb, e.Name, pos, depth+1)
	}
	return goValue{}
}

func literalValue(e *ast.BasicLit) goValue {
	if v, err := strconv.ParseFloat(e.Value, 64); err == nil {
		return goValue{isConst: true, c: v}
	}
	if v, err := strconv.ParseInt(e.Value, 0, 64); err == nil {
		return goValue{isConst: true, c: float64(v)}
	}
	return goValue{}
}

// evalCall: a call whose first result reports memory, or a conversion
// (C.size_t(x), uint64(x), float64(x)).
func (ev *evaluator) evalCall(fb *funcBody, c *ast.CallExpr, pos token.Pos, depth int) goValue {
	if ev.s == nil || fb == nil {
		if len(c.Args) == 1 {
			return ev.eval(fb, c.Args[0], pos, depth+1)
		}
		return goValue{}
	}
	ce := ev.s.callee(ev.sf, fb, c)
	if ce.eff != nil {
		if sh, ok := shareAt(ce.eff, Result(0)); ok {
			return goValue{isShare: true, s: sh}
		}
		if ce.c != "" || ce.eff.cuda() {
			return goValue{}
		}
	}
	if len(c.Args) == 1 {
		return ev.eval(fb, c.Args[0], pos, depth+1)
	}
	return goValue{}
}

// shareAt returns the share of memory the effects report at slot.
func shareAt(e *Effects, slot int) (goShare, bool) {
	for _, m := range e.Memory {
		if m.Slot == slot {
			return goShare{total: m.Total, api: m.API, frac: m.Frac, minus: m.Minus}, true
		}
	}
	return goShare{}, false
}

// evalIdent evaluates a variable through its last assignment before pos,
// or the memory query that wrote it through a pointer.
func (ev *evaluator) evalIdent(fb *funcBody, name string, pos token.Pos, depth int) goValue {
	var out goValue
	found := false
	ast.Inspect(fb.body, func(n ast.Node) bool {
		if n == nil || n.Pos() >= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if v, ok := ev.assigned(fb, n, name, depth); ok {
				out, found = v, true
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if id.Name == name && i < len(n.Values) {
					out, found = ev.eval(fb, n.Values[i], n.Pos(), depth+1), true
				}
			}
		case *ast.CallExpr:
			if v, ok := ev.writtenThrough(fb, n, name); ok {
				out, found = v, true
			}
		}
		return true
	})
	if !found {
		return goValue{}
	}
	return out
}

// assigned evaluates what an assignment gives name, if it assigns it.
func (ev *evaluator) assigned(fb *funcBody, n *ast.AssignStmt, name string, depth int) (goValue, bool) {
	for i, l := range n.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name != name {
			continue
		}
		if len(n.Rhs) == 1 && len(n.Lhs) > 1 {
			// several variables from one call's results (a binding's
			// MemInfo returning free and total)
			if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && ev.s != nil {
				if ce := ev.s.callee(ev.sf, fb, c); ce.eff != nil {
					if sh, ok := shareAt(ce.eff, Result(i)); ok {
						return goValue{isShare: true, s: sh}, true
					}
				}
			}
			return goValue{}, true
		}
		if i >= len(n.Rhs) || len(n.Lhs) != len(n.Rhs) {
			continue
		}
		v := ev.eval(fb, n.Rhs[i], n.Pos(), depth+1)
		switch n.Tok {
		case token.SUB_ASSIGN:
			v = combineGo(token.SUB, ev.evalIdent(fb, name, n.Pos(), depth+1), v)
		case token.MUL_ASSIGN:
			v = combineGo(token.MUL, ev.evalIdent(fb, name, n.Pos(), depth+1), v)
		case token.QUO_ASSIGN:
			v = combineGo(token.QUO, ev.evalIdent(fb, name, n.Pos(), depth+1), v)
		}
		return v, true
	}
	return goValue{}, false
}

// writtenThrough evaluates what a call writes into &name: the memory a
// query reports through its pointer parameters (C.cuMemGetInfo(&free,
// &total), query(&free, &total) of a helper that hands its pointers on).
func (ev *evaluator) writtenThrough(fb *funcBody, c *ast.CallExpr, name string) (goValue, bool) {
	if ev.s == nil {
		return goValue{}, false
	}
	for k, arg := range c.Args {
		u, ok := arg.(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			continue
		}
		if id, ok := u.X.(*ast.Ident); !ok || id.Name != name {
			continue
		}
		ce := ev.s.callee(ev.sf, fb, c)
		if ce.eff == nil {
			return goValue{}, false
		}
		if sh, ok := shareAt(ce.eff, Param(k)); ok {
			return goValue{isShare: true, s: sh}, true
		}
	}
	return goValue{}, false
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
func (sf *srcFile) numericConstants() map[string]float64 {
	out := map[string]float64{}
	ev := &evaluator{consts: out}
	eachConstant(sf.file, func(name string, value ast.Expr) {
		if v := ev.eval(&funcBody{body: &ast.BlockStmt{}}, value, token.NoPos, 0); v.isConst {
			out[name] = v.c
		}
	})
	return out
}
