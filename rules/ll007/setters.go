package ll007

import (
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
)

// setter describes where a function that changes the environment takes the
// variable's name and value.
type setter struct {
	name  int // argument index of the name, or of "NAME=VALUE"
	value int // argument index of the value; -1 when there is none
	// assignment: the argument is "NAME=VALUE" (putenv).
	assignment bool
}

var setters = map[string]setter{
	"setenv":                  {name: 0, value: 1},
	"_putenv_s":               {name: 0, value: 1},
	"_wputenv_s":              {name: 0, value: 1},
	"_tputenv_s":              {name: 0, value: 1},
	"SetEnvironmentVariable":  {name: 0, value: 1},
	"SetEnvironmentVariableA": {name: 0, value: 1},
	"SetEnvironmentVariableW": {name: 0, value: 1},
	"g_setenv":                {name: 0, value: 1},
	"qputenv":                 {name: 0, value: 1},
	"putenv":                  {name: 0, value: -1, assignment: true},
	"_putenv":                 {name: 0, value: -1, assignment: true},
	"_wputenv":                {name: 0, value: -1, assignment: true},
	"_tputenv":                {name: 0, value: -1, assignment: true},
	// Unsetting after initialization has no effect either.
	"unsetenv":   {name: 0, value: -1},
	"g_unsetenv": {name: 0, value: -1},
	"qunsetenv":  {name: 0, value: -1},
}

// setting is what a setter call does to a loading variable.
type setting struct {
	name string
	// values are the values it may set, where they are known in full.
	values []string
}

// loadingSetting reports whether call c sets (or unsets) a loading
// variable, and to what.
func (a *analysis) loadingSetting(c *cudaparse.Call) (setting, bool) {
	s, ok := setters[c.Name]
	if !ok || s.name >= len(c.Args) {
		return setting{}, false
	}
	var set setting
	for _, t := range a.stringsOf(c.Args[s.name], 0) {
		name, value := t.s, ""
		hasValue := false
		if s.assignment {
			name, value, hasValue = strings.Cut(t.s, "=")
			hasValue = hasValue && t.complete
		} else if !t.complete {
			continue
		}
		if !knowledge.LoadingVariables[name] || set.name != "" && set.name != name {
			continue
		}
		set.name = name
		if hasValue {
			set.values = append(set.values, value)
		}
	}
	if set.name == "" {
		return setting{}, false
	}
	if s.value >= 0 && s.value < len(c.Args) {
		for _, t := range a.stringsOf(c.Args[s.value], 0) {
			if t.complete {
				set.values = append(set.values, t.s)
			}
		}
	}
	return set, true
}

// text is a string an expression may hold: all of it when complete, else a
// known prefix ("CUDA_MODULE_LOADING=" + mode).
type text struct {
	s        string
	complete bool
}

const maxStringDepth = 8

// passThrough are one-argument functions and macros whose result is their
// argument's text: TEXT("..."), strdup("..."), std::string("...").
var passThrough = map[string]bool{
	"TEXT": true, "_T": true, "_TEXT": true, "__T": true, "__TEXT": true,
	"strdup": true, "_strdup": true, "wcsdup": true, "_wcsdup": true,
	"string": true, "wstring": true, "basic_string": true, "string_view": true,
	"QString": true, "QByteArray": true, "QStringLiteral": true, "QLatin1String": true, "QByteArrayLiteral": true,
}

// textMethods return the text of the object they are called on: s.c_str().
var textMethods = map[string]bool{
	"c_str": true, "data": true, "toUtf8": true, "toLocal8Bit": true, "constData": true, "toStdString": true,
}

// bufferWriters fill their first argument from a literal argument:
// strcpy(buf, "..."), snprintf(buf, n, "NAME=%s", v).
var bufferWriters = regexp.MustCompile(`^(v?s(n)?w?printf(_s)?|_v?sn?w?printf(_s)?|str(n)?cpy(_s)?|wcs(n)?cpy(_s)?|lstrcpy[AW]?|StringCch(Copy|Printf)[AW]?|str(n)?cat(_s)?|wcs(n)?cat(_s)?)$`)

// stringsOf returns the strings expression n may hold: literals (wide and
// raw ones too), concatenations, both arms of ?:, s + "..." in C++, and
// variables and macros bound to those, through casts and the wrappers
// above.
func (a *analysis) stringsOf(n cudaparse.Node, depth int) []text {
	if depth > maxStringDepth || !n.Valid() {
		return nil
	}
	n = n.Unparen()
	switch n.Kind() {
	case "string_literal", "raw_string_literal", "concatenated_string":
		return []text{literalText(n.Text())}
	case "conditional_expression":
		return append(a.stringsOf(n.ChildByField("consequence"), depth+1), a.stringsOf(n.ChildByField("alternative"), depth+1)...)
	case "binary_expression":
		if strings.TrimSpace(n.ChildByField("operator").Text()) == "+" {
			return concat(a.stringsOf(n.ChildByField("left"), depth+1), a.stringsOf(n.ChildByField("right"), depth+1))
		}
	case "call_expression":
		fn := n.ChildByField("function")
		args := n.ChildByField("arguments").NamedChildren()
		if fn.Is("field_expression") && len(args) == 0 && textMethods[fn.ChildByField("field").Text()] {
			return a.stringsOf(fn.ChildByField("argument"), depth+1)
		}
		if len(args) == 1 && passThrough[fn.Name()] {
			return a.stringsOf(args[0], depth+1)
		}
	case "initializer_list", "argument_list":
		if args := n.NamedChildren(); len(args) == 1 {
			return a.stringsOf(args[0], depth+1)
		}
	case "identifier", "qualified_identifier", "field_expression":
		return a.variableStrings(n, depth)
	}
	return nil
}

// variableStrings returns the strings a variable or macro may hold at n:
// from the definitions that reach it, and from the buffer writers that fill
// it earlier in the function.
func (a *analysis) variableStrings(n cudaparse.Node, depth int) []text {
	var out []text
	for _, d := range a.file.ReachingDefs(n) {
		switch {
		case d.Value.Is("preproc_arg"):
			if t, ok := macroText(d.Value.Text()); ok {
				out = append(out, t)
			}
		case d.Op == cudaparse.DefInit || d.Op == cudaparse.DefAssign:
			out = append(out, a.stringsOf(d.Value, depth+1)...)
		case d.Op == "+=":
			out = append(out, concat(a.stringsOf(d.Node.ChildByField("left"), depth+1), a.stringsOf(d.Value, depth+1))...)
		}
	}
	if len(out) == 0 {
		out = a.constantStrings(n.Name(), depth)
	}
	return append(out, a.bufferStrings(n, depth)...)
}

// constantStrings returns the strings that constants declared outside
// functions under the plain name hold: namespace members (cfg::kEnv) and
// static class members (Names::kVar), which the def-use facts do not
// reach by their qualified names.
func (a *analysis) constantStrings(name string, depth int) []text {
	if name == "" {
		return nil
	}
	var out []text
	for _, n := range a.file.NodesOfKind("init_declarator", "field_declaration") {
		value := n.ChildByField("value")
		if n.Is("field_declaration") {
			value = n.ChildByField("default_value")
		}
		if !value.Valid() || cudaparse.DeclaredName(n.ChildByField("declarator")) != name || n.Ancestor("function_definition").Valid() {
			continue
		}
		out = append(out, a.stringsOf(value, depth+1)...)
	}
	return out
}

// bufferStrings returns what buffer writers earlier in the function put in
// the buffer n names: the literal they copy, or the part of a format
// before its first conversion.
func (a *analysis) bufferStrings(n cudaparse.Node, depth int) []text {
	key := cudaparse.VarKey(n)
	fn := a.file.FunctionOf(n)
	if key == "" || fn == nil {
		return nil
	}
	var out []text
	appended := false
	for _, c := range a.file.CallsIn(fn) {
		if c.Node.End() > n.Start() || !bufferWriters.MatchString(c.Name) || cudaparse.VarKey(c.Arg(0)) != key {
			continue
		}
		if strings.Contains(c.Name, "cat") {
			appended = true // strcat(buf, mode): whatever was copied before is a prefix
			continue
		}
		// The first string argument is the source or the format; those
		// after a format are its operands.
		for _, arg := range c.Args[1:] {
			ts := a.stringsOf(arg, depth+1)
			for _, t := range ts {
				if i := strings.IndexByte(t.s, '%'); i >= 0 && strings.Contains(c.Name, "printf") {
					t = text{s: t.s[:i]}
				}
				out = append(out, t)
			}
			if len(ts) > 0 {
				break
			}
		}
	}
	if appended {
		for i := range out {
			out[i].complete = false
		}
	}
	return out
}

// concat joins every left string with every right one.
func concat(left, right []text) []text {
	var out []text
	for _, l := range left {
		if !l.complete || len(right) == 0 {
			out = append(out, text{s: l.s})
			continue
		}
		for _, r := range right {
			out = append(out, text{s: l.s + r.s, complete: r.complete})
		}
	}
	return out
}

// literalText decodes the text of a string literal or of adjacent literals:
// "a" "b", L"a", u8"a", R"(a)".
func literalText(src string) text {
	var b strings.Builder
	complete := true
	for len(src) > 0 {
		src = strings.TrimLeft(src, " \t\r\n")
		if src == "" {
			break
		}
		q := strings.IndexByte(src, '"')
		if q < 0 || !isLiteralPrefix(src[:q]) {
			// A macro between literals ("NAME=" SUFFIX): the rest is unknown.
			complete = false
			break
		}
		prefix := src[:q]
		src = src[q+1:]
		if strings.HasSuffix(prefix, "R") {
			open := strings.IndexByte(src, '(')
			if open < 0 {
				return text{s: b.String()}
			}
			delim := ")" + src[:open] + `"`
			end := strings.Index(src, delim)
			if end < 0 {
				return text{s: b.String()}
			}
			b.WriteString(src[open+1 : end])
			src = src[end+len(delim):]
			continue
		}
		end := closingQuote(src)
		if end < 0 {
			return text{s: b.String()}
		}
		b.WriteString(unescape(src[:end]))
		src = src[end+1:]
	}
	return text{s: b.String(), complete: complete}
}

func isLiteralPrefix(p string) bool {
	switch p {
	case "", "L", "u8", "u", "U", "R", "LR", "u8R", "uR", "UR":
		return true
	}
	return false
}

// closingQuote returns the index of the quote that ends a literal's body.
func closingQuote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// macroWrapper matches a macro body that wraps literals in TEXT(...) or
// _T(...): #define ENV_NAME TEXT("CUDA_MODULE_LOADING").
var macroWrapper = regexp.MustCompile(`^\s*(TEXT|_T|_TEXT|__T|__TEXT)\s*\((.*)\)\s*$`)

// macroText returns the string an object-like macro's body spells.
func macroText(body string) (text, bool) {
	if m := macroWrapper.FindStringSubmatch(body); m != nil {
		body = m[2]
	}
	body = strings.TrimSpace(body)
	for strings.HasPrefix(body, "(") && strings.HasSuffix(body, ")") {
		body = strings.TrimSpace(body[1 : len(body)-1])
	}
	if q := strings.IndexByte(body, '"'); q < 0 || !isLiteralPrefix(body[:q]) {
		return text{}, false
	}
	return literalText(body), true
}
