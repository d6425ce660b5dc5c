package cudaparse

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// Node is a node of a parsed file's syntax tree. The zero Node is "no node":
// every method on it returns a zero value. Nodes are plain values over the
// flattened tree; they hold no C memory.
type Node struct {
	f *File
	i int32
}

func (n Node) raw() *syntax.RawNode { return &n.f.nodes[n.i] }

// File is the parsed file n belongs to.
func (n Node) File() *File { return n.f }

// Valid reports whether n is a node (and not the zero Node).
func (n Node) Valid() bool { return n.f != nil }

// Kind is the grammar's name of the node type, e.g. "call_expression".
// Rewritten CUDA syntax parses as C++, so a launch is a "call_expression".
func (n Node) Kind() string {
	if n.f == nil {
		return ""
	}
	return syntax.SymbolName(n.raw().Symbol)
}

// Is reports whether n is of one of the given kinds.
func (n Node) Is(kinds ...string) bool {
	k := n.Kind()
	for _, want := range kinds {
		if k == want {
			return true
		}
	}
	return false
}

// IsNamed reports whether n is a named node (not punctuation or a keyword).
func (n Node) IsNamed() bool { return n.f != nil && n.raw().Flags&syntax.FlagNamed != 0 }

// IsMissing reports whether the parser inserted n to recover from an error.
func (n Node) IsMissing() bool { return n.f != nil && n.raw().Flags&syntax.FlagMissing != 0 }

// IsError reports whether n is an ERROR node.
func (n Node) IsError() bool { return n.f != nil && n.raw().Flags&syntax.FlagError != 0 }

// Start and End are n's byte offsets in the file.
func (n Node) Start() int {
	if n.f == nil {
		return 0
	}
	return int(n.raw().Start)
}

func (n Node) End() int {
	if n.f == nil {
		return 0
	}
	return int(n.raw().End)
}

// Range is n's byte range.
func (n Node) Range() Range { return Range{Start: n.Start(), End: n.End()} }

// Text is the original source text of n (before the pre-pass).
func (n Node) Text() string {
	if n.f == nil {
		return ""
	}
	return string(n.f.Src[n.raw().Start:n.raw().End])
}

// Parent is n's parent, or the zero Node at the root.
func (n Node) Parent() Node {
	if n.f == nil || n.raw().Parent < 0 {
		return Node{}
	}
	return Node{n.f, n.raw().Parent}
}

// Field is the name of the field n is in its parent ("function",
// "arguments", ...), or "".
func (n Node) Field() string {
	if n.f == nil {
		return ""
	}
	return syntax.FieldName(n.raw().Field)
}

// Children are n's children in order: its named children, and the
// anonymous ones that fill a field (operators). Punctuation and keywords
// outside fields are not kept in the flattened tree.
func (n Node) Children() []Node {
	if n.f == nil {
		return nil
	}
	var out []Node
	for c := n.raw().FirstChild; c >= 0; c = n.f.nodes[c].NextSibling {
		out = append(out, Node{n.f, c})
	}
	return out
}

// NamedChildren are n's named children, in order, skipping comments.
func (n Node) NamedChildren() []Node {
	if n.f == nil {
		return nil
	}
	var out []Node
	for c := n.raw().FirstChild; c >= 0; c = n.f.nodes[c].NextSibling {
		r := &n.f.nodes[c]
		if r.Flags&syntax.FlagNamed != 0 && r.Flags&syntax.FlagExtra == 0 {
			out = append(out, Node{n.f, c})
		}
	}
	return out
}

// ChildByField returns n's first child in the named field.
func (n Node) ChildByField(field string) Node {
	if n.f == nil {
		return Node{}
	}
	id, ok := syntax.FieldID(field)
	if !ok {
		return Node{}
	}
	for c := n.raw().FirstChild; c >= 0; c = n.f.nodes[c].NextSibling {
		if n.f.nodes[c].Field == id {
			return Node{n.f, c}
		}
	}
	return Node{}
}

// ChildrenByField returns n's children in the named field.
func (n Node) ChildrenByField(field string) []Node {
	if n.f == nil {
		return nil
	}
	id, ok := syntax.FieldID(field)
	if !ok {
		return nil
	}
	var out []Node
	for c := n.raw().FirstChild; c >= 0; c = n.f.nodes[c].NextSibling {
		if n.f.nodes[c].Field == id {
			out = append(out, Node{n.f, c})
		}
	}
	return out
}

// Contains reports whether m lies inside n (or is n).
func (n Node) Contains(m Node) bool {
	return n.f != nil && m.f == n.f && n.Start() <= m.Start() && m.End() <= n.End() && n.i <= m.i
}

// Descendants calls fn for n and every node below it in pre-order; fn
// returning false skips that node's children.
func (n Node) Descendants(fn func(Node) bool) {
	if n.f == nil {
		return
	}
	nodes := n.f.nodes
	end := n.f.subtreeEnd(n.i)
	for i := n.i; i < end; {
		if fn(Node{n.f, i}) {
			i++
			continue
		}
		i = n.f.subtreeEnd(i)
	}
	_ = nodes
}

// Ancestor returns the nearest proper ancestor of n of one of the kinds.
func (n Node) Ancestor(kinds ...string) Node {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if p.Is(kinds...) {
			return p
		}
	}
	return Node{}
}

// InError reports whether n lies inside an ERROR node: the parser did not
// understand the code around it, so facts about it are guesses. Only the
// ERROR nodes within n's function count: when the parser gives up on some
// lines late in a file (a kernel body of statement macros), its recovery
// may wrap the whole translation unit in an ERROR, around functions it
// parsed whole; those functions are understood.
func (n Node) InError() bool {
	if n.f == nil {
		return false
	}
	inFunction := false
	for p := n; p.Valid(); p = p.Parent() {
		if p.IsError() && !(inFunction && !p.Parent().Valid()) {
			return true // an ERROR within n's function, or around n outside any
		}
		if p.Is("function_definition") && !p.HasError() {
			inFunction = true // a whole function, parsed cleanly
		}
	}
	return false
}

// Unparen strips parentheses and casts around an expression:
// `((size_t)(x))` and `static_cast<size_t>(x)` give x.
func (n Node) Unparen() Node {
	for n.Valid() {
		switch n.Kind() {
		case "parenthesized_expression":
			n = firstNamed(n)
		case "cast_expression":
			n = n.ChildByField("value")
		case "call_expression":
			// static_cast<T>(x), reinterpret_cast<T>(x), size_t(x)
			fn := n.ChildByField("function")
			args := n.ChildByField("arguments").NamedChildren()
			if len(args) != 1 {
				return n
			}
			name := fn.Text()
			if fn.Is("template_function") {
				name = fn.ChildByField("name").Text()
			}
			if !isCastName(name) {
				return n
			}
			n = args[0]
		default:
			return n
		}
	}
	return n
}

func isCastName(name string) bool {
	switch name {
	case "static_cast", "reinterpret_cast", "const_cast", "size_t", "std::size_t",
		"int64_t", "uint64_t", "long", "double", "float", "unsigned", "int",
		"std::int64_t", "std::uint64_t", "ptrdiff_t", "CUdeviceptr", "ssize_t":
		return true
	}
	return false
}

func firstNamed(n Node) Node {
	for c := n.raw().FirstChild; c >= 0; c = n.f.nodes[c].NextSibling {
		if r := &n.f.nodes[c]; r.Flags&syntax.FlagNamed != 0 && r.Flags&syntax.FlagExtra == 0 {
			return Node{n.f, c}
		}
	}
	return Node{}
}

// Name returns the plain name an expression refers to: `x` for x,
// `cudaMalloc` for ::cudaMalloc, `f` for ns::f<T>, `m` for obj.m and
// obj->m. It returns "" for anything else.
func (n Node) Name() string {
	for n.Valid() {
		switch n.Kind() {
		case "identifier", "field_identifier", "type_identifier", "namespace_identifier", "primitive_type":
			return n.Text()
		case "qualified_identifier":
			n = n.ChildByField("name")
		case "template_function", "template_type", "template_method":
			n = n.ChildByField("name")
		case "field_expression":
			n = n.ChildByField("field")
		case "destructor_name", "operator_name":
			return strings.Join(strings.Fields(n.Text()), "")
		default:
			return ""
		}
	}
	return ""
}

// subtreeEnd returns the index just past the subtree rooted at i (nodes are
// in pre-order, so a subtree is a contiguous run).
func (f *File) subtreeEnd(i int32) int32 {
	for p := i; p >= 0; p = f.nodes[p].Parent {
		if s := f.nodes[p].NextSibling; s >= 0 {
			return s
		}
	}
	return int32(len(f.nodes))
}

// String renders the subtree of n as an S-expression of named nodes, with
// field names: for debugging and tests.
func (n Node) String() string {
	var b strings.Builder
	n.writeSExpr(&b, "")
	return b.String()
}

func (n Node) writeSExpr(b *strings.Builder, field string) {
	if !n.Valid() {
		b.WriteString("()")
		return
	}
	if field != "" {
		b.WriteString(field + ": ")
	}
	b.WriteString("(" + n.Kind())
	if n.IsMissing() {
		b.WriteString(" MISSING")
	}
	for _, c := range n.Children() {
		if !c.IsNamed() {
			continue
		}
		b.WriteByte(' ')
		c.writeSExpr(b, c.Field())
	}
	b.WriteByte(')')
}

// HasError reports whether an ERROR node lies within n (n itself aside).
func (n Node) HasError() bool {
	if n.f == nil {
		return false
	}
	for _, i := range n.f.errorNodes {
		e := Node{n.f, i}
		if e != n && n.Start() <= e.Start() && e.End() <= n.End() {
			return true
		}
	}
	return false
}
