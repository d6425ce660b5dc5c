package metamorphic

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// Renaming: the kernels and functions the fixture defines, or its
// variables, get other names, in every file and every spelling (calls, launches, macro bodies),
// by token. A name is left alone when renaming it could change what the
// code means: a CUDA or library name, a macro, a name that is also a type,
// member or namespace, one spelled in a string (a kernel looked up by
// name) or in a directive other than #define.

func renameKernels(fx *fixture) []candidate {
	return renameAll(fx, "kernels", "kfun", func(fn *cudaparse.Function) bool { return fn.IsKernel() }, nil)
}

func renameFunctions(fx *fixture) []candidate {
	return renameAll(fx, "functions", "hfun", func(fn *cudaparse.Function) bool { return !fn.IsKernel() }, nil)
}

func renameVariables(fx *fixture) []candidate {
	return renameAll(fx, "variables", "var", nil, declaredVariables)
}

// reservedName matches names that belong to CUDA, its libraries or the
// implementation.
var reservedName = regexp.MustCompile(`^(cu|cuda|nvml|nvrtc|nccl|cub|thrust|std|main$|_)`)

// renameAll renames, consistently in every file, the functions funcs
// accepts or the variables vars finds.
func renameAll(fx *fixture, what, prefix string, funcs func(*cudaparse.Function) bool, vars func(*cudaparse.File) []string) []candidate {
	names := map[string]bool{}
	for _, path := range fx.paths() {
		f := fx.parsed[path]
		if f == nil {
			continue
		}
		if funcs != nil {
			// Only functions the fixture defines: one it only declares
			// stands for a library's (sdkStartTimer), whose name is not the
			// fixture's to change.
			for _, fn := range f.Functions {
				if funcs(fn) && plainFunction(fn) {
					names[fn.Name] = true
				}
			}
		}
		if vars != nil {
			for _, n := range vars(f) {
				names[n] = true
			}
		}
	}
	excluded := fx.unrenamable(vars != nil)
	var sorted []string
	for n := range names {
		if !excluded[n] && !reservedName.MatchString(n) {
			sorted = append(sorted, n)
		}
	}
	if len(sorted) == 0 {
		return nil
	}
	sort.Strings(sorted)
	newName := map[string]string{}
	next := 1
	for _, n := range sorted {
		for {
			cand := prefix + strconv.Itoa(next)
			next++
			if fx.freshName(cand) == cand {
				newName[n] = cand
				break
			}
		}
	}
	rw, changed := renameTokens(fx, newName)
	if !changed {
		return nil
	}
	parts := func() []candidate {
		var out []candidate
		for _, n := range sorted {
			if one, ok := renameTokens(fx, map[string]string{n: newName[n]}); ok {
				out = append(out, candidate{site: n + " -> " + newName[n], rw: one})
			}
		}
		return out
	}
	return []candidate{{site: what + " (" + strconv.Itoa(len(sorted)) + ")", rw: rw, parts: parts}}
}

// renameTokens renames every identifier token of the fixture that newName
// maps and that stands where a declared name can.
func renameTokens(fx *fixture, newName map[string]string) (*rewrite, bool) {
	rw := newRewrite(fx.files)
	changed := false
	for _, path := range fx.paths() {
		src := fx.files[path]
		toks := fx.tokens(path)
		for i, t := range toks {
			if t.kind != tokIdent || !renamablePosition(src, toks, i) {
				continue
			}
			if to, ok := newName[t.text(src)]; ok {
				rw.replace(path, t.start, t.end, lit(to))
				changed = true
			}
		}
	}
	return rw, changed
}

// plainFunction reports whether fn is a free function with a plain name:
// not a method, operator, constructor or main.
func plainFunction(fn *cudaparse.Function) bool {
	if fn.Name == "" || fn.Name != fn.QualifiedName || strings.HasPrefix(fn.Name, "operator") || strings.HasPrefix(fn.Name, "~") {
		return false
	}
	for _, r := range fn.Name {
		if !isIdentByte(byte(r)) || r > 127 {
			return false
		}
	}
	return !fn.Node.Ancestor("field_declaration_list").Valid()
}

// renamablePosition reports whether the identifier toks[i] names a
// declaration of the file's scopes: not a member (x.name, p->name), not
// qualified (ns::name, name::x), not in a directive other than #define,
// and not the name a #define defines.
func renamablePosition(src []byte, toks []token, i int) bool {
	t := toks[i]
	if t.directive != "" && t.directive != "define" {
		return false
	}
	if i > 0 {
		switch toks[i-1].text(src) {
		case ".", "->", "::", ".*", "->*":
			return false
		}
	}
	if i+1 < len(toks) && toks[i+1].text(src) == "::" {
		return false
	}
	if t.directive == "define" && (i == 0 || toks[i-1].directive != "define") {
		return false // the macro's own name
	}
	return true
}

// unrenamable returns the names that must keep their spelling: macros,
// members, types, namespaces, labels, names spelled in strings or in
// directives other than #define, and names used in a qualified or member
// position anywhere. With calls set (variables), names that are called
// are kept too: the call may be of a function of that name.
func (fx *fixture) unrenamable(calls bool) map[string]bool {
	out := map[string]bool{}
	word := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	for _, path := range fx.paths() {
		src := fx.files[path]
		toks := fx.tokens(path)
		for i, t := range toks {
			switch t.kind {
			case tokString:
				for _, w := range word.FindAllString(t.text(src), -1) {
					out[w] = true
				}
			case tokIdent:
				name := t.text(src)
				if t.directive == "define" && (i == 0 || toks[i-1].directive != "define") {
					out[name] = true // a macro's name
					continue
				}
				if !renamablePosition(src, toks, i) {
					out[name] = true
				}
				if calls && i+1 < len(toks) && toks[i+1].text(src) == "(" {
					out[name] = true
				}
			}
		}
		if f := fx.parsed[path]; f != nil {
			for _, n := range f.NodesOfKind("type_identifier", "namespace_identifier", "field_identifier", "statement_identifier") {
				out[n.Text()] = true
			}
		}
	}
	return out
}

// declaredVariables returns the names the file declares as variables or
// parameters (not functions, fields or types).
func declaredVariables(f *cudaparse.File) []string {
	var out []string
	for _, d := range f.NodesOfKind("declaration", "parameter_declaration", "optional_parameter_declaration", "for_range_loop") {
		for _, decl := range d.ChildrenByField("declarator") {
			if id := declaratorName(decl); id.Valid() {
				out = append(out, id.Text())
			}
		}
	}
	return out
}

// declaratorName returns the identifier a declarator declares, through
// pointers, references, arrays and initializers; the zero Node for a
// function declarator or anything else.
func declaratorName(d cudaparse.Node) cudaparse.Node {
	for d.Valid() {
		switch d.Kind() {
		case "identifier":
			return d
		case "pointer_declarator", "array_declarator", "init_declarator", "parenthesized_declarator", "attributed_declarator":
			next := d.ChildByField("declarator")
			if !next.Valid() {
				kids := d.NamedChildren()
				if len(kids) == 0 {
					return cudaparse.Node{}
				}
				next = kids[0]
			}
			d = next
		case "reference_declarator":
			kids := d.NamedChildren()
			if len(kids) == 0 {
				return cudaparse.Node{}
			}
			d = kids[0]
		default:
			return cudaparse.Node{}
		}
	}
	return cudaparse.Node{}
}
