package ll005

import (
	"strings"
	"unicode"

	"github.com/lazylint/lazylint/cudaparse"
)

// Whether a cache's key stands for a device or a context: one entry per
// device is one load of the image per context. Evidence by meaning comes
// first (the value's type, the call that wrote it, a call that makes it
// current, what the callers in the file pass); a name that says device or
// context is the last resort, for members and parameters whose callers live
// in other files.

// currentQueries write the current device or context into their first
// argument.
var currentQueries = map[string]bool{
	"cudaGetDevice": true, "cuCtxGetCurrent": true, "cuCtxGetDevice": true,
	"cuDeviceGet": true, "cuDevicePrimaryCtxRetain": true,
	"cuCtxCreate": true, "cuCtxCreate_v2": true, "cuCtxCreate_v3": true, "cuCtxCreate_v4": true,
}

// deviceArgument gives, for calls that take a device, the position of the
// device argument: what is passed there is a device.
var deviceArgument = map[string]int{
	"cuDeviceGet": 1, "cuDeviceGetAttribute": 2, "cuDeviceComputeCapability": 2, "cuDeviceGetName": 2,
	"cudaGetDeviceProperties": 1, "cudaDeviceGetAttribute": 2,
}

// deviceTypes are the driver's handle types of a device or a context.
var deviceTypes = map[string]bool{"CUcontext": true, "CUdevice": true, "CUctx_st*": true, "CUctx_st": true}

// keyer judges key expressions of one file.
type keyer struct {
	file *cudaparse.File
	// fieldTypes maps member and global names to the types they are
	// declared with in the file ("" where two declarations disagree).
	fieldTypes map[string]string
	memo       map[cudaparse.Node]bool
}

func newKeyer(f *cudaparse.File) *keyer {
	k := &keyer{file: f, fieldTypes: map[string]string{}, memo: map[cudaparse.Node]bool{}}
	for _, d := range f.NodesOfKind("field_declaration", "declaration") {
		if d.Kind() == "declaration" && f.FunctionOf(d) != nil {
			continue // locals: DeclaredType finds them
		}
		typ := plainType(d.ChildByField("type").Text())
		for _, decl := range d.ChildrenByField("declarator") {
			name := cudaparse.DeclaredName(decl)
			if name == "" {
				continue
			}
			if old, seen := k.fieldTypes[name]; seen && old != typ {
				typ = ""
			}
			k.fieldTypes[name] = typ
		}
	}
	return k
}

// isKey reports whether expr, or a part of it, is a device or a context.
func (k *keyer) isKey(expr cudaparse.Node, depth int) bool {
	if depth > maxValueDepth || !expr.Valid() {
		return false
	}
	expr = expr.Unparen()
	if v, ok := k.memo[expr]; ok {
		return v
	}
	k.memo[expr] = false // a value defined through itself adds nothing
	v := k.isKeyUncached(expr, depth)
	k.memo[expr] = v
	return v
}

func (k *keyer) isKeyUncached(expr cudaparse.Node, depth int) bool {
	switch expr.Kind() {
	case "identifier":
		return k.isKeyVariable(expr, depth)
	case "field_expression":
		return k.isKeyField(expr, depth)
	case "call_expression":
		if k.isKeyCall(expr, depth) {
			return true
		}
		return k.anyKey(expr.ChildByField("arguments").NamedChildren(), depth)
	case "subscript_expression":
		// contexts[i]: an element of a table of contexts; per_device[dev].
		base := expr.ChildByField("argument").Unparen()
		if t := k.typeOf(base); deviceTypes[t] || elementIsDevice(t) {
			return true
		}
		return k.anyKey(expr.ChildByField("indices").NamedChildren(), depth)
	case "string_literal", "number_literal", "char_literal", "null", "nullptr", "true", "false":
		return false
	}
	return k.anyKey(expr.NamedChildren(), depth)
}

func (k *keyer) anyKey(nodes []cudaparse.Node, depth int) bool {
	for _, n := range nodes {
		if k.isKey(n, depth+1) {
			return true
		}
	}
	return false
}

// isKeyVariable judges a variable by its type, the definitions that reach
// it, the calls of its function that use it as a device, the callers that
// pass it, and last its name. A value of any type built from a device
// counts (a string key made of the context's address); the name counts
// only for a type that can hold a device.
func (k *keyer) isKeyVariable(id cudaparse.Node, depth int) bool {
	typ := k.typeOf(id)
	if deviceTypes[typ] {
		return true
	}
	for _, d := range k.file.ReachingDefs(id) {
		if k.defIsKey(d, depth) {
			return true
		}
	}
	if fn := k.file.FunctionOf(id); fn != nil && k.usedAsDevice(fn, id.Text()) {
		return true
	}
	return mayHoldDevice(typ) && deviceName(id.Text())
}

func (k *keyer) defIsKey(d cudaparse.Def, depth int) bool {
	switch d.Op {
	case cudaparse.DefOut:
		return d.Index == 0 && currentQueries[d.Call.Name]
	case cudaparse.DefParam:
		return k.callersPassKey(d.Func, d.Index, depth)
	case cudaparse.DefUpdate:
		return false
	}
	return d.Value.Valid() && k.isKey(d.Value, depth+1)
}

// usedAsDevice reports whether fn makes the variable's device or context
// current, or hands it to a call as a device: cudaSetDevice(dev),
// cuCtxPushCurrent(contexts[dev]), cuDeviceGet(&d, dev); or passes it to a
// helper of the file that does (select(&dev)).
func (k *keyer) usedAsDevice(fn *cudaparse.Function, name string) bool {
	return k.usedAsDeviceAt(fn, name, 0)
}

func (k *keyer) usedAsDeviceAt(fn *cudaparse.Function, name string, depth int) bool {
	for _, c := range k.file.CallsIn(fn) {
		at, ok := contextSwitchTarget[c.Name]
		if !ok {
			at, ok = deviceArgument[c.Name]
		}
		if ok {
			if at < 0 {
				at = len(c.Args) - 1
			}
			if namesDevice(c.Arg(at), name) {
				return true
			}
			continue
		}
		if depth < maxHelperDepth && k.helperUsesAsDevice(c, name, depth) {
			return true
		}
	}
	return false
}

// helperUsesAsDevice reports whether call passes the variable (or its
// address) to a function of the file that uses that parameter as a device.
func (k *keyer) helperUsesAsDevice(c *cudaparse.Call, name string, depth int) bool {
	callee := k.file.FunctionNamed(c.Name)
	if callee == nil || callee == c.Func || !callee.Body.Valid() || len(callee.Params) != len(c.Args) {
		return false
	}
	for _, p := range callee.Params {
		arg := c.Arg(p.Index).Unparen()
		if arg.Is("pointer_expression") {
			arg = arg.ChildByField("argument").Unparen()
		}
		if arg.Is("identifier") && arg.Text() == name && k.usedAsDeviceAt(callee, p.Name, depth+1) {
			return true
		}
	}
	return false
}

// namesDevice reports whether arg is the variable, or indexes a table with
// it (contexts[dev], state[dev].ctx).
func namesDevice(arg cudaparse.Node, name string) bool {
	arg = arg.Unparen()
	switch arg.Kind() {
	case "identifier":
		return arg.Text() == name
	case "subscript_expression":
		found := false
		arg.ChildByField("indices").Descendants(func(n cudaparse.Node) bool {
			found = found || n.Is("identifier") && n.Text() == name
			return !found
		})
		return found || namesDevice(arg.ChildByField("argument"), name)
	case "field_expression":
		return namesDevice(arg.ChildByField("argument"), name)
	}
	return false
}

// callersPassKey reports whether a call of fn in the file passes a key at
// parameter index; with no caller in the file, it says nothing.
func (k *keyer) callersPassKey(fn *cudaparse.Function, index int, depth int) bool {
	if fn == nil {
		return false
	}
	for _, c := range k.file.Calls {
		if c.Name == fn.Name && c.Func != fn && len(c.Args) == len(fn.Params) && k.isKey(c.Arg(index), depth+1) {
			return true
		}
	}
	return false
}

// isKeyField judges obj.f and obj->f by the member's declared type, what is
// assigned to it in the function, and its name.
func (k *keyer) isKeyField(fe cudaparse.Node, depth int) bool {
	field := fe.ChildByField("field").Text()
	typ := k.fieldTypes[field]
	if deviceTypes[typ] {
		return true
	}
	for _, d := range k.file.ReachingDefs(fe) {
		if d.Var == cudaparse.VarKey(fe) && k.defIsKey(d, depth) {
			return true
		}
	}
	return mayHoldDevice(typ) && deviceName(field)
}

// isKeyCall judges a call by what a function of the file returns, or by
// its name (current_device(), getActiveDeviceId()).
func (k *keyer) isKeyCall(call cudaparse.Node, depth int) bool {
	name := call.ChildByField("function").Name()
	if name == "" {
		return false
	}
	if fn := k.file.FunctionNamed(name); fn != nil && fn.Body.Valid() {
		for _, v := range k.file.ReturnValues(fn) {
			if k.isKey(v, depth+1) {
				return true
			}
		}
		return false
	}
	return deviceName(name)
}

// typeOf returns the declared type of a variable or member, without
// qualifiers: "int", "CUcontext", "std::vector<CUcontext>".
func (k *keyer) typeOf(n cudaparse.Node) string {
	switch n.Kind() {
	case "identifier":
		if typ, _ := k.file.DeclaredType(n); typ != "" {
			return plainType(typ)
		}
		return k.fieldTypes[n.Text()]
	case "field_expression":
		return k.fieldTypes[n.ChildByField("field").Text()]
	}
	return ""
}

// plainType drops qualifiers and blanks from a type: "const struct
// CUctx_st" gives "CUctx_st". DeclaredType gives types without blanks
// ("conststd::string"), so the qualifiers are also taken off as prefixes.
func plainType(typ string) string {
	var kept []string
	for _, f := range strings.Fields(typ) {
		if !typeQualifiers[f] {
			kept = append(kept, f)
		}
	}
	t := strings.Join(kept, "")
	for again := true; again; {
		again = false
		for _, q := range qualifierPrefixes {
			if len(t) > len(q) && strings.HasPrefix(t, q) {
				t, again = t[len(q):], true
			}
		}
	}
	return strings.TrimPrefix(t, "std::")
}

// qualifierPrefixes are typeQualifiers, longest first (constexpr before
// const).
var qualifierPrefixes = []string{"thread_local", "constexpr", "volatile", "register", "mutable", "extern", "inline", "static", "struct", "const"}

var typeQualifiers = map[string]bool{
	"const": true, "volatile": true, "struct": true, "static": true, "extern": true,
	"inline": true, "mutable": true, "register": true, "thread_local": true, "constexpr": true,
}

// mayHoldDevice reports whether a variable of type typ can be a device
// number or a context: an integer, a handle, auto, an unknown type, or a
// class whose name says device or context (a runtime's own Device).
func mayHoldDevice(typ string) bool {
	if typ == "" || deviceTypes[typ] || deviceName(typ) {
		return true
	}
	t := strings.TrimPrefix(strings.TrimPrefix(typ, "unsigned"), "signed")
	switch t {
	case "", "int", "long", "short", "longlong", "longint", "size_t", "ssize_t", "auto", "decltype(auto)",
		"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
		"intptr_t", "uintptr_t", "ptrdiff_t":
		return true
	}
	return false
}

// elementIsDevice reports whether a container type holds contexts or
// devices: std::vector<CUcontext>, CUcontext[8].
func elementIsDevice(typ string) bool {
	for t := range deviceTypes {
		if strings.Contains(typ, "<"+t+">") || strings.Contains(typ, "<"+t+",") || typ == t+"*" {
			return true
		}
	}
	return false
}

// deviceWords are the words of a name that say device or context.
var deviceWords = map[string]bool{
	"dev": true, "devs": true, "device": true, "devices": true, "devid": true, "devidx": true, "devnum": true,
	"ctx": true, "ctxs": true, "context": true, "contexts": true, "cuctx": true,
	"gpu": true, "gpus": true, "gpuid": true,
}

// idWords may follow a device word in a name that still names the device:
// device_id, devIdx, gpu_ordinal.
var idWords = map[string]bool{"id": true, "idx": true, "index": true, "num": true, "no": true, "nr": true, "number": true, "ordinal": true}

// deviceName reports whether a name says device or context: its last word
// is one (ctx, m_device, cuContext, current_device), or one followed by an
// id word (device_id, devIdx, getActiveDeviceId). A device word in the
// middle (gpu_kernel_id, deviceCount) does not name a device.
func deviceName(name string) bool {
	words := nameWords(name)
	for len(words) > 1 && idWords[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	return len(words) > 0 && deviceWords[words[len(words)-1]]
}

// nameWords splits a name at underscores, other punctuation and case
// changes, in lower case: "getActiveDeviceId" gives get, active, device, id.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	runes := []rune(name)
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) ||
			i+1 < len(runes) && unicode.IsUpper(runes[i-1]) && unicode.IsLower(runes[i+1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
