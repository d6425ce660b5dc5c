package cudaparse

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/knowledge"
)

// A summary without a parse, for the functions a project's files call
// through another file: what kernels they launch or preload, and what they
// call. Following a launcher into a template library's headers with
// tree-sitter cost more than the whole per-file check; the body of a
// launcher, found by brace matching, says what a caller needs to know.
// It gives no "on the way" relations (a lexical summary's calls have no
// Before), so a function summarized this way lends what it loads, not
// what it loads before calling others.

// LexicalSummary summarizes the functions of src named in want (all when
// want is nil) from their text alone, with the team's additions to the
// tables (nil: none).
func LexicalSummary(path string, src []byte, want map[string]bool, additions *knowledge.Additions) *FileSummary {
	return LexicalSummaryWithTimers(path, src, want, additions, TimerClasses(src, additions))
}

// LexicalSummaryWithTimers is LexicalSummary for a caller that knows the
// file's timer classes already (what TimerClasses(src, additions) returns).
func LexicalSummaryWithTimers(path string, src []byte, want map[string]bool, additions *knowledge.Additions, timers []knowledge.TimerClass) *FileSummary {
	s := &FileSummary{Path: path, Timers: timers}
	lines := syntax.NewLineIndex(src)
	mayHoldClasses := bytes.Contains(src, []byte("class")) || bytes.Contains(src, []byte("struct"))
	var classes []classBody
	lexedClasses := false
	var hostOnly []Range    // spans built only without a GPU, read once
	var clocks [][]byte     // the host clock literals the file spells, found once
	var timerCalls [][]byte // and the timer method calls
	scannedBuilds := false
	EachName(src, func(name []byte, def bool) {
		if !def || want != nil && !want[string(name)] {
			return
		}
		at := cap(src) - cap(name) // name is a slice of src
		open := at + len(name)
		for open < len(src) && src[open] != '(' {
			open++
		}
		start := bodyAfter(src, open)
		if start < 0 {
			return
		}
		end := matchingBrace(src, start)
		fs := FunctionSummary{
			Name:    string(name),
			Arity:   -1,
			Params:  int32(lexicalArity(src[open:start])),
			Line:    int32(lines.Position(at).Line),
			EndLine: int32(lines.Position(end - 1).Line),
			Local:   staticBefore(src, at),
			Member:  qualifiedBefore(src, at),
		}
		if fs.Member {
			fs.Class = classBefore(src, at)
		} else if mayHoldClasses {
			// A method defined in its class's body: plain to the
			// resolution of plain calls, as before, but known as the
			// class's for method calls.
			if !lexedClasses {
				classes, lexedClasses = classBodies(src), true
			}
			fs.Class = enclosingClass(classes, at)
		}
		body := src[start:end]
		if !scannedBuilds {
			// A library launch or a call there runs no kernel of a GPU
			// build, as File.Summary has it.
			hostOnly = hostOnlyRangesOf(src)
			scannedBuilds = true
		}
		fs.Steps = withoutParamKernels(lexicalSteps(body, lines, start, additions, path, hostOnly, fs.Class, functionTemplateParams(src, at, src[open:start])), src[open:start], body)
		clockReads := 0
		if clocks == nil {
			clocks = spelledIn(src, hostClockLiterals)
			timerCalls = spelledIn(src, timerMethodLiterals)
		}
		clockReads += readsInOneBuild(body, clocks)
		clockReads += ownClockReads(body, additions)
		fs.ReadsClock = clockReads == 1
		events := bytes.Count(body, eventRecordSpelling)
		fs.Timed = clockReads >= 2 || events >= 2 || len(timerCalls) > 0 && timerObjectReads(body, timerCalls) >= 2
		if fs.Timed && (clockReads >= 2 || events >= 2) {
			param, clock := lexicalTimingHelper(src[open:start], body, clocks)
			fs.TimesParam, fs.TimesClock = int32(param), clock
		}
		s.Functions = append(s.Functions, fs)
	})
	markVariants(s.Functions, src, lines)
	markTimedByOwnHelpers(s.Functions)
	s.Functions = exactFunctions(s.Functions)
	return s
}

// readsInOneBuild counts the spellings in body as one build compiles it:
// the branches of a preprocessor conditional are alternatives, of which
// the one holding the most counts (`#ifdef WIN32 QueryPerformanceCounter
// #else gettimeofday #endif` is one clock read, not two).
func readsInOneBuild(body []byte, spellings [][]byte) int {
	count := func(b []byte) int {
		n := 0
		for _, sp := range spellings {
			n += bytes.Count(b, sp)
		}
		return n
	}
	if !bytes.Contains(body, []byte("#")) {
		return count(body)
	}
	var c buildCount
	for _, line := range bytes.Split(body, []byte("\n")) {
		directive := bytes.TrimLeft(line, " \t")
		if len(directive) == 0 || directive[0] != '#' {
			c.add(count(line))
			continue
		}
		switch syntax.DirectiveName(directive) {
		case "if", "ifdef", "ifndef":
			c.groups = append(c.groups, []int{0})
		case "else", "elif", "elifdef", "elifndef":
			if len(c.groups) > 0 {
				c.groups[len(c.groups)-1] = append(c.groups[len(c.groups)-1], 0)
			}
		case "endif":
			c.close()
		}
	}
	for len(c.groups) > 0 { // unterminated: what was seen counts
		c.close()
	}
	return c.total
}

// buildCount counts for readsInOneBuild: groups holds, for each open
// conditional, the count of each of its branches so far; total what lies
// outside every one.
type buildCount struct {
	groups [][]int
	total  int
}

// add counts n where the text is now: in the open branch, or outside.
func (c *buildCount) add(n int) {
	if len(c.groups) == 0 {
		c.total += n
		return
	}
	g := c.groups[len(c.groups)-1]
	g[len(g)-1] += n
}

// close ends the innermost conditional: its branch holding the most counts.
func (c *buildCount) close() {
	if len(c.groups) == 0 {
		return
	}
	most := slices.Max(c.groups[len(c.groups)-1])
	c.groups = c.groups[:len(c.groups)-1]
	c.add(most)
}

// markTimedByOwnHelpers sets Timed on the functions that call the file's
// own clock helpers (free functions that read a clock once and measure
// nothing) twice or more, as File.Summary has them from the parse:
// `stopwatch_start(&sw); lud_cuda(m, n); stopwatch_stop(&sw);` measures
// with the file's stopwatch_start and stopwatch_stop.
func markTimedByOwnHelpers(fns []FunctionSummary) {
	helpers := map[string]bool{}
	for k := range fns {
		if fns[k].ReadsClock && !fns[k].Timed && !fns[k].Member {
			helpers[fns[k].Name] = true
		}
	}
	if len(helpers) == 0 {
		return
	}
	for k := range fns {
		fn := &fns[k]
		if fn.Timed || helpers[fn.Name] {
			continue
		}
		reads := 0
		for _, st := range fn.Steps {
			if st.Kind == StepCall && !st.Method && helpers[st.Callee] {
				reads++
			}
		}
		fn.Timed = reads >= 2
	}
}

// markVariants sets Variant on the functions defined again with the same
// name and class after an #else or #elif between the two definitions.
func markVariants(fns []FunctionSummary, src []byte, lines *LineIndex) {
	if len(fns) < 2 || !bytes.Contains(src, []byte("#el")) {
		return
	}
	type key struct{ name, class string }
	last := map[key]int{}
	for k := range fns {
		id := key{fns[k].Name, fns[k].Class}
		if j, ok := last[id]; ok {
			from, to := lines.Offset(Position{Line: int(fns[j].EndLine)}), lines.Offset(Position{Line: int(fns[k].Line)})
			if from < to && elseBetween(src[from:to]) {
				fns[j].Variant, fns[k].Variant = true, true
			}
		}
		last[id] = k
	}
}

// elseBetween reports whether b holds an #else or #elif directive.
func elseBetween(b []byte) bool {
	for i := 0; ; {
		k := bytes.Index(b[i:], []byte("#el"))
		if k < 0 {
			return false
		}
		at := i + k
		j := at
		for j > 0 && (b[j-1] == ' ' || b[j-1] == '\t') {
			j--
		}
		if j == 0 || b[j-1] == '\n' {
			return true
		}
		i = at + 3
	}
}

// lexicalArity returns the number of parameters of a definition (head:
// from its parameter list's parenthesis to its body), as the parse counts
// them: overloads of other arities are told apart by it. -1 when the text
// shows a call may pass fewer (default arguments) or more (a variadic
// list).
func lexicalArity(head []byte) int {
	params := splitTopLevel(strings.Join(callArguments(head, 0), ","))
	if len(params) == 1 {
		if p := strings.TrimSpace(params[0]); p == "" || p == "void" {
			return 0
		}
	}
	for _, p := range params {
		if strings.Contains(p, "=") || strings.Contains(p, "...") {
			return -1
		}
	}
	return len(params)
}

// eventRecordSpelling is how the text spells a CUDA event record
// (cudaEventRecord, cuEventRecord, a portability layer's gpuEventRecord).
var eventRecordSpelling = []byte("EventRecord")

// lexicalTimingHelper returns the 1-based index of the parameter a
// function (its text from the parameter list's parenthesis, and its body)
// runs between two clock reads (lexicalTimedParam), and the clock: CUDA
// events when two records bound it, a host clock otherwise.
func lexicalTimingHelper(head, body []byte, clocks [][]byte) (int, ClockKind) {
	params := lexicalParams(head, nil)
	if len(params) == 0 {
		return 0, ClockNone
	}
	offsets := func(spellings ...[]byte) []int {
		var out []int
		for _, s := range spellings {
			for i := 0; ; {
				k := bytes.Index(body[i:], s)
				if k < 0 {
					break
				}
				out = append(out, i+k)
				i += k + len(s)
			}
		}
		slices.Sort(out)
		return out
	}
	if k := lexicalTimedParam(params, body, offsets(eventRecordSpelling)); k > 0 {
		return k, ClockEvent
	}
	if k := lexicalTimedParam(params, body, offsets(clocks...)); k > 0 {
		return k, ClockHost
	}
	return 0, ClockNone
}

// lexicalSteps lists what a function body launches, preloads and calls.
// class is the class the function is a method of ("" for none): a call
// through `this->` is a method call of that class, as a parse has it.
// params are the function's parameters (lexicalParams): a launch for the
// type of one, and calls passing them on, say so (typedlaunch.go).
func lexicalSteps(body []byte, lines *LineIndex, offset int, additions *knowledge.Additions, path string, hostOnly []Range, class string, params []lexicalParam) []SummaryStep {
	var steps []SummaryStep
	line := func(i int) int { return lines.Position(offset + i).Line }
	// <<< launches: the kernel expression before them.
	for _, spelling := range [][]byte{[]byte("<<<"), []byte("<< <")} {
		for i := 0; ; {
			k := bytes.Index(body[i:], spelling)
			if k < 0 {
				break
			}
			pos := i + k
			if key := kernelBefore(body, pos); key != "" {
				if k := lexicalTypedLaunch(body, pos, key, params); k >= 0 {
					steps = append(steps, SummaryStep{Kind: StepLaunchTyped, Keys: []string{key}, Param: k, Line: line(pos)})
				} else {
					steps = append(steps, SummaryStep{Kind: StepLaunch, Keys: []string{key}, Line: line(pos)})
				}
			}
			i = pos + len(spelling)
		}
	}
	EachName(body, func(name []byte, def bool) {
		if def {
			return
		}
		n := string(name)
		pos := cap(body) - cap(name)
		args := callArguments(body, pos+len(name))
		libraryKey := ""
		if libraryLaunchName(n) && !inRanges(hostOnly, offset+pos) {
			libraryKey = lexicalLibraryLaunch(body, pos, n, path, line(pos))
		}
		switch {
		case IsDeviceSwitch(n):
			steps = append(steps, SummaryStep{Kind: StepDeviceSwitch, Line: line(pos)})
		case isLaunchAPI(n) || isPreloadAPI(n):
			if st, ok := lexicalAPIStep(body, n, args); ok {
				st.Line = line(pos)
				steps = append(steps, st)
			}
		case libraryKey != "":
			steps = append(steps, SummaryStep{Kind: StepLaunch, Keys: []string{libraryKey}, Line: line(pos)})
		case isCUDAName(n) || n == "dim3":
		case additions != nil && ownLexicalStep(additions, body, pos, n, args, &steps, line(pos)):
		case inRanges(hostOnly, offset+pos):
		default:
			steps = append(steps, lexicalCall(body, pos, n, args, class, params, line(pos)))
		}
	})
	sortSteps(steps)
	// Without append's slack: the link step keeps thousands of these.
	return append(make([]SummaryStep, 0, len(steps)), steps...)
}

// lexicalCall is the step of a call of n at pos in body (args: its
// arguments when they follow the name) in a method of class (or "") with
// params (lexicalParams).
func lexicalCall(body []byte, pos int, n string, args []string, class string, params []lexicalParam, line int) SummaryStep {
	st := SummaryStep{Kind: StepCall, Callee: n, Arity: -1, Line: line, Method: methodBefore(body, pos)}
	if class != "" && thisBefore(body, pos) {
		// this->f(), this->template f<4>(): a method of the class.
		st.Method, st.Qualifier = true, class
	}
	if args == nil && params != nil {
		// f<T, 4>(a, b): the arguments after the template's.
		if end, ok := skipTemplateArgs(body, skipSpaces(body, pos+len(n))); ok {
			args = callArguments(body, end)
		}
	}
	st.ArgParams, st.Keys = lexicalArgs(args, params)
	return st
}

// libraryLaunchName reports whether n names a portability layer's launch
// (parallel_for, ParallelFor, forall...), before its qualifier is read.
func libraryLaunchName(n string) bool {
	for i := range knowledge.LibraryLaunchers {
		if knowledge.LibraryLaunchers[i].Names[n] {
			return true
		}
	}
	return false
}

// lexicalLibraryLaunch is File.libraryLaunch from the text: the key of the
// kernel the call of n at pos in body launches, or "".
func lexicalLibraryLaunch(body []byte, pos int, n, path string, line int) string {
	q := qualifierText(body, pos)
	if q == "" {
		return ""
	}
	// The template arguments and the arguments but the lambdas.
	i := pos + len(n)
	for i < len(body) && isBlank(body[i]) {
		i++
	}
	call := q + "::" + n
	end, ok := skipTemplateArgs(body, i)
	if !ok {
		return ""
	}
	call += string(body[i:end])
	i = end
	for _, a := range callArguments(body, i) {
		if !isLambdaText(a) {
			call += " " + a
		}
	}
	l := knowledge.LibraryLaunchAt(q, n, call)
	if l == nil {
		return ""
	}
	return knowledge.LibraryLaunchKey(l, n, path, line)
}

// qualifierText returns the namespaces written before the name at pos
// (`Kokkos` of `Kokkos::parallel_for`, `amrex::Gpu` of a longer one), or
// "".
func qualifierText(b []byte, pos int) string {
	return strings.TrimSuffix(string(b[qualifierStart(b, pos):pos]), "::")
}

// qualifierStart returns where the qualifier written before the name at
// pos begins (`ns::inner::` of ns::inner::f), pos when there is none.
func qualifierStart(b []byte, pos int) int {
	i := pos
	for i >= 2 && b[i-1] == ':' && b[i-2] == ':' {
		j := i - 2
		for j > 0 && syntax.IsIdentByte(b[j-1]) {
			j--
		}
		if j == i-2 {
			break
		}
		i = j
	}
	return i
}

// lexicalAPIStep is the step of a call of a launch or preload API n with
// the arguments args: a launch of the kernel it names (runtime launches
// only: a CUfunction was loaded by cuModuleGetFunction), a preload of it,
// or a preload loop over a kernel table.
func lexicalAPIStep(body []byte, n string, args []string) (SummaryStep, bool) {
	if isLaunchAPI(n) {
		k := knowledge.LaunchAPIs[n]
		if !strings.HasPrefix(n, "cuda") || k >= len(args) {
			return SummaryStep{}, false
		}
		key := lexicalKernel(args[k])
		return SummaryStep{Kind: StepLaunch, Keys: []string{key}}, key != ""
	}
	k, ok := knowledge.PreloadAPIs[n]
	if !ok || k >= len(args) {
		return SummaryStep{}, false
	}
	if strings.HasPrefix(n, "cuda") && tableElement(body, args[k]) {
		return SummaryStep{Kind: StepPreloadAll}, true
	}
	key := lexicalKernel(args[k])
	return SummaryStep{Kind: StepPreload, Keys: []string{key}}, key != ""
}

func isLaunchAPI(n string) bool { _, ok := knowledge.LaunchAPIs[n]; return ok }

func isPreloadAPI(n string) bool { _, ok := knowledge.PreloadAPIs[n]; return ok }

// sortSteps orders steps by line (stable: launches found first stay first
// on a line).
func sortSteps(steps []SummaryStep) {
	for i := 1; i < len(steps); i++ {
		for j := i; j > 0 && steps[j].Line < steps[j-1].Line; j-- {
			steps[j], steps[j-1] = steps[j-1], steps[j]
		}
	}
}

// kernelBefore returns the kernel expression that ends before the <<< at
// pos: a name, qualified or not, with template arguments (`ns::k<T, 4>`),
// without spaces; "" when there is none.
func kernelBefore(b []byte, pos int) string {
	i := pos
	for i > 0 && isBlank(b[i-1]) {
		i--
	}
	end := i
	if i > 0 && b[i-1] == '>' { // template arguments
		depth := 0
		for i > 0 {
			i--
			if b[i] == '>' {
				depth++
			} else if b[i] == '<' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		for i > 0 && isBlank(b[i-1]) {
			i--
		}
	}
	for i > 0 && (syntax.IsIdentByte(b[i-1]) || b[i-1] == ':') {
		i--
	}
	key := compactSpace(string(b[i:end]))
	key = strings.TrimPrefix(key, "::")
	if key == "" || !syntax.IsIdentStart(key[0]) {
		return ""
	}
	return key
}

func isBlank(c byte) bool { return syntax.IsSpace(c) || c == '\n' }

// callArguments splits the argument list that opens after pos (blanks,
// then '(') at top-level commas.
func callArguments(b []byte, pos int) []string {
	for pos < len(b) && isBlank(b[pos]) {
		pos++
	}
	if pos >= len(b) || b[pos] != '(' {
		return nil
	}
	var args []string
	depth, start := 0, pos+1
	for i := pos; i < len(b); i++ {
		switch b[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				if a := strings.TrimSpace(string(b[start:i])); a != "" || len(args) > 0 {
					args = append(args, a)
				}
				return args
			}
		case ',':
			if depth == 1 {
				args = append(args, strings.TrimSpace(string(b[start:i])))
				start = i + 1
			}
		case '"', '\'':
			i = syntax.SkipQuoted(b, i, b[i]) - 1
		}
	}
	return args
}

// lexicalKernel returns the kernel an argument names: `(void*)k`,
// `reinterpret_cast<const void*>(&k<T>)`, `&k`, `k`.
func lexicalKernel(arg string) string {
	arg = strings.TrimSpace(arg)
	if i := strings.LastIndex(arg, ")"); i >= 0 && strings.HasPrefix(arg, "(") {
		arg = arg[i+1:] // a C cast
	}
	if strings.HasPrefix(arg, "reinterpret_cast") || strings.HasPrefix(arg, "static_cast") {
		if i := strings.Index(arg, ">("); i >= 0 && strings.HasSuffix(arg, ")") {
			arg = arg[i+2 : len(arg)-1]
		}
	}
	arg = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(arg), "&"))
	key := strings.TrimPrefix(compactSpace(arg), "::")
	if key == "" || !syntax.IsIdentStart(key[0]) || strings.ContainsAny(key, "()[].-") {
		return ""
	}
	return key
}

// methodBefore reports whether the name at pos is called as obj.f or p->f.
func methodBefore(b []byte, pos int) bool {
	i := skipBlanksBack(b, pos)
	return i > 0 && b[i-1] == '.' || i > 1 && b[i-2] == '-' && b[i-1] == '>'
}

// beforeTemplateKeyword returns where the blanks before the name at pos
// begin, past a `template` keyword (`this->template run<4>(op)`).
func beforeTemplateKeyword(b []byte, pos int) int {
	i := skipBlanksBack(b, pos)
	if k := len("template"); i >= k && string(b[i-k:i]) == "template" && (i == k || !syntax.IsIdentByte(b[i-k-1])) {
		i = skipBlanksBack(b, i-k)
	}
	return i
}

// thisBefore reports whether the method name at pos is called through
// `this->`.
func thisBefore(b []byte, pos int) bool {
	i := beforeTemplateKeyword(b, pos)
	if i < 2 || b[i-2] != '-' || b[i-1] != '>' {
		return false
	}
	i = skipBlanksBack(b, i-2)
	return i >= 4 && string(b[i-4:i]) == "this" && (i == 4 || !syntax.IsIdentByte(b[i-5]))
}

// staticBefore reports whether `static` precedes the declaration of the
// name at pos on its line (a file-local function).
func staticBefore(src []byte, pos int) bool {
	start := bytes.LastIndexByte(src[:pos], '\n') + 1
	return bytes.Contains(src[start:pos], []byte("static "))
}

// qualifiedBefore reports whether the name at pos is written C::f (taken
// for a method defined out of line; a namespace qualification reads the
// same and is rare in definitions).
func qualifiedBefore(src []byte, pos int) bool {
	return pos >= 2 && src[pos-1] == ':' && src[pos-2] == ':'
}

// tableElement reports whether a preload's kernel argument is an element
// of a table: a subscript (`kernels[i]`) or the variable of a range-for
// over one (`for (auto k : kernels)`), as File.Preloads judges with a parse.
func tableElement(body []byte, arg string) bool {
	arg = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(arg), "(const void *)"))
	if strings.Contains(arg, "[") {
		return true
	}
	name := lexicalKernel(arg)
	if name == "" || !isIdentifier(name) {
		return false
	}
	return rangeForVar(body, name) || subscriptCopy(body, name)
}

// subscriptCopy reports whether body sets name from an element of an
// array: `void *fn = kernels[k];`.
func subscriptCopy(body []byte, name string) bool {
	for i := 0; ; {
		k := bytes.Index(body[i:], []byte(name))
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(name)
		i = end
		if start > 0 && syntax.IsIdentByte(body[start-1]) || end < len(body) && syntax.IsIdentByte(body[end]) {
			continue
		}
		j := end
		for j < len(body) && isBlank(body[j]) {
			j++
		}
		if j+1 >= len(body) || body[j] != '=' || body[j+1] == '=' {
			continue
		}
		j++
		for j < len(body) && isBlank(body[j]) {
			j++
		}
		for j < len(body) && (syntax.IsIdentByte(body[j]) || body[j] == '.' || body[j] == '>' || body[j] == '-' || body[j] == ':') {
			j++
		}
		if j < len(body) && body[j] == '[' {
			return true
		}
	}
}

// rangeForVar reports whether body has `for (... name : ...)`.
func rangeForVar(body []byte, name string) bool {
	for i := 0; ; {
		k := bytes.Index(body[i:], []byte("for"))
		if k < 0 {
			return false
		}
		pos := i + k + 3
		i = pos
		j := pos
		for j < len(body) && isBlank(body[j]) {
			j++
		}
		if j >= len(body) || body[j] != '(' {
			continue
		}
		end := bytes.IndexAny(body[j:], ";)")
		if end < 0 {
			continue
		}
		head := string(body[j+1 : j+end])
		colon := strings.Index(head, ":")
		for colon >= 0 && colon+1 < len(head) && head[colon+1] == ':' { // skip ::
			next := strings.Index(head[colon+2:], ":")
			if next < 0 {
				colon = -1
				break
			}
			colon += 2 + next
		}
		if colon < 0 {
			continue
		}
		left := strings.TrimRight(head[:colon], " \t")
		if strings.HasSuffix(left, name) && (len(left) == len(name) || !syntax.IsIdentByte(left[len(left)-len(name)-1])) {
			return true
		}
	}
}

// withoutParamKernels drops launches of a kernel the function is given
// (a word of its parameter list): the caller's kernel, not a name here.
// A preload of one is the caller's kernel's preload (StepPreloadParam),
// also through a local initialized from the parameter (`fun_ptr_type p =
// reinterpret_cast<fun_ptr_type>(kernel);`).
func withoutParamKernels(steps []SummaryStep, params, body []byte) []SummaryStep {
	out := steps[:0]
	var names []lexicalParam // read once, for a preload
	for _, st := range steps {
		if st.Kind == StepLaunch && len(st.Keys) == 1 && isIdentifier(st.Keys[0]) && containsWord(params, st.Keys[0]) {
			continue
		}
		if st.Kind == StepPreload && len(st.Keys) == 1 && isIdentifier(st.Keys[0]) {
			if names == nil {
				names = lexicalParams(params, nil)
			}
			if i := lexicalParamIndex(names, st.Keys[0], body); i >= 0 {
				out = append(out, SummaryStep{Kind: StepPreloadParam, Param: i, Line: st.Line})
				continue
			}
		}
		out = append(out, st)
	}
	return out
}

// lexicalParamIndex returns the index of the parameter name is, or that
// the local name is initialized from in body (`T name = cast(param);`,
// `name = &param;`), or -1.
func lexicalParamIndex(params []lexicalParam, name string, body []byte) int {
	for hop := 0; hop < 2; hop++ {
		for i, p := range params {
			if p.name == name {
				return i
			}
		}
		next := ""
		eachWord(body, []byte(name), func(_, end int) bool {
			rest := bytes.TrimLeft(body[end:], " \t\r\n")
			if len(rest) < 2 || rest[0] != '=' || rest[1] == '=' {
				return true
			}
			stmt := rest[1:]
			if semi := bytes.IndexByte(stmt, ';'); semi >= 0 {
				stmt = stmt[:semi]
			}
			next = lastIdentifier(stmt)
			return false
		})
		if next == "" {
			return -1
		}
		name = next
	}
	return -1
}

// lastIdentifier returns the last identifier of an initializer that is a
// cast or address of one name (`reinterpret_cast<F>(kernel)`, `(void
// *)kernel`, `&kernel`), "" for anything else (a call of other values).
func lastIdentifier(expr []byte) string {
	e := bytes.TrimRight(bytes.TrimSpace(expr), ") \t")
	end := len(e)
	start := end
	for start > 0 && syntax.IsIdentByte(e[start-1]) {
		start--
	}
	if start == end || !syntax.IsIdentStart(e[start]) {
		return ""
	}
	before := bytes.TrimRight(e[:start], " \t&(*")
	if len(before) > 0 && before[len(before)-1] == ',' {
		return "" // one argument of several
	}
	return string(e[start:end])
}

func containsWord(b []byte, w string) bool {
	found := false
	eachWord(b, []byte(w), func(int, int) bool {
		found = true
		return false
	})
	return found
}

// eachWord calls visit with the offsets of each occurrence of w in b that
// is a whole word (no identifier byte on either side), in order, until
// visit returns false.
func eachWord(b, w []byte, visit func(at, end int) bool) {
	for i := 0; ; {
		k := bytes.Index(b[i:], w)
		if k < 0 {
			return
		}
		at := i + k
		end := at + len(w)
		i = at + 1
		if (at == 0 || !syntax.IsIdentByte(b[at-1])) && (end >= len(b) || !syntax.IsIdentByte(b[end])) && !visit(at, end) {
			return
		}
	}
}

// TimedCalls returns the names called, in the functions src defines,
// between the first and the last clock read of the function (a spelling
// of clocks: a host clock call, an event record, a timer's start or stop),
// without a parse: what a file that times calls of other files times. A
// timed call of a function the file defines brings in what that function
// calls, transitively (a timed frame callback calls the file's
// render_frame(), which calls another file's launcher).
func TimedCalls(src []byte, clocks [][]byte) []string {
	timed, _ := TimedCallsAndWarmups(src, clocks)
	return timed
}

// TimedCallsAndWarmups is TimedCalls, and the names the measuring
// functions call before their first clock read (not followed into the
// file's functions): what may warm up the timed launches, a call of
// another file's preload helper (`maximum_residency(refine, 64, 0)`,
// which asks cudaFuncGetAttributes of the kernel it is handed).
func TimedCallsAndWarmups(src []byte, clocks [][]byte) (timed, before []string) {
	// Where the clocks are spelled, found once for the file rather than
	// in each function's body.
	var marks []int
	for _, c := range clocks {
		for i := 0; i < len(src); {
			k := bytes.Index(src[i:], c)
			if k < 0 {
				break
			}
			marks = append(marks, i+k)
			i += k + 1
		}
	}
	if len(marks) < 2 {
		return nil, nil
	}
	sort.Ints(marks)
	var out []string
	seen, seenBefore := map[string]bool{}, map[string]bool{}
	bodies := map[string][][]byte{}
	eachDefinition(src, func(name, body []byte) {
		bodies[string(name)] = append(bodies[string(name)], body)
		start := cap(src) - cap(body)
		k := sort.SearchInts(marks, start)
		j := sort.SearchInts(marks, start+len(body)) - 1
		if k >= j {
			return // fewer than two clock reads in the body
		}
		region := body[marks[k]-start : marks[j]-start]
		EachName(region, func(n []byte, d bool) {
			if !d && !seen[string(n)] {
				seen[string(n)] = true
				out = append(out, string(n))
			}
		})
		EachName(body[:marks[k]-start], func(n []byte, d bool) {
			if !d && !seenBefore[string(n)] {
				seenBefore[string(n)] = true
				before = append(before, string(n))
			}
		})
	})
	if len(out) == 0 {
		return out, before
	}
	// What the file's own timed callees call, to a fixed point.
	for k := 0; k < len(out) && k < maxTimedCalls; k++ {
		for _, body := range bodies[out[k]] {
			EachName(body, func(n []byte, d bool) {
				if !d && !methodBefore(body, cap(body)-cap(n)) && !seen[string(n)] {
					seen[string(n)] = true
					out = append(out, string(n))
				}
			})
		}
	}
	return out, before
}

// maxTimedCalls bounds the names TimedCalls follows into the file's own
// functions.
const maxTimedCalls = 4096

// ownLexicalStep adds the step a call of a launch or preload helper of the
// additions makes, from its text (the name n at pos, its arguments), and
// reports whether the call was one.
func ownLexicalStep(a *knowledge.Additions, body []byte, pos int, n string, args []string, steps *[]SummaryStep, line int) bool {
	spelled := qualifiedAt(body, pos, n)
	kind := StepLaunch
	h, ok := a.Launcher(n, spelled)
	if !ok {
		if h, ok = a.Preload(n, spelled); !ok {
			return false
		}
		kind = StepPreload
	}
	k, ok := h.ArgumentIndex(len(args))
	if !ok {
		return true
	}
	key := lexicalKernel(args[k])
	if key == "" && kind == StepLaunch && strings.HasPrefix(args[k], "[") {
		key = fmt.Sprintf("%s (the lambda at line %d)", spelled, line)
	}
	if key != "" {
		*steps = append(*steps, SummaryStep{Kind: kind, Keys: []string{key}, Line: line})
	}
	return true
}

// qualifiedAt returns the name n at pos with the qualifier written before
// it (gpu::launch_on), without blanks.
func qualifiedAt(b []byte, pos int, n string) string {
	return strings.TrimPrefix(string(b[qualifierStart(b, pos):pos]), "::") + n
}

// ownClockReads counts the calls of the additions' clocks in body.
func ownClockReads(body []byte, a *knowledge.Additions) int {
	n := 0
	for _, name := range a.ClockSpellings() {
		if a.Timer(name) != nil {
			continue // a timer class: its reads are not calls of its name
		}
		for i := 0; ; {
			k := bytes.Index(body[i:], []byte(name))
			if k < 0 {
				break
			}
			at := i + k
			i = at + len(name)
			if (at == 0 || !syntax.IsIdentByte(body[at-1])) && nextIs(body, i, '(') && a.IsClock(name, qualifiedAt(body, at, name)) {
				n++
			}
		}
	}
	return n
}

// timerObjectReads counts the calls in body of a timer's reading method
// on an object named for a timer (`global_timer.Start("split")`,
// `sw->stop()`), as ClockOf takes them with a parse.
func timerObjectReads(body []byte, lits [][]byte) int {
	n := 0
	for _, lit := range lits {
		for i := 0; ; {
			k := bytes.Index(body[i:], lit)
			if k < 0 {
				break
			}
			at := i + k
			i = at + len(lit)
			start := at
			for start > 0 && syntax.IsIdentByte(body[start-1]) {
				start--
			}
			if start < at && knowledge.TimerObject.Match(body[start:at]) {
				n++
			}
		}
	}
	return n
}

// timerMethodLiterals are knowledge.TimerMethodSpellings as bytes.
var timerMethodLiterals = literalsOf(knowledge.TimerMethodSpellings())

// nextIs reports whether the first byte after pos that is not blank is c.
func nextIs(b []byte, pos int, c byte) bool {
	for pos < len(b) && isBlank(b[pos]) {
		pos++
	}
	return pos < len(b) && b[pos] == c
}

// spelledIn returns the literals src contains (a non-nil slice), in the
// order of lits. One pass over src, each position whose two bytes begin
// a literal compared with those literals: a search per literal read a
// file forty times (2.6x the time on CUB's headers).
func spelledIn(src []byte, lits [][]byte) [][]byte {
	var first [1024]uint64 // bit set of the literals' first two bytes
	for _, l := range lits {
		if len(l) >= 2 {
			k := uint16(l[0])<<8 | uint16(l[1])
			first[k>>6] |= 1 << (k & 63)
		}
	}
	found := make([]bool, len(lits))
	left := len(lits)
	for i := 0; i+1 < len(src) && left > 0; i++ {
		k := uint16(src[i])<<8 | uint16(src[i+1])
		if first[k>>6]&(1<<(k&63)) == 0 {
			continue
		}
		for j, l := range lits {
			if !found[j] && len(l) >= 2 && l[0] == src[i] && l[1] == src[i+1] && bytes.HasPrefix(src[i:], l) {
				found[j] = true
				left--
			}
		}
	}
	out := [][]byte{}
	for j, l := range lits {
		if found[j] || len(l) < 2 && bytes.Contains(src, l) {
			out = append(out, l)
		}
	}
	return out
}
