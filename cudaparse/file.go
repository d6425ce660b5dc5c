package cudaparse

import (
	"bytes"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/knowledge"
)

// Extensions are the file endings lazylint parses.
var Extensions = []string{".cu", ".cuh", ".cpp", ".cc", ".cxx", ".c", ".h", ".hpp", ".hh", ".hxx", ".inl"}

// IsHeader reports whether path names a header (.h .cuh .hpp .hh .hxx
// .inl): code that reaches a program through #include, not the linker.
func IsHeader(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".h", ".cuh", ".hpp", ".hh", ".hxx", ".inl":
		return true
	}
	return false
}

// IsSource reports whether path has one of the Extensions.
func IsSource(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range Extensions {
		if ext == e {
			return true
		}
	}
	return false
}

// DefaultParseLimit bounds the time one file may take to parse, so that a
// giant generated file cannot stall a run.
const DefaultParseLimit = 10 * time.Second

// Parser parses files. It owns a tree-sitter parser: use one per goroutine
// and Close it when done.
type Parser struct {
	tp *syntax.TreeParser
	// Limit is the longest one parse may take (0: DefaultParseLimit).
	Limit time.Duration
	// NoPrepass parses the raw text, to measure what the pre-pass gains.
	NoPrepass bool
	// Project is what the project's other files give the parse (the
	// header macros, clocks of other files, device code of its units).
	Project ProjectFacts
	// Additions are the team's own launch and preload helpers, clocks and
	// timer classes (the configuration's; additions.go).
	Additions *knowledge.Additions
	// Incremental keeps each parse's syntax tree (in C memory, until the
	// next parse or Close) so that the next parse, of an edited version of
	// the same file, reuses what the edit left alone: an editor's checks.
	// The facts are the same as from a fresh parse.
	Incremental bool
	// DeviceCodeOnly stops a parse after the pre-pass, with
	// ErrNoDeviceCode, when the file declares nothing __device__ or
	// __global__: no function of it would be device code (the pre-pass's
	// qualifiers are where a function's execution space comes from).
	DeviceCodeOnly bool

	tokens []syntax.Token // the pre-pass's token memory, reused from file to file
}

// ProjectFacts are what the other files of the project give one file's
// parse, the one door through which they reach it: the call-renaming
// macros of the project headers it includes (see macros.go; its own are
// added to them), the functions of other files that read a host clock
// (a call of one is a clock read: ClockOf), the functions of other files
// that time a parameter (TimingHelpers, by name), and the device code of
// the other files of its translation units (UnitDevice).
type ProjectFacts struct {
	Macros        MacroTable
	Clocks        map[string]bool
	TimingHelpers map[string]TimingHelper
	UnitDevice    []DeviceSummary
}

// ErrNoDeviceCode is Parse's answer, with Parser.DeviceCodeOnly, for a
// file that declares no device code.
var ErrNoDeviceCode = errors.New("no device code")

// declaresDeviceCode reports whether qualifiers hold one that makes a
// function device code (spaceOf).
func declaresDeviceCode(qualifiers []Qualifier) bool {
	for _, q := range qualifiers {
		if q.Kind == QualDevice || q.Kind == QualGlobal {
			return true
		}
	}
	return false
}

// NewParser returns a parser for C, C++ and CUDA.
func NewParser() (*Parser, error) {
	tp, err := syntax.NewTreeParser()
	if err != nil {
		return nil, err
	}
	return &Parser{tp: tp}, nil
}

// ParseBare parses text with tree-sitter and frees the tree at once, with no
// pre-pass, flattening or facts: the baseline benchmarks compare against.
func (p *Parser) ParseBare(text []byte) error { return p.tp.ParseBare(text) }

// Close frees the parser's C memory.
func (p *Parser) Close() { p.tp.Close() }

// Parse parses src, the contents of path, and builds the facts rules use.
// The syntax tree's C memory is freed before Parse returns, unless the
// parser is Incremental.
func (p *Parser) Parse(path string, src []byte) (*File, error) {
	f := &File{Path: path, Src: src, Lines: syntax.NewLineIndex(src)}
	limit := p.Limit
	if limit <= 0 {
		limit = DefaultParseLimit
	}
	// The limit covers the pre-pass and the parse together.
	start := time.Now()
	text := src
	if !p.NoPrepass {
		var ok bool
		if text, f.Rewrites, ok = syntax.NeutralizeBy(src, start.Add(limit), &p.tokens); !ok {
			return nil, ErrParseLimit
		}
		if p.DeviceCodeOnly && !declaresDeviceCode(f.Rewrites.Qualifiers) {
			return nil, ErrNoDeviceCode
		}
	}
	p.tp.Keep = p.Incremental
	nodes, err := p.tp.Parse(text, max(limit-time.Since(start), time.Millisecond))
	if err != nil {
		return nil, err
	}
	f.nodes = nodes
	f.macros = p.Project.Macros
	f.projectClocks = p.Project.Clocks
	f.timingHelpers = p.Project.TimingHelpers
	f.unitDevice = p.Project.UnitDevice
	f.additions = p.Additions
	if bytes.Contains(src, []byte("define")) {
		own, _ := ScanDirectives(src)
		var relevant []Macro
		shared := map[string]bool{}
		for _, m := range SharedMacros(own) {
			shared[m.Name] = true
		}
		for _, m := range own {
			if m.renamesCall() || shared[m.Name] {
				relevant = append(relevant, m)
			}
		}
		if len(relevant) > 0 {
			t := MacroTable{}
			for name, defs := range p.Project.Macros {
				t[name] = defs
			}
			// The file's own definitions replace the headers' (an #undef
			// and #define of the name, or a name the headers never see).
			own := map[string]bool{}
			for _, m := range relevant {
				if !own[m.Name] {
					own[m.Name] = true
					t[m.Name] = nil
				}
				t[m.Name] = append(t[m.Name], m)
			}
			f.macros = t
		}
	}
	f.buildFacts()
	return f, nil
}

// File is a parsed source file and the facts rules need about it.
type File struct {
	preloadsOnce sync.Once
	// clockMacros: what the macros the file sees do with clocks
	// (clockMacroOf).
	clockMacrosOnce sync.Once
	clockMacros     map[string]clockMacro
	// timerClasses: classes whose constructor reads a clock
	// (startingTimerClasses).
	timerClassesOnce sync.Once
	timerClasses     map[string]bool
	// ownTimerClasses: TimerClasses of the file's text, asked by the
	// summary and by startingTimerClasses.
	ownTimerClassesOnce sync.Once
	ownTimerClasses     []knowledge.TimerClass
	preloads            []Preload // Preloads' answer
	// hostOnly: the spans only a build without a GPU compiles
	// (hostOnlyRanges).
	hostOnlyOnce sync.Once
	hostOnly     []Range

	Path  string
	Src   []byte // the original source
	Lines *LineIndex
	// Rewrites is what the pre-pass replaced.
	Rewrites Rewrites

	nodes []syntax.RawNode

	// Functions are the function definitions, in source order.
	Functions []*Function
	// Prototypes are function declarations without a body.
	Prototypes []*Function
	// Calls are all calls, in source order, including calls nested in the
	// arguments of macros such as CUDA_CHECK(cudaMalloc(...)). The inner
	// "call" that carries a <<<>>> launch configuration is not among them,
	// nor the launch itself (it is in Launches).
	Calls []*Call
	// Launches are kernel launches: <<<>>> and the launch APIs.
	Launches []*Launch
	// Variables are variables declared with CUDA memory qualifiers.
	Variables []*Variable

	// macros rename calls spelled through a macro (Call.Spelled).
	macros MacroTable
	// projectClocks are other files' functions that read a host clock;
	// timingHelpers those that time a parameter.
	projectClocks map[string]bool
	timingHelpers map[string]TimingHelper
	// ownClockHelpers are the file's functions that read a host clock
	// once (clockHelpers).
	clockHelpersOnce sync.Once
	ownClockHelpers  map[string]bool
	// stampHelpers and sinceHelpers are the file's functions that read a
	// host clock once into a parameter (`start_timer(t)`), or once to
	// subtract a parameter from (`seconds_since(t)`), by the parameter's
	// index (clockHelpers). stampFields are the fields of the parameter
	// a stamp helper stores into, where it stores into one
	// (`stopwatch_start(sw)` sets sw->begin, `stopwatch_stop(sw)` sw->end).
	stampHelpers, sinceHelpers map[string]int
	stampFields                map[string]string
	// eventHelpers are the file's functions that start or stop a
	// measurement of CUDA events, by name (eventHelper).
	eventHelpers map[string]int
	// classBases: the file's classes and their bases (MethodCalled).
	classBasesOnce sync.Once
	classBases     map[string][]string
	// additions: the team's launch and preload helpers, clocks, timers.
	additions *knowledge.Additions
	// device: DeviceSummaries' answer; unitDevice, ProjectFacts.UnitDevice.
	device, unitDevice []DeviceSummary
	unitWants          []string
	// namespaces are the names of the namespaces the file opens.
	namespaces map[string]bool
	// errorNodes are the outermost ERROR nodes.
	errorNodes []int32
	funcOf     map[int32]*Function
	defsCache  map[*Function]*functionDefs
	// conditions memoizes the compacted text of if statements'
	// conditions, and firstIteration takenOnFirstIteration's answers by
	// statement and branch: the summary asks both for each pair of steps.
	conditions     map[int32]string
	firstIteration map[int32]bool
	// timerDecls and timedRegions memoize timerDeclarations and
	// TimedRegions by function (the summary and several rules ask).
	timerDecls   map[*Function][]*Call
	timedRegions map[*Function][]TimedRegion
	// fileDefsByName indexes file-scope definitions by name (built on
	// first use).
	fileDefsByName map[string][]Def
	macroNames     map[string]bool
	callsByFunc    map[*Function][]*Call
	launchesByFunc map[*Function][]*Launch
	lambdasByFunc  map[*Function]map[string]Node
	// The kernel templates (instantiation.go) and the aliases, classes and
	// namespace-scope variables (ctypes.go) of the file, built on first use.
	templatesOnce, scopeOnce  sync.Once
	templateKernels           map[string][]kernelTemplate
	plainKernels              map[string]bool
	aliases, records, globals map[string][]Node
	// aliasTexts are what every alias of the file, a class's too, stands
	// for as written (AliasText), built on first use.
	aliasTextsOnce sync.Once
	aliasTexts     map[string]string
}

// Root is the translation unit node.
func (f *File) Root() Node {
	if len(f.nodes) == 0 {
		return Node{}
	}
	return Node{f, 0}
}

// Position returns the position of a byte offset.
func (f *File) Position(off int) Position { return f.Lines.Position(off) }

// ErrorCount is the number of outermost ERROR nodes.
func (f *File) ErrorCount() int { return len(f.errorNodes) }

// ErrorBytes is the number of source bytes inside ERROR nodes.
func (f *File) ErrorBytes() int {
	n := 0
	for _, i := range f.errorNodes {
		n += int(f.nodes[i].End - f.nodes[i].Start)
	}
	return n
}

// ErrorRanges are the byte ranges of the outermost ERROR nodes.
func (f *File) ErrorRanges() []Range {
	out := make([]Range, len(f.errorNodes))
	for k, i := range f.errorNodes {
		out[k] = Range{Start: int(f.nodes[i].Start), End: int(f.nodes[i].End)}
	}
	return out
}

// NodesOfKind returns all nodes of the given kinds, in source order.
func (f *File) NodesOfKind(kinds ...string) []Node {
	var out []Node
	for i := range f.nodes {
		k := syntax.SymbolName(f.nodes[i].Symbol)
		for _, want := range kinds {
			if k == want {
				out = append(out, Node{f, int32(i)})
				break
			}
		}
	}
	return out
}

// ExecSpace is where a function runs, from its CUDA qualifiers.
type ExecSpace uint8

const (
	SpaceHost   ExecSpace = 1 << iota // __host__, or no qualifier
	SpaceDevice                       // __device__
	SpaceGlobal                       // __global__: a kernel
)

// Function is a function definition (or, in File.Prototypes, declaration).
type Function struct {
	// Name is the plain name (`f` for ns::Class::f); QualifiedName as written.
	Name, QualifiedName string
	Node                Node // function_definition or declaration
	Declarator          Node // function_declarator
	Body                Node // compound_statement; zero for prototypes
	Params              []Param
	Space               ExecSpace
	Qualifiers          []Qualifier
	// Template is set for function templates.
	Template bool
}

// IsKernel reports whether f is a __global__ function.
func (fn *Function) IsKernel() bool { return fn.Space&SpaceGlobal != 0 }

// Statements are the top-level statements of the body, in order.
func (fn *Function) Statements() []Node { return fn.Body.NamedChildren() }

// Param is a function parameter.
type Param struct {
	Name  string
	Node  Node // parameter_declaration
	Index int
}

// Call is a call expression.
type Call struct {
	// Name is the callee's plain name: cudaMalloc, f for ns::f<T>, m for
	// obj.m; "" when the callee is not a name (a call through (*fp)). A
	// call spelled through a renaming macro has the name the macro
	// expands to, and the written one in Spelled.
	Name    string
	Spelled string
	Callee  Node // the function expression
	Node    Node // the call_expression
	Args    []Node
	// Func is the function the call is in, nil at file scope.
	Func *Function
}

// Arg returns the i-th argument, or the zero Node.
func (c *Call) Arg(i int) Node {
	if i < 0 || i >= len(c.Args) {
		return Node{}
	}
	return c.Args[i]
}

// Launch is a kernel launch.
type Launch struct {
	// Kernel is the launched kernel's plain name; KernelExpr the expression
	// naming it, template arguments included.
	Kernel     string
	KernelExpr Node
	Node       Node   // the launch: the call_expression of k<<<...>>>(...) or of the API
	Config     []Node // grid, block, shared memory, stream: the <<<>>> arguments or the API's
	Stream     Node   // the stream argument, if given
	Args       []Node // the kernel's arguments (for <<<>>>), or the API call's
	API        string // "" for <<<>>>, else the launch function's name
	Func       *Function
	// ViaMacro names the macro of the file the launch is written in, when
	// it is a call of one (KernelExpr is then the macro's name, Config and
	// Args are empty, and KernelKey comes from the macro's body).
	ViaMacro string
	// Own: the launch is a call of a launch helper the configuration
	// names (API is its name; KernelExpr the argument it launches).
	Own bool
	key string
}

// KernelKey identifies the launched kernel: its name with template
// arguments, so that k<float> and k<double> differ.
func (l *Launch) KernelKey() string {
	if l.key != "" {
		return l.key
	}
	return KernelKeyOf(l.KernelExpr)
}

func compactSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// Variable is a variable declared with a CUDA memory qualifier.
type Variable struct {
	Name string
	Node Node
	Kind QualifierKind // QualDevice, QualManaged, QualConstant or QualShared
}

func (f *File) buildFacts() {
	f.funcOf = map[int32]*Function{}
	launchOpen := map[int]*LaunchSyntax{}
	for k := range f.Rewrites.Launches {
		launchOpen[f.Rewrites.Launches[k].Open] = &f.Rewrites.Launches[k]
	}
	configCalls := map[int32]bool{}
	var calls []int32
	launchMacros := map[string]launchMacro{}
	for i := int32(0); i < int32(len(f.nodes)); i++ {
		r := &f.nodes[i]
		if r.Flags&syntax.FlagError != 0 {
			f.errorNodes = append(f.errorNodes, i)
		}
		switch syntax.SymbolName(r.Symbol) {
		case "function_definition":
			f.addFunction(Node{f, i}, false)
		case "declaration", "field_declaration":
			f.addDeclaration(Node{f, i})
		case "call_expression":
			calls = append(calls, i)
		case "preproc_function_def", "preproc_def":
			if m, ok := parseLaunchMacro(Node{f, i}); ok {
				launchMacros[m.name] = m
			}
		}
	}
	// Keep only the outermost ERROR nodes.
	outer := f.errorNodes[:0]
	for _, e := range f.errorNodes {
		if len(outer) == 0 || f.nodes[e].Start >= f.nodes[outer[len(outer)-1]].End || !(Node{f, outer[len(outer)-1]}).Contains(Node{f, e}) {
			outer = append(outer, e)
		}
	}
	f.errorNodes = outer

	for _, i := range calls {
		n := Node{f, i}
		fn := n.ChildByField("function")
		args := n.ChildByField("arguments")
		// k(  cfg  )(args): the pre-pass's launch, a call of a call.
		if fn.Is("call_expression") {
			inner := fn.ChildByField("arguments")
			if ls, ok := launchOpen[inner.Start()]; ok && ls != nil {
				configCalls[fn.i] = true
				l := &Launch{
					KernelExpr: fn.ChildByField("function"),
					Node:       n,
					Config:     inner.NamedChildren(),
					Args:       args.NamedChildren(),
					Func:       f.enclosingFunction(n),
				}
				l.Kernel = l.KernelExpr.Name()
				if len(l.Config) >= 4 {
					l.Stream = l.Config[3]
				}
				f.Launches = append(f.Launches, l)
			}
		}
	}
	launchCalls := map[int32]bool{}
	for _, l := range f.Launches {
		launchCalls[l.Node.i] = true
	}
	for _, i := range calls {
		if configCalls[i] || launchCalls[i] {
			continue
		}
		n := Node{f, i}
		c := &Call{Node: n, Callee: n.ChildByField("function"), Func: f.enclosingFunction(n)}
		c.Name = c.Callee.Name()
		c.Args = n.ChildByField("arguments").NamedChildren()
		f.applyMacros(c)
		f.Calls = append(f.Calls, c)
		if k, ok := knowledge.LaunchAPIs[c.Name]; ok && k < len(c.Args) {
			kernel := kernelOperand(c.Args[k])
			l := &Launch{KernelExpr: kernel, Kernel: kernel.Name(), Node: n, Args: c.Args, API: c.Name, Func: c.Func}
			if s, ok := knowledge.LaunchAPIStream[c.Name]; ok && s < len(c.Args) {
				l.Stream = c.Args[s]
			}
			l.Config = c.Args
			f.Launches = append(f.Launches, l)
		} else if l := f.ownLaunch(c); l != nil {
			f.Launches = append(f.Launches, l)
		}
	}
	f.addHeaderLaunchMacros(launchMacros)
	if len(launchMacros) > 0 {
		f.addMacroLaunches(launchMacros)
	}
	sort.SliceStable(f.Launches, func(a, b int) bool { return f.Launches[a].Node.Start() < f.Launches[b].Node.Start() })
	f.keyLaunches()
}

// LaunchMacroKernel returns the kernel expression a launch macro's body
// launches with <<<>>> (`F` of `F<<<G, B>>>(__VA_ARGS__)`, `k<T>`), and
// whether it launches one.
func LaunchMacroKernel(m Macro) (string, bool) {
	if !m.FunctionLike || !strings.Contains(m.Body, "<<<") {
		return "", false
	}
	k := launchInMacro.FindStringSubmatch(m.Body)
	if k == nil {
		return "", false
	}
	return compactSpace(k[1]), true
}

// addHeaderLaunchMacros adds to macros the launch macros of the headers
// the file includes (its macro table), but those the file defines itself.
func (f *File) addHeaderLaunchMacros(macros map[string]launchMacro) {
	for name, defs := range f.macros {
		if _, own := macros[name]; own || len(defs) != 1 {
			continue
		}
		if kernel, ok := LaunchMacroKernel(defs[0]); ok {
			macros[name] = launchMacro{name: name, params: defs[0].Params, kernel: kernel}
		}
	}
}

// addMacroLaunches adds a launch for each use of a launch macro in a
// function. The use is found by its name, not as a call: `LAUNCH(float,
// p);` parses as a declaration when an argument is a type.
func (f *File) addMacroLaunches(macros map[string]launchMacro) {
	for i := int32(0); i < int32(len(f.nodes)); i++ {
		if k := syntax.SymbolName(f.nodes[i].Symbol); k != "identifier" && k != "type_identifier" {
			continue
		}
		n := Node{f, i}
		m, ok := macros[n.Text()]
		if !ok || n.Ancestor("preproc_function_def", "preproc_def").Valid() || strings.HasPrefix(n.Parent().Kind(), "preproc_") {
			continue // its definition, `#ifdef NAME`, `#undef NAME`
		}
		args, end, ok := []string(nil), n.End(), true
		if !m.objectLike {
			args, end, ok = macroArgs(f.Src, n.End())
		}
		if !ok {
			continue
		}
		stmt := n
		for p := n.Parent(); p.Valid() && !p.Is("compound_statement", "case_statement", "translation_unit"); p = p.Parent() {
			stmt = p
		}
		if stmt.IsError() && stmt.Start() == n.Start() && stmt.End() <= end {
			// `LAUNCH(float, p);` is an ERROR to the grammar only because
			// a macro's argument is a type: explained, not a guess.
			f.nodes[stmt.i].Flags &^= syntax.FlagError
			f.errorNodes = slices.DeleteFunc(f.errorNodes, func(e int32) bool { return e == stmt.i })
		}
		fn := f.enclosingFunction(n)
		if fn == nil {
			continue
		}
		f.Launches = append(f.Launches, m.launchAt(n, stmt, fn, args))
	}
}

// macroArgs reads the argument texts of a macro call whose name ends at
// offset from: `(float, a + b)` gives float and a+b, and the offset after
// the closing parenthesis.
func macroArgs(src []byte, from int) ([]string, int, bool) {
	i := from
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] != '(' {
		return nil, 0, false
	}
	var args []string
	depth, start := 0, i+1
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if a := compactSpace(string(src[start:j])); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args, j + 1, true
			}
		case ',':
			if depth == 1 {
				args = append(args, compactSpace(string(src[start:j])))
				start = j + 1
			}
		case ';':
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// launchMacro is a macro of the file whose body launches a kernel with
// <<<>>>: `#define LAUNCH(T) k<T><<<g, b, 0, s>>>(x)`, or without
// parameters (`#define CALL_SWEEP sweep<kWindow><<<grid, block>>>(...)`,
// defined in the function that uses it). The grammar leaves a macro's
// body unparsed; its uses are launches.
type launchMacro struct {
	name       string
	params     []string
	kernel     string // the kernel expression as written in the body: k<T>
	objectLike bool
}

// continuations blanks a macro body's line continuations.
var continuations = strings.NewReplacer("\\\r\n", " ", "\\\n", " ")

// launchInMacro finds the kernel of a launch in a macro body.
var launchInMacro = regexp.MustCompile(`([A-Za-z_][\w:]*(?:\s*<[^<>;{}()]*>)?)\s*<<<`)

func parseLaunchMacro(def Node) (launchMacro, bool) {
	body := def.ChildByField("value").Text()
	if !strings.Contains(body, "<<<") {
		return launchMacro{}, false
	}
	// A body over several lines: its line continuations are blanks.
	body = continuations.Replace(body)
	m := launchInMacro.FindStringSubmatch(body)
	if m == nil {
		return launchMacro{}, false
	}
	lm := launchMacro{name: def.ChildByField("name").Text(), kernel: compactSpace(m[1]), objectLike: def.Is("preproc_def")}
	for _, p := range def.ChildByField("parameters").NamedChildren() {
		lm.params = append(lm.params, p.Text())
	}
	return lm, true
}

// launchAt is the launch a use of the macro makes: the kernel with the
// use's arguments for the macro's parameters (LAUNCH(float) launches
// k<float>). name is the macro's name where it is used, stmt the statement
// that holds the use.
func (m launchMacro) launchAt(name, stmt Node, fn *Function, args []string) *Launch {
	key := m.kernel
	if len(args) == len(m.params) {
		key = substituteParams(key, m.params, args)
	} else if n := len(m.params); n > 0 && m.params[n-1] == "..." && len(args) >= n-1 {
		key = substituteParams(key, m.params[:n-1], args[:n-1]) // the named ones
	}
	key = compactSpace(strings.TrimPrefix(key, "::"))
	kernel := key
	if i := strings.IndexByte(kernel, '<'); i >= 0 {
		kernel = kernel[:i]
	}
	if i := strings.LastIndex(kernel, "::"); i >= 0 {
		kernel = kernel[i+2:]
	}
	return &Launch{Kernel: kernel, KernelExpr: name, Node: stmt, Func: fn, ViaMacro: m.name, key: key}
}

// VolatileAccessMacro reports whether name is a macro visible to the file
// that accesses its first argument through a volatile lvalue (READ_ONCE,
// ACCESS_ONCE), and whether it writes it (WRITE_ONCE).
func (f *File) VolatileAccessMacro(name string) (write, ok bool) {
	if len(f.macros) == 0 {
		return false, false
	}
	return f.macros.VolatileAccess(name)
}

// applyMacros names a call spelled through a macro after what the macro
// expands to: gpuMalloc(...) with `#define gpuMalloc cudaMalloc` is a call
// of cudaMalloc, as is GPU_API(Malloc)(...) with `#define GPU_API(x) cuda##x`.
func (f *File) applyMacros(c *Call) {
	if len(f.macros) == 0 {
		return
	}
	if c.Name != "" {
		if to, ok := f.macros.calleeName(c.Name, 0); ok {
			c.Spelled, c.Name = c.Name, to
		}
		return
	}
	if inner := c.Callee.Unparen(); inner.Is("call_expression") {
		m := inner.ChildByField("function").Name()
		var args []string
		for _, a := range inner.ChildByField("arguments").NamedChildren() {
			args = append(args, a.Text())
		}
		if to, ok := f.macros.pastedName(m, args, 0); ok {
			c.Spelled, c.Name = compactSpace(inner.Text()), to
		}
	}
}

// kernelOperand strips what wraps a kernel passed to a launch API:
// (void*)k, reinterpret_cast<const void*>(&k<T>), &k.
// ArgumentKernelKey returns the key of the kernel an argument names
// (scale<float>, &k, (kernel<256>)), through a local the function
// initializes with one (`auto *f = &k<B>;`), or "".
func (f *File) ArgumentKernelKey(arg Node) string {
	x := kernelOperand(arg)
	if x.Is("identifier") {
		defs := f.ReachingDefs(x)
		if len(defs) == 1 && defs[0].Op == DefInit && defs[0].Value.Valid() {
			if v := kernelOperand(defs[0].Value); v.Is("identifier", "template_function", "qualified_identifier") {
				x = v
			}
		}
	}
	if !x.Is("identifier", "template_function", "qualified_identifier") {
		return ""
	}
	return KernelKeyOf(x)
}

// KernelParam returns the parameter of fn whose kernel launch l launches:
// the parameter itself (k<<<g, b>>>(...), cudaLaunchKernel(kernel, ...)),
// or a local initialized from it, through casts (`auto k =
// reinterpret_cast<const void *>(kernel);`).
func (f *File) KernelParam(fn *Function, l *Launch) (int, bool) {
	return f.KernelParamOf(fn, l.KernelExpr)
}

// KernelParamOf is KernelParam for any kernel operand: the parameter of fn
// that expr names, directly or through a local it initializes (`auto p =
// reinterpret_cast<void (*)()>(kernel)`).
func (f *File) KernelParamOf(fn *Function, expr Node) (int, bool) {
	x := kernelOperand(expr)
	for hop := 0; hop < 3 && x.Is("identifier"); hop++ {
		for _, prm := range fn.Params {
			if prm.Name == x.Text() {
				return prm.Index, true
			}
		}
		defs := f.ReachingDefs(x)
		if len(defs) != 1 || defs[0].Op != DefInit || !defs[0].Value.Valid() {
			break
		}
		x = kernelOperand(uncast(defs[0].Value))
	}
	return 0, false
}

// uncast returns what a cast expression converts: (T)v, static_cast<T>(v),
// reinterpret_cast<T>(v), const_cast<T>(v); n itself otherwise.
func uncast(n Node) Node {
	for {
		n = n.Unparen()
		switch {
		case n.Is("cast_expression"):
			n = n.ChildByField("value")
		case n.Is("call_expression") && castNames[n.ChildByField("function").Name()]:
			args := n.ChildByField("arguments").NamedChildren()
			if len(args) != 1 {
				return n
			}
			n = args[0]
		default:
			return n
		}
	}
}

func kernelOperand(n Node) Node {
	for {
		n = n.Unparen()
		if n.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(n.Text()), "&") {
			n = n.ChildByField("argument")
			continue
		}
		return n
	}
}

// FunctionOf returns the function definition n lies in, or nil at file
// scope.
func (f *File) FunctionOf(n Node) *Function { return f.enclosingFunction(n) }

func (f *File) enclosingFunction(n Node) *Function {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if fn, ok := f.funcOf[p.i]; ok {
			return fn
		}
	}
	return nil
}

// qualifiersBefore returns the recorded qualifiers in front of the
// declaration d: between the end of its previous sibling (or its parent's
// start) and the start of its declarator.
func (f *File) qualifiersBefore(d Node, declarator Node) []Qualifier {
	from := 0
	if parent := d.raw().Parent; parent >= 0 {
		// In pre-order the node before d is its parent or lies inside its
		// previous sibling.
		from = int(f.nodes[parent].Start)
		if f.nodes[parent].Parent < 0 {
			from = 0 // the root starts at its first token, after blanked qualifiers
		}
		prev := d.i - 1
		for prev > parent && f.nodes[prev].Parent != parent {
			prev = f.nodes[prev].Parent
		}
		if prev > parent {
			from = int(f.nodes[prev].End)
		}
	}
	to := declarator.Start()
	if !declarator.Valid() {
		to = d.End()
	}
	q := f.Rewrites.Qualifiers
	lo := sort.Search(len(q), func(i int) bool { return q[i].Start >= from })
	hi := lo
	for hi < len(q) && q[hi].Start < to {
		hi++
	}
	return q[lo:hi]
}

func spaceOf(qs []Qualifier) ExecSpace {
	var s ExecSpace
	for _, q := range qs {
		switch q.Kind {
		case QualGlobal:
			s |= SpaceGlobal
		case QualDevice:
			s |= SpaceDevice
		case QualHost:
			s |= SpaceHost
		}
	}
	if s == 0 {
		s = SpaceHost
	}
	return s
}

// functionDeclarator finds the function_declarator inside a declarator,
// through pointer, reference and attributed declarators.
func functionDeclarator(d Node) Node {
	for d.Valid() {
		switch d.Kind() {
		case "function_declarator":
			return d
		case "pointer_declarator", "reference_declarator", "attributed_declarator", "init_declarator":
			d = d.ChildByField("declarator")
			if !d.Valid() {
				return Node{}
			}
		default:
			return Node{}
		}
	}
	return Node{}
}

func (f *File) addFunction(n Node, prototype bool) {
	decl := functionDeclarator(n.ChildByField("declarator"))
	if !decl.Valid() {
		return
	}
	name := decl.ChildByField("declarator")
	fn := &Function{
		Name:          name.Name(),
		QualifiedName: compactSpace(name.Text()),
		Node:          n,
		Declarator:    decl,
		Template:      n.Parent().Is("template_declaration"),
	}
	if fn.Name == "" {
		fn.Name = fn.QualifiedName
	}
	fn.Qualifiers = f.qualifiersBefore(n, n.ChildByField("declarator"))
	fn.Space = spaceOf(fn.Qualifiers)
	if fn.Space&SpaceGlobal != 0 && n.ChildByField("type").Text() != "void" {
		// Kernels return void: a macro guessed to mean __global__ from its
		// name (MY_KERNEL_API) does not make this function one.
		fn.Space &^= SpaceGlobal
		if fn.Space == 0 {
			fn.Space = SpaceHost
		}
	}
	for k, p := range decl.ChildByField("parameters").NamedChildren() {
		if !p.Is("parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration") {
			continue
		}
		fn.Params = append(fn.Params, Param{Name: declaredName(p.ChildByField("declarator")), Node: p, Index: k})
	}
	if prototype {
		f.Prototypes = append(f.Prototypes, fn)
		return
	}
	fn.Body = n.ChildByField("body")
	f.Functions = append(f.Functions, fn)
	f.funcOf[n.i] = fn
}

func (f *File) addDeclaration(n Node) {
	for _, d := range n.ChildrenByField("declarator") {
		if functionDeclarator(d).Valid() {
			f.addFunction(n, true)
			return
		}
	}
	qs := f.qualifiersBefore(n, n.ChildByField("declarator"))
	kind := QualifierKind(0)
	for _, q := range qs {
		switch q.Kind {
		case QualManaged, QualConstant, QualShared:
			kind = q.Kind
		case QualDevice:
			if kind == 0 {
				kind = QualDevice
			}
		}
	}
	if kind == 0 {
		return
	}
	for _, d := range n.ChildrenByField("declarator") {
		f.Variables = append(f.Variables, &Variable{Name: declaredName(d), Node: d, Kind: kind})
	}
}

// declaredName returns the name a declarator declares: x for `*x`, `x[4]`,
// `&x`, `x = 1`.
func declaredName(d Node) string {
	for d.Valid() {
		switch d.Kind() {
		case "identifier", "field_identifier":
			return d.Text()
		case "pointer_declarator", "reference_declarator", "array_declarator", "init_declarator",
			"attributed_declarator", "function_declarator", "parenthesized_declarator":
			next := d.ChildByField("declarator")
			if !next.Valid() {
				next = firstNamed(d)
			}
			d = next
		default:
			return d.Name()
		}
	}
	return ""
}

// FunctionNamed returns the first function defined in the file with the
// plain name, or nil.
func (f *File) FunctionNamed(name string) *Function {
	for _, fn := range f.Functions {
		if fn.Name == name {
			return fn
		}
	}
	return nil
}

// CallsTo returns the calls whose callee has one of the plain names.
func (f *File) CallsTo(names ...string) []*Call {
	var out []*Call
	for _, c := range f.Calls {
		for _, n := range names {
			if c.Name == n {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// CallsIn returns the calls in fn (nil: at file scope), in source order.
func (f *File) CallsIn(fn *Function) []*Call {
	if f.callsByFunc == nil {
		f.callsByFunc = map[*Function][]*Call{}
		for _, c := range f.Calls {
			f.callsByFunc[c.Func] = append(f.callsByFunc[c.Func], c)
		}
	}
	return f.callsByFunc[fn]
}

// LaunchesIn returns the kernel launches in fn, in source order.
func (f *File) LaunchesIn(fn *Function) []*Launch {
	if f.launchesByFunc == nil {
		f.launchesByFunc = map[*Function][]*Launch{}
		for _, l := range f.Launches {
			f.launchesByFunc[l.Func] = append(f.launchesByFunc[l.Func], l)
		}
	}
	return f.launchesByFunc[fn]
}

// LambdaVariables returns the lambdas fn binds to names
// (`auto load = [&] { ... };`), by name.
func (f *File) LambdaVariables(fn *Function) map[string]Node {
	if fn == nil {
		return nil
	}
	if f.lambdasByFunc == nil {
		f.lambdasByFunc = map[*Function]map[string]Node{}
	}
	if m, ok := f.lambdasByFunc[fn]; ok {
		return m
	}
	m := map[string]Node{}
	fn.Body.Descendants(func(n Node) bool {
		if n.Is("init_declarator") {
			if v := n.ChildByField("value").Unparen(); v.Is("lambda_expression") {
				m[n.ChildByField("declarator").Name()] = v
			}
		}
		return true
	})
	f.lambdasByFunc[fn] = m
	return m
}

// LambdaVariable returns the lambda that a use of a variable in fn (the
// identifier use) holds: the one initializing the nearest declaration of
// the name in scope before the use (two blocks of one function may each
// declare a lambda `run`); the invalid node when that declaration holds
// no lambda, or there is none.
func (f *File) LambdaVariable(fn *Function, use Node) Node {
	if fn == nil || !use.Valid() {
		return Node{}
	}
	name := use.Text()
	if _, ok := f.LambdaVariables(fn)[name]; !ok {
		return Node{} // no lambda of the name at all
	}
	var best Node
	fn.Body.Descendants(func(n Node) bool {
		if n.Start() >= use.Start() {
			return false
		}
		if n.Is("init_declarator") && n.ChildByField("declarator").Name() == name && n.Parent().Parent().Contains(use) {
			best = n.ChildByField("value").Unparen()
		}
		return true
	})
	if !best.Is("lambda_expression") {
		return Node{}
	}
	return best
}

// DeclaredName returns the name a declarator declares: x for `*x`, `x[4]`,
// `&x`, `x = 1`.
func DeclaredName(d Node) string { return declaredName(d) }

// MemoryBytes is about what the parsed file holds in memory: its source
// and its nodes.
func (f *File) MemoryBytes() int {
	return len(f.Src) + len(f.nodes)*int(unsafe.Sizeof(syntax.RawNode{}))
}

// ParsedText is what a parse produced (the text, what the pre-pass
// rewrote, the tree), without the facts built from it: a file kept
// between two checks costs its source and nodes only, where a File also
// holds its calls, functions and memoized answers (twice that again).
// File builds the facts again, without parsing.
type ParsedText struct {
	path     string
	src      []byte
	lines    *LineIndex
	rewrites Rewrites
	nodes    []syntax.RawNode
	macros   MacroTable
}

// Parsed returns f's parse, for File to build again.
func (f *File) Parsed() *ParsedText {
	return &ParsedText{path: f.Path, src: f.Src, lines: f.Lines, rewrites: f.Rewrites, nodes: f.nodes, macros: f.macros}
}

// MemoryBytes is about what the parse holds in memory.
func (t *ParsedText) MemoryBytes() int {
	return len(t.src) + len(t.nodes)*int(unsafe.Sizeof(syntax.RawNode{}))
}

// File builds the file's facts as a parse with a Parser of these project
// facts and Additions would, but that the header macros stay those of the
// first parse (they are applied while parsing: a file whose macros change
// is parsed again).
func (t *ParsedText) File(project ProjectFacts, additions *knowledge.Additions) *File {
	f := &File{Path: t.path, Src: t.src, Lines: t.lines, Rewrites: t.rewrites, nodes: t.nodes, macros: t.macros, projectClocks: project.Clocks, timingHelpers: project.TimingHelpers, unitDevice: project.UnitDevice, additions: additions}
	f.buildFacts()
	return f
}
