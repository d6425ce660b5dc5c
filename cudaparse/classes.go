package cudaparse

import (
	"bytes"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// Classes and their bases, for method calls. `m.Scale(2)` on an object
// declared `GpuMatrix<float> m` reaches the Scale of GpuMatrix, or of the
// nearest base class that defines one (`class GpuMatrix : public
// GpuMatrixBase<Real>`): the class of the receiver's declared type decides,
// not the method's name, which many classes share (run, Mult, Fill). A
// receiver whose type is not known resolves to nothing, as before.

// ClassBases is a class the project defines and the classes it derives
// from, by plain name (no namespace, no template arguments).
type ClassBases struct {
	Class string   `json:"c"`
	Bases []string `json:"b"`
}

// classHeadWindow is how far past `class`/`struct` a class head is looked
// for: a base list longer than this is not read.
const classHeadWindow = 1024

// MaxBaseDepth bounds the walk up a class hierarchy, in a file and
// across a project.
const MaxBaseDepth = 8

// afterEnum reports whether the word before offset at is `enum` (`enum
// class Kind : int`, whose colon names an underlying type, not a base).
func afterEnum(src []byte, at int) bool {
	j := at
	for j > 0 && isBlank(src[j-1]) {
		j--
	}
	return j >= 4 && string(src[j-4:j]) == "enum" && (j == 4 || !syntax.IsIdentByte(src[j-5]))
}

// accessWords are the words a base specifier may start with.
var accessWords = map[string]bool{"public": true, "protected": true, "private": true, "virtual": true}

// classHead reads what follows `class`: attributes or export macros, the
// name, `final`, and a base list up to the body's brace.
func classHead(head []byte) (ClassBases, bool) {
	toks := syntax.Lex(head)
	name, k, ok := classHeadName(head, toks)
	if !ok {
		return ClassBases{}, false
	}
	bases, ok := baseList(head, toks[k+1:])
	if !ok || len(bases) == 0 {
		return ClassBases{}, false
	}
	return ClassBases{Class: name, Bases: bases}, true
}

// classHeadName returns the class's name and the index of the colon that
// opens its base list: the name is the last identifier before it (`class
// KALDI_EXPORT Name :`), `final` aside. Anything else before the colon
// (`class T>` of a template, a forward declaration, a use) is no head.
func classHeadName(head []byte, toks []syntax.Token) (string, int, bool) {
	name := ""
	for k, t := range toks {
		if t.Kind == syntax.TokComment {
			continue
		}
		word := string(head[t.Start:t.End])
		if t.Kind == syntax.TokIdent {
			if word != "final" {
				name = word
			}
			continue
		}
		qualified := k+1 < len(toks) && head[toks[k+1].Start] == ':' && toks[k+1].Start == t.End
		if t.Kind == syntax.TokPunct && word == ":" && !qualified && name != "" {
			return name, k, true
		}
		return "", 0, false
	}
	return "", 0, false
}

// baseList reads base specifiers up to the body's brace: the last name of
// each (`public ns::Base<T>` gives Base).
func baseList(head []byte, toks []syntax.Token) ([]string, bool) {
	var bases []string
	depth, base := 0, ""
	for _, t := range toks {
		if t.Kind == syntax.TokComment {
			continue
		}
		word := string(head[t.Start:t.End])
		switch {
		case t.Kind == syntax.TokIdent && depth == 0:
			if !accessWords[word] {
				base = word
			}
		case t.Kind != syntax.TokPunct:
		case word == "<":
			depth++
		case word == ">":
			depth--
		case depth == 0 && (word == "," || word == "{"):
			if base != "" {
				bases = append(bases, base)
			}
			base = ""
			if word == "{" {
				return bases, true
			}
		case depth == 0 && word == ";":
			return nil, false
		}
	}
	return nil, false
}

// className reduces a type's spelling to its class's plain name:
// `ns::GpuMatrix<float>` and `const GpuMatrix<T> &` are GpuMatrix.
func className(typ string) string {
	if i := strings.IndexByte(typ, '<'); i >= 0 {
		typ = typ[:i]
	}
	typ = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(typ), "const "))
	if i := strings.LastIndex(typ, "::"); i >= 0 {
		typ = typ[i+2:]
	}
	typ = strings.TrimRight(typ, " *&")
	if !isIdentifier(typ) {
		return ""
	}
	return typ
}

// receiverClass returns the class of a method call's object (`m` of
// m.Scale(), `p` of p->Scale()), when its declared type is known: a local,
// a parameter, a member or a global of the file. "" otherwise.
func (f *File) receiverClass(c *Call) string {
	if !c.Callee.Is("field_expression") {
		return ""
	}
	obj := c.Callee.ChildByField("argument")
	if obj.Is("this") {
		// this->f(): a method of the class whose method makes the call.
		if c.Func == nil {
			return ""
		}
		return methodClass(c.Func)
	}
	if !obj.Is("identifier", "subscript_expression", "field_expression", "parenthesized_expression", "pointer_expression") {
		return ""
	}
	t, ok := f.exprType(obj, 0)
	if !ok {
		return ""
	}
	return className(pointee(t.base))
}

// smartPointers hold an object of their first template argument, whose
// methods `p->f()` calls.
var smartPointers = map[string]bool{"shared_ptr": true, "unique_ptr": true, "weak_ptr": true, "Ptr": true}

// pointee returns the type a smart pointer type holds
// (`std::shared_ptr<Solver>` gives Solver), or typ itself.
func pointee(typ string) string {
	open := strings.IndexByte(typ, '<')
	if open < 0 || !smartPointers[className(typ[:open])] || !strings.HasSuffix(typ, ">") {
		return typ
	}
	args := splitTopLevel(typ[open+1 : len(typ)-1])
	if len(args) == 0 {
		return typ
	}
	return strings.TrimSpace(args[0])
}

// receiverMemo keeps receiverClass's answers within one function, by the
// object's name: a function calls many methods of few objects.
type receiverMemo map[string]string

func (m receiverMemo) classOf(f *File, c *Call) string {
	obj := c.Callee.ChildByField("argument")
	if !obj.Is("identifier") {
		return f.receiverClass(c) // an element or member: not memoized
	}
	name := obj.Text()
	if class, ok := m[name]; ok {
		return class
	}
	class := f.receiverClass(c)
	m[name] = class
	return class
}

// ReceiverClass is receiverClass for rules.
func (f *File) ReceiverClass(c *Call) string { return f.receiverClass(c) }

// CallerClass returns the class whose method makes the call c ("" for a
// call from a free function): an unqualified call there names a member of
// that class (or of its bases) before any function outside it.
func CallerClass(c *Call) string {
	if c.Func == nil {
		return ""
	}
	return methodClass(c.Func)
}

// methodClass returns the class whose member fn is: the class body it is
// defined in, or the class its qualified name names (`Base<Real>::f`).
func methodClass(fn *Function) string {
	for p := fn.Node.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("field_declaration_list") {
			return className(p.Parent().ChildByField("name").Text())
		}
	}
	if i := strings.LastIndex(fn.QualifiedName, "::"); i > 0 {
		return className(fn.QualifiedName[:i])
	}
	return ""
}

// classBefore returns the class that qualifies a name defined at offset
// at (`Base<Real>::` before it), without a parse; "" when none.
func classBefore(src []byte, at int) string {
	if !qualifiedBefore(src, at) {
		return ""
	}
	end := at - 2
	if end > 0 && src[end-1] == '>' {
		depth := 0
		for end--; end >= 0; end-- {
			switch src[end] {
			case '>':
				depth++
			case '<':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if end < 0 {
			return ""
		}
	}
	start := end
	for start > 0 && syntax.IsIdentByte(src[start-1]) {
		start--
	}
	if start == end || !syntax.IsIdentStart(src[start]) {
		return ""
	}
	return string(src[start:end])
}

// DeclaresVariableOf reports whether src may declare a variable, parameter
// or member of the class, from the text: the class's name as a whole word,
// then template arguments, `*`, `&` or `const` at most, then a name
// (`Dense<float> m`, `const DenseBase<Real> &m`, `Solver *s`).
func DeclaresVariableOf(src []byte, class string) bool {
	found := false
	eachWord(src, []byte(class), func(_, i int) bool {
		j, ok := skipTemplateArgs(src, skipSpaces(src, i))
		if ok {
			j = skipDeclaratorPrefix(src, j)
			found = j < len(src) && syntax.IsIdentStart(src[j])
		}
		return !found
	})
	return found
}

// skipTemplateArgs skips a template argument list at j, if there is one
// (at most 512 bytes, on no `;` or `{`); ok false when it does not close.
func skipTemplateArgs(src []byte, j int) (int, bool) {
	if j >= len(src) || src[j] != '<' {
		return j, true
	}
	depth := 0
	for end := min(len(src), j+512); j < end; j++ {
		switch src[j] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				return j + 1, true
			}
		case ';', '{':
			return j, false
		}
	}
	return j, false
}

// skipDeclaratorPrefix skips blanks, `*`, `&` and `const` before a
// declarator's name.
func skipDeclaratorPrefix(src []byte, j int) int {
	for {
		j = skipSpaces(src, j)
		switch {
		case j < len(src) && (src[j] == '*' || src[j] == '&'):
			j++
		case bytes.HasPrefix(src[j:], []byte("const")) && j+5 < len(src) && !syntax.IsIdentByte(src[j+5]):
			j += 5
		default:
			return j
		}
	}
}

// skipSpaces returns the offset of the first byte from j on that is not
// blank (newlines included).
func skipSpaces(src []byte, j int) int {
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	return j
}

// MethodCalled returns the function of the file that the method call c
// (obj.f(), p->f()) reaches: the f of the class of obj's declared type, or
// of the nearest base class of it that defines one, the bases taken from
// the file and from bases (the project's, nil for none). nil when the
// object's class is not known, or no method of it is defined here.
func (f *File) MethodCalled(c *Call, bases func(class string) []string) *Function {
	class := f.receiverClass(c)
	if class == "" {
		return nil
	}
	f.classBasesOnce.Do(func() {
		f.classBases = map[string][]string{}
		for _, cb := range ScanClassBases(f.Src) {
			f.classBases[cb.Class] = append(f.classBases[cb.Class], cb.Bases...)
		}
	})
	own := f.classBases
	level, seen := []string{class}, map[string]bool{class: true}
	for depth := 0; depth < MaxBaseDepth && len(level) > 0; depth++ {
		var found *Function
		for _, fn := range f.Functions {
			if fn.Name == c.Name && fn.Space&SpaceHost != 0 && slices.Contains(level, methodClass(fn)) {
				if found != nil {
					return nil // overloads: no guess
				}
				found = fn
			}
		}
		if found != nil {
			return found
		}
		var next []string
		for _, cl := range level {
			more := own[cl]
			if bases != nil {
				more = append(slices.Clone(more), bases(cl)...)
			}
			for _, b := range more {
				if !seen[b] {
					seen[b] = true
					next = append(next, b)
				}
			}
		}
		level = next
	}
	return nil
}

// classStops are the bytes that end a class head's search for its colon.
var classStops = [256]bool{':': true, '{': true, ';': true, '>': true, ',': true, ')': true, '=': true}

// ScanClassBases returns the classes of src defined with a base list
// (`class D : public B<T>, private C {`), from the text alone, in the
// order of their keywords: every `class`, then every `struct`. A head
// with bases has a single colon as the first of classStops after its
// keyword, so the search starts from single colons, which C++ spells far
// less often than the bytes `class` and `struct` start with (a quarter
// of the time of a search for the keywords on real trees); a file
// without one costs a byte search.
func ScanClassBases(src []byte) []ClassBases {
	type found struct {
		kw, at int
		cb     ClassBases
	}
	var all []found
	keywords := [2][]byte{[]byte("class"), []byte("struct")}
	for p := 0; ; p++ {
		k := bytes.IndexByte(src[p:], ':')
		if k < 0 {
			break
		}
		p += k
		if p+1 < len(src) && src[p+1] == ':' {
			p++ // `::`: neither colon ends a head with bases
			continue
		}
		if p > 0 && src[p-1] == ':' {
			continue
		}
		// The keyword's end lies after the previous stop and less than
		// a window before the colon.
		lo := p
		for lo > 0 && p-lo < classHeadWindow-1 && !classStops[src[lo-1]] {
			lo--
		}
		for kw, w := range keywords {
			from := max(0, lo-len(w))
			eachWord(src[from:p], w, func(at, end int) bool {
				at, end = from+at, from+end
				if end < lo || end > p || afterEnum(src, at) {
					return true
				}
				stop := min(len(src), end+classHeadWindow)
				if brace := bytes.IndexAny(src[end:stop], "{;"); brace >= 0 {
					stop = end + brace + 1
				}
				if cb, ok := classHead(src[end:stop]); ok {
					all = append(all, found{kw, at, cb})
				}
				return true
			})
		}
	}
	slices.SortFunc(all, func(a, b found) int {
		if a.kw != b.kw {
			return a.kw - b.kw
		}
		return a.at - b.at
	})
	var out []ClassBases
	for _, f := range all {
		out = append(out, f.cb)
	}
	return out
}
