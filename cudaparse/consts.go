package cudaparse

import (
	"math"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// Constant folding: the numeric value of an expression built from literals,
// casts, arithmetic and names bound to such expressions (locals with one
// reaching definition, file-scope constants, object-like #defines).

const maxConstDepth = 12

// ConstValue returns the numeric value of expression n, if it is constant.
func (f *File) ConstValue(n Node) (float64, bool) { return f.constValue(n, 0) }

func (f *File) constValue(n Node, depth int) (float64, bool) {
	if depth > maxConstDepth || !n.Valid() {
		return 0, false
	}
	n = n.Unparen()
	switch n.Kind() {
	case "number_literal":
		return parseNumber(n.Text())
	case "true":
		return 1, true
	case "false":
		return 0, true
	case "unary_expression":
		v, ok := f.constValue(n.ChildByField("argument"), depth+1)
		if !ok {
			return 0, false
		}
		switch strings.TrimSpace(n.ChildByField("operator").Text()) {
		case "-":
			return -v, true
		case "+":
			return v, true
		case "~":
			return float64(^int64(v)), true
		}
	case "binary_expression":
		a, ok1 := f.constValue(n.ChildByField("left"), depth+1)
		b, ok2 := f.constValue(n.ChildByField("right"), depth+1)
		if ok1 && ok2 {
			return applyOp(strings.TrimSpace(n.ChildByField("operator").Text()), a, b)
		}
	case "identifier", "qualified_identifier":
		defs := f.ReachingDefs(n)
		if len(defs) != 1 || defs[0].Op != DefInit || !defs[0].Value.Valid() {
			return 0, false
		}
		v := defs[0].Value
		if v.Is("preproc_arg") {
			return f.macroValue(v.Text(), depth+1)
		}
		if v.Is("initializer_list", "argument_list") {
			args := v.NamedChildren()
			if len(args) != 1 {
				return 0, false
			}
			v = args[0]
		}
		return f.constValue(v, depth+1)
	case "sizeof_expression":
		// sizeof(float), sizeof(double): common enough in size arithmetic.
		t := compactSpace(n.Text())
		switch strings.TrimPrefix(t, "sizeof") {
		case "(char)", "(int8_t)", "(uint8_t)":
			return 1, true
		case "(short)", "(half)", "(__half)", "(int16_t)", "(uint16_t)":
			return 2, true
		case "(float)", "(int)", "(int32_t)", "(uint32_t)", "(unsigned)":
			return 4, true
		case "(double)", "(size_t)", "(int64_t)", "(uint64_t)", "(long)", "(void*)":
			return 8, true
		}
	}
	return 0, false
}

func applyOp(op string, a, b float64) (float64, bool) {
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/":
		if b == 0 {
			return 0, false
		}
		if a == math.Trunc(a) && b == math.Trunc(b) {
			return math.Trunc(a / b), true // integer division
		}
		return a / b, true
	case "%":
		if b == 0 {
			return 0, false
		}
		return math.Mod(a, b), true
	case "<<":
		if b < 0 || b > 62 {
			return 0, false
		}
		return a * math.Pow(2, b), true
	case ">>":
		if b < 0 || b > 62 {
			return 0, false
		}
		return math.Trunc(a / math.Pow(2, b)), true
	case "|":
		return float64(int64(a) | int64(b)), true
	case "&":
		return float64(int64(a) & int64(b)), true
	}
	return 0, false
}

// parseNumber parses a C number literal: suffixes (u, l, ull, f), hex,
// binary, octal, digit separators.
func parseNumber(s string) (float64, bool) {
	s = strings.ReplaceAll(s, "'", "")
	lower := strings.ToLower(s)
	isHex := strings.HasPrefix(lower, "0x")
	for len(lower) > 0 {
		c := lower[len(lower)-1]
		if c == 'u' || c == 'l' || c == 'z' || (!isHex && c == 'f') {
			lower = lower[:len(lower)-1]
			continue
		}
		break
	}
	if isHex || strings.HasPrefix(lower, "0b") {
		if v, err := strconv.ParseUint(lower, 0, 64); err == nil {
			return float64(v), true
		}
		return 0, false
	}
	if len(lower) > 1 && lower[0] == '0' && !strings.ContainsAny(lower, ".e") {
		if v, err := strconv.ParseUint(lower[1:], 8, 64); err == nil {
			return float64(v), true
		}
		return 0, false
	}
	v, err := strconv.ParseFloat(lower, 64)
	return v, err == nil
}

// macroValue evaluates the text of an object-like macro: a constant
// expression of numbers, casts, parentheses, operators and other macros.
func (f *File) macroValue(text string, depth int) (float64, bool) {
	e := &macroExpr{f: f, toks: syntax.Lex([]byte(text)), src: text, depth: depth}
	v, ok := e.expr(0)
	return v, ok && e.pos == len(e.toks)
}

type macroExpr struct {
	f     *File
	toks  []syntax.Token
	src   string
	pos   int
	depth int
}

func (e *macroExpr) peek() string {
	for e.pos < len(e.toks) && e.toks[e.pos].Kind == syntax.TokComment {
		e.pos++
	}
	if e.pos >= len(e.toks) {
		return ""
	}
	t := e.toks[e.pos]
	s := e.src[t.Start:t.End]
	// Two-character operators arrive as two punctuation tokens.
	if (s == "<" || s == ">") && e.pos+1 < len(e.toks) && e.src[e.toks[e.pos+1].Start:e.toks[e.pos+1].End] == s {
		return s + s
	}
	return s
}

// take consumes the token peek returned (two tokens for << and >>).
func (e *macroExpr) take(s string) {
	if s == "<<" || s == ">>" {
		e.pos += 2
		return
	}
	e.pos++
}

var binaryPrecedence = map[string]int{"|": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}

func (e *macroExpr) expr(minPrec int) (float64, bool) {
	left, ok := e.unary()
	if !ok {
		return 0, false
	}
	for {
		op := e.peek()
		prec, isOp := binaryPrecedence[op]
		if !isOp || prec <= minPrec {
			return left, true
		}
		e.take(op)
		right, ok := e.expr(prec)
		if !ok {
			return 0, false
		}
		if left, ok = applyOp(op, left, right); !ok {
			return 0, false
		}
	}
}

func (e *macroExpr) unary() (float64, bool) {
	s := e.peek()
	switch s {
	case "-", "+":
		e.take(s)
		v, ok := e.unary()
		if s == "-" {
			v = -v
		}
		return v, ok
	case "(":
		e.take(s)
		// A cast: (size_t), (unsigned long long)
		save := e.pos
		for e.pos < len(e.toks) && e.toks[e.pos].Kind == syntax.TokIdent {
			e.pos++
		}
		if e.pos > save && e.peek() == ")" && isCastName(strings.Fields(e.src[e.toks[save].Start:e.toks[e.pos-1].End])[0]) {
			e.take(")")
			return e.unary()
		}
		e.pos = save
		v, ok := e.expr(0)
		if !ok || e.peek() != ")" {
			return 0, false
		}
		e.take(")")
		return v, true
	case "":
		return 0, false
	}
	t := e.toks[e.pos]
	e.pos++
	switch t.Kind {
	case syntax.TokNumber:
		return parseNumber(s)
	case syntax.TokIdent:
		if e.depth > maxConstDepth {
			return 0, false
		}
		defs := e.f.fileDefs(s)
		if len(defs) == 1 && defs[0].Value.Valid() {
			if defs[0].Value.Is("preproc_arg") {
				return e.f.macroValue(defs[0].Value.Text(), e.depth+1)
			}
			return e.f.constValue(defs[0].Value, e.depth+1)
		}
	}
	return 0, false
}

// NeverRuns reports whether n lies in a branch of an if statement that
// the preprocessor's constants never take: the then-branch of `if (0)` or
// of `if (USE_FAST)` where the file says `#define USE_FAST 0`, the else of
// `if (1)`, with `!` before either. Only literals and object-like macros
// defined once, outside any `#if` (a default under `#ifndef` is the
// build's to change): a variable's first value is not its every value.
func (f *File) NeverRuns(n Node) bool {
	from := n
	for p := n.Parent(); p.Valid() && !p.Is("function_definition", "lambda_expression"); from, p = p, p.Parent() {
		if !p.Is("if_statement") {
			continue
		}
		branch := from.Field()
		if branch != "consequence" && branch != "alternative" {
			continue
		}
		cond := p.ChildByField("condition")
		if cond.Is("condition_clause") {
			cond = cond.ChildByField("value")
		}
		holds, known := f.preprocessorTruth(cond, 0)
		if known && holds == (branch == "alternative") {
			return true
		}
	}
	return false
}

// fileConstant reports whether the declarator d declares a constant of
// the file's scope (or a namespace's), not a pointer: `const int N = 1;`,
// `constexpr bool kTiled = false;`, which nothing can assign.
func fileConstant(d Node) bool {
	decl := d.Parent()
	if !decl.Is("declaration") || decl.Ancestor("function_definition", "class_specifier", "struct_specifier").Valid() {
		return false
	}
	constant := false
	for _, k := range decl.NamedChildren() {
		if k.Is("type_qualifier") && (k.Text() == "const" || k.Text() == "constexpr") {
			constant = true
		}
	}
	return constant && d.ChildByField("declarator").Is("identifier")
}

// literalsOnly reports whether expression n is built of literals alone.
func literalsOnly(n Node) bool {
	only := true
	n.Descendants(func(x Node) bool {
		if x.Is("identifier", "call_expression", "field_expression", "qualified_identifier") {
			only = false
		}
		return only
	})
	return only
}

// preprocessorTruth returns whether condition c holds, when it is a
// literal, a macro or a file constant NeverRuns trusts, possibly negated.
func (f *File) preprocessorTruth(c Node, depth int) (holds, known bool) {
	c = c.Unparen()
	if depth > maxConstDepth || !c.Valid() {
		return false, false
	}
	switch c.Kind() {
	case "number_literal", "true", "false":
		v, ok := f.constValue(c, depth)
		return v != 0, ok
	case "unary_expression":
		if strings.TrimSpace(c.ChildByField("operator").Text()) == "!" {
			holds, known = f.preprocessorTruth(c.ChildByField("argument"), depth+1)
			return !holds, known
		}
	case "identifier":
		// A local of the name comes first; else the file's definitions,
		// all of them: one, a #define outside any #if, or a constant of
		// the file's scope (`const int IN_CORE = 1;`).
		defs := f.ReachingDefs(c)
		if len(defs) != 1 || defs[0].Node.Ancestor("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif").Valid() {
			return false, false
		}
		if defs[0].Op == DefInit && fileConstant(defs[0].Node) {
			v, ok := f.constValue(defs[0].Value, depth+1)
			return v != 0, ok && literalsOnly(defs[0].Value)
		}
		if !defs[0].Node.Is("preproc_def") {
			return false, false
		}
		// Its value of literals alone: `#define FUSE ((OPTS & 4))` is the
		// build's to change when OPTS is.
		text := defs[0].Value.Text()
		for _, t := range syntax.Lex([]byte(text)) {
			if t.Kind == syntax.TokIdent {
				return false, false
			}
		}
		v, ok := f.macroValue(text, depth+1)
		return v != 0, ok
	}
	return false, false
}
