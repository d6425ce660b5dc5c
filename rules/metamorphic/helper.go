package metamorphic

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// Statements moved into helpers: an expression statement that calls
// something becomes the call of a new function holding it, defined just
// before the function it came from (or in a header included there, which
// is the same text to the compiler). The variables it uses are passed by
// reference (C++) or by pointer (C, where the statement then spells them
// (*name)), with the types they were declared with. A statement is left
// alone when that cannot be done exactly: it uses `auto` or array
// variables, `this`, a lambda's variables, a template's types, or jumps.

func extractHelper(fx *fixture) []candidate { return extractSites(fx, false) }

func extractHelperHeader(fx *fixture) []candidate { return extractSites(fx, true) }

// extractSites makes a variant per movable statement, each into a helper
// of the same file; with header set, a variant per file, all of whose
// movable statements go into helpers in headers, one per function,
// included just before it (a question about headers, asked once per file
// to keep the test fast: a project is checked in a folder of its own).
func extractSites(fx *fixture, header bool) []candidate {
	var out []candidate
	n := 0
	for _, p := range fx.paths() {
		f := fx.parsed[p]
		if f == nil {
			continue
		}
		var group []*extraction
		var functionsWithHelpers []*cudaparse.Function
		// inHeader makes the variant moving the statements of exs into
		// helpers of the header.
		inHeader := func(exs []*extraction, site string) (candidate, bool) {
			rw := newRewrite(fx.files)
			ok := true
			for i, ex := range exs {
				if i == 0 || ex.fn != exs[i-1].fn {
					ok = ok && ex.include(rw)
				}
				ok = ok && ex.apply(rw, true)
			}
			return candidate{site: site, rw: rw, project: true}, ok
		}
		flush := func() {
			if len(group) == 0 {
				return
			}
			exs := group
			if c, ok := inHeader(exs, p+" ("+strconv.Itoa(len(exs))+" statements)"); ok {
				c.parts = func() []candidate {
					var out []candidate
					for _, ex := range exs {
						if one, ok := inHeader([]*extraction{ex}, siteName(f, p, ex.stmt)); ok {
							out = append(out, one)
						}
					}
					return out
				}
				out = append(out, c)
			}
			group = nil
		}
		for _, stmt := range nodesIn(f, "expression_statement") {
			ex, ok := newExtraction(fx, p, f, stmt)
			if !ok {
				continue
			}
			n++
			ex.name = fx.freshName("helper_" + strconv.Itoa(n))
			if k := len(functionsWithHelpers); k == 0 || functionsWithHelpers[k-1] != ex.fn {
				functionsWithHelpers = append(functionsWithHelpers, ex.fn)
			}
			ex.header = helperHeader(p, len(functionsWithHelpers))
			if header {
				group = append(group, ex)
				continue
			}
			rw := newRewrite(fx.files)
			if ex.apply(rw, false) {
				out = append(out, candidate{site: siteName(f, p, stmt), rw: rw})
			}
		}
		flush()
	}
	return out
}

// extraction is one statement to move.
type extraction struct {
	fx     *fixture
	path   string
	f      *cudaparse.File
	fn     *cudaparse.Function
	stmt   cudaparse.Node
	c      bool     // C: pass pointers
	name   string   // the helper's
	header string   // the header it moves to, one per function
	params []string // the helper's parameters
	args   []string // the call's arguments
	// uses are the identifiers of passed variables in the statement (C
	// rewrites them as (*name)).
	uses []cudaparse.Node
}

// jumpWords make a statement unmovable.
var jumpWords = []string{"this", "return", "break", "continue", "goto", "co_await", "co_yield", "co_return"}

func newExtraction(fx *fixture, p string, f *cudaparse.File, stmt cudaparse.Node) (*extraction, bool) {
	fn := inFunctionBody(f, stmt)
	if fn == nil || fn.Template || !plainFunction(fn) || !stmt.Parent().Is("compound_statement") || stmt.Ancestor("lambda_expression").Valid() {
		return nil, false
	}
	if fn.Node.Ancestor("template_declaration").Valid() {
		return nil, false
	}
	// Only statements that call what rules look at: a launch, a CUDA,
	// atomic or clock call, or a function of the fixture.
	calls := false
	relevant := fx.relevantCalls(p)
	stmt.Descendants(func(d cudaparse.Node) bool {
		calls = calls || relevant[d.Range()]
		return !calls
	})
	if !calls || stmt.InError() {
		return nil, false
	}
	for _, w := range jumpWords {
		if hasToken(fx, p, stmt, w) {
			return nil, false
		}
	}
	ex := &extraction{fx: fx, path: p, f: f, fn: fn, stmt: stmt, c: fx.isC(p)}
	declared := namesDeclaredIn(fn.Node)
	passed := map[string]bool{}
	ok := true
	stmt.Descendants(func(d cudaparse.Node) bool {
		if !ok || !d.Is("identifier") {
			return ok
		}
		name := d.Text()
		if !declared[name] || d.Parent().Is("qualified_identifier") {
			return true // a global, function, kernel, enumerator or macro
		}
		decl, declarator := resolveLocal(fn, stmt, name)
		if !decl.Valid() {
			ok = false
			return false
		}
		if d.Field() == "function" && d.Parent().Is("call_expression") {
			ok = false // a local lambda or function pointer
			return false
		}
		ex.uses = append(ex.uses, d)
		if passed[name] {
			return true
		}
		passed[name] = true
		param, arg, good := ex.parameter(decl, declarator, name)
		if !good {
			ok = false
			return false
		}
		ex.params = append(ex.params, param)
		ex.args = append(ex.args, arg)
		return true
	})
	return ex, ok
}

// namesDeclaredIn returns the names of the variables and parameters
// declared anywhere in n.
func namesDeclaredIn(n cudaparse.Node) map[string]bool {
	out := map[string]bool{}
	n.Descendants(func(d cudaparse.Node) bool {
		if d.Is("declaration", "parameter_declaration", "optional_parameter_declaration", "for_range_loop", "init_declarator") {
			for _, decl := range d.ChildrenByField("declarator") {
				if id := declaratorName(decl); id.Valid() {
					out[id.Text()] = true
				}
			}
		}
		if d.Is("lambda_capture_specifier") {
			d.Descendants(func(c cudaparse.Node) bool {
				if c.Is("identifier") {
					out[c.Text()] = true
				}
				return true
			})
		}
		return true
	})
	return out
}

// resolveLocal finds the declaration of name that is in scope at stmt in
// fn: a parameter, or the last declaration before stmt whose block holds
// stmt. It returns the declaration and its declarator of name.
func resolveLocal(fn *cudaparse.Function, stmt cudaparse.Node, name string) (decl, declarator cudaparse.Node) {
	fn.Body.Descendants(func(d cudaparse.Node) bool {
		if d.Start() >= stmt.Start() {
			return false
		}
		if !d.Is("declaration") {
			return true
		}
		scope := d.Parent()
		if scope.Is("condition_clause") {
			scope = scope.Parent()
		}
		if !scope.Contains(stmt) || d.End() > stmt.Start() {
			return true
		}
		for _, x := range d.ChildrenByField("declarator") {
			if id := declaratorName(x); id.Valid() && id.Text() == name {
				decl, declarator = d, x
			}
		}
		return true
	})
	if decl.Valid() {
		return decl, declarator
	}
	for _, p := range fn.Params {
		if p.Name != name {
			continue
		}
		for _, x := range p.Node.ChildrenByField("declarator") {
			if id := declaratorName(x); id.Valid() && id.Text() == name {
				return p.Node, x
			}
		}
	}
	return cudaparse.Node{}, cudaparse.Node{}
}

// storageWords are dropped from a declaration's type to make a parameter.
var storageWords = regexp.MustCompile(`\b(static|extern|register|inline|constexpr|thread_local|mutable|__shared__|__device__|__constant__|__managed__|__restrict__|__restrict|restrict)\b`)

// parameter returns the helper's parameter for the variable name declared
// by declarator in decl, and the call's argument.
func (ex *extraction) parameter(decl, declarator cudaparse.Node, name string) (param, arg string, ok bool) {
	src := ex.fx.files[ex.path]
	first := decl.ChildByField("declarator")
	if !first.Valid() {
		return "", "", false
	}
	typ := string(src[decl.Start():first.Start()])
	typ = strings.Join(strings.Fields(storageWords.ReplaceAllString(typ, " ")), " ")
	if typ == "" || strings.ContainsAny(typ, "{[") || regexp.MustCompile(`\b(auto|decltype)\b`).MatchString(typ) {
		return "", "", false
	}
	d := declarator
	if d.Is("init_declarator") {
		d = d.ChildByField("declarator")
	}
	id := declaratorName(d)
	text := d.Text()
	if !id.Valid() || strings.ContainsAny(text, "[(=") || strings.Contains(text, "&&") {
		return "", "", false
	}
	rel := id.Start() - d.Start()
	switch {
	case ex.c:
		return typ + " " + text[:rel] + "*" + text[rel:], "&" + name, true
	case strings.Contains(text[:rel], "&"):
		return typ + " " + text, name, true // a reference already
	default:
		return typ + " " + text[:rel] + "&" + text[rel:], name, true
	}
}

// apply adds the helper (to the file, or to the header when header is
// set) and its call in place of the statement.
func (ex *extraction) apply(rw *rewrite, header bool) bool {
	src := ex.fx.files[ex.path]
	at, ok := topLevelStart(ex.fx, ex.path, ex.fn)
	if !ok {
		return false
	}
	space := ""
	switch s := ex.fn.Space; {
	case s&cudaparse.SpaceHost != 0 && s&(cudaparse.SpaceDevice|cudaparse.SpaceGlobal) != 0:
		space = "__host__ __device__ "
	case s&(cudaparse.SpaceDevice|cudaparse.SpaceGlobal) != 0:
		space = "__device__ "
	}
	def := []piece{lit(space + "static void " + ex.name + "(" + strings.Join(ex.params, ", ") + ") {\n  ")}
	def = append(def, ex.body()...)
	def = append(def, lit("\n}\n"))
	if header {
		rw.addFile(ex.header, def...)
	} else {
		lead := ""
		if !startsLine(src, at) {
			lead = "\n"
		}
		rw.insert(ex.path, at, append([]piece{lit(lead)}, def...)...)
	}
	rw.move(ex.path, ex.stmt.Start(), ex.stmt.End(), lit(ex.name+"("+strings.Join(ex.args, ", ")+");"))
	return true
}

// include includes the helpers' header before the function.
func (ex *extraction) include(rw *rewrite) bool {
	src := ex.fx.files[ex.path]
	at, ok := topLevelStart(ex.fx, ex.path, ex.fn)
	if !ok {
		return false
	}
	lead := ""
	if !startsLine(src, at) {
		lead = "\n"
	}
	rw.insert(ex.path, at, lit(lead+"#include \""+path.Base(ex.header)+"\"\n"))
	return true
}

// body is the statement for the helper: a copy, with each passed variable
// spelled (*name) in C.
func (ex *extraction) body() []piece {
	s := ex.stmt
	if !ex.c {
		return []piece{cp(ex.path, s.Start(), s.End())}
	}
	var out []piece
	at := s.Start()
	for _, u := range ex.uses {
		out = append(out, cp(ex.path, at, u.Start()), lit("(*"+u.Text()+")"))
		at = u.End()
	}
	return append(out, cp(ex.path, at, s.End()))
}

// helperHeader names the header the helpers of the k-th function of file
// p with movable statements move to.
func helperHeader(p string, k int) string {
	ext := path.Ext(p)
	stem := strings.TrimSuffix(p, ext)
	switch strings.ToLower(ext) {
	case ".cu", ".cuh":
		ext = ".cuh"
	case ".c", ".h":
		ext = ".h"
	default:
		ext = ".hpp"
	}
	return stem + "_helpers" + strconv.Itoa(k) + ext
}

// topLevelStart returns where to insert a definition before fn: before
// its template header, linkage and qualifiers, at the start of a line.
func topLevelStart(fx *fixture, p string, fn *cudaparse.Function) (int, bool) {
	top := fn.Node
	for top.Parent().Valid() && !top.Parent().Is("translation_unit", "declaration_list") {
		top = top.Parent()
	}
	if !top.Valid() || top.InError() {
		return 0, false
	}
	src := fx.files[p]
	at := top.Start()
	toks := fx.tokens(p)
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t.end > at {
			continue
		}
		txt := t.text(src)
		if t.directive != "" || txt == ";" || txt == "}" || txt == "{" {
			break
		}
		at = t.start
	}
	if startsLine(src, at) {
		at = lineStart(src, at)
	}
	return at, true
}
