// Package metamorphic tests that the rules are general: from each rule's
// fixtures it derives variants that keep the code's meaning (identifiers
// renamed, loops respelled, conditions reordered, statements moved into
// helpers and headers, calls wrapped in a macro, one clock for another,
// unrelated statements added) and checks that each variant gets the
// original's findings, mapped to their new lines.
//
// The transformations are plain functions of a parsed fixture: each finds
// its sites with the parse tree and rewrites the text around them, and a
// site it cannot rewrite safely is skipped, not failed. The test
// (metamorphic_test.go) runs them and keeps a ratchet of how many variants
// each rule survives (testdata/ratchet.txt).
package metamorphic

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// fixture is what one rule test checks together: one file checked alone,
// or a project folder whose files are linked.
type fixture struct {
	name    string            // "events.cu", "project/wrapper"
	files   map[string][]byte // by slash path relative to the fixture's folder
	project bool
	parsed  map[string]*cudaparse.File
	lexed   map[string][]token
}

// tokens returns the tokens of a file of the fixture.
func (fx *fixture) tokens(path string) []token {
	if fx.lexed == nil {
		fx.lexed = map[string][]token{}
	}
	ts, ok := fx.lexed[path]
	if !ok {
		ts = lex(fx.files[path])
		fx.lexed[path] = ts
	}
	return ts
}

// paths are the fixture's files in order.
func (fx *fixture) paths() []string {
	out := make([]string, 0, len(fx.files))
	for p := range fx.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// isC reports whether path holds C (no references, classes or std::):
// a .c file, or a header of a fixture that has C files and no C++ or CUDA.
func (fx *fixture) isC(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".c":
		return true
	case ".h":
		c := false
		for p := range fx.files {
			switch strings.ToLower(filepath.Ext(p)) {
			case ".c":
				c = true
			case ".cu", ".cuh", ".cpp", ".cc", ".cxx", ".hpp":
				return false
			}
		}
		return c
	}
	return false
}

// candidate is a variant before it is built: a transformation's rewrite of
// the fixture at one site.
type candidate struct {
	site string
	rw   *rewrite
	// project: the variant adds a file (a header) and is checked as a
	// project even when the fixture is one file.
	project bool
	// parts, for a variant that rewrites several sites at once (every
	// name of a kind, every call of a function), makes one variant per
	// site: when the whole fails, they tell which site fails alone.
	parts func() []candidate
}

// transform is one meaning-preserving rewrite.
type transform struct {
	name string
	// doc says what it does, for the report.
	doc   string
	apply func(fx *fixture) []candidate
}

// transforms are all the transformations, in the order they are reported.
var transforms = []transform{
	{"rename-kernels", "kernels get other names, everywhere they are spelled", renameKernels},
	{"rename-functions", "host and device functions get other names", renameFunctions},
	{"rename-variables", "variables and parameters get other names", renameVariables},
	{"for-to-while", "for (init; cond; step) body -> { init; while (cond) { body step; } }", forToWhile},
	{"while-to-for", "while (cond) body -> for (; cond; ) body", whileToFor},
	{"while-to-do", "while (cond) { body } -> do { if (!(cond)) break; body } while (1);", whileToDo},
	{"do-to-while", "do { body } while (cond); -> while (1) { body if (!(cond)) break; }", doToWhile},
	{"swap-conjuncts", "a && b -> b && a (and ||) when neither side has side effects", swapConjuncts},
	{"extract-helper", "a statement moves into a helper function of the same file, called in its place", extractHelper},
	{"extract-helper-header", "a statement moves into a helper function of a header the file includes", extractHelperHeader},
	{"wrap-call-macro", "a call f(x) becomes CALL(f(x)) with #define CALL(...) __VA_ARGS__ in the file", wrapCallMacro},
	{"wrap-call-macro-header", "the same, with the macro in a project header the file includes", wrapCallMacroHeader},
	{"clock-to-events", "a timed region's clock becomes CUDA events", clockTo(clockEvents)},
	{"clock-to-chrono", "a timed region's clock becomes std::chrono::steady_clock", clockTo(clockChrono)},
	{"clock-to-gettimeofday", "a timed region's clock becomes gettimeofday", clockTo(clockGettimeofday)},
	{"clock-to-clock_gettime", "a timed region's clock becomes clock_gettime(CLOCK_MONOTONIC)", clockTo(clockClockGettime)},
	{"clock-to-timer-class", "a timed region's clock becomes a small timer class (start/stop/elapsed_ms)", clockTo(clockTimerClass)},
	{"add-unrelated-statements", "unrelated statements between a function's statements", addUnrelatedStatements},
	{"add-unrelated-function", "an unrelated function at the top of each file", addUnrelatedFunction},
}

// lineStart returns the offset of the start of the line holding off.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// startsLine reports whether only white space precedes off on its line.
func startsLine(src []byte, off int) bool {
	return strings.TrimSpace(string(src[lineStart(src, off):off])) == ""
}

// indentOf returns the white space that starts the line holding off.
func indentOf(src []byte, off int) string {
	s := lineStart(src, off)
	e := s
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	return string(src[s:e])
}

// freshName returns base, or base with a number, spelled nowhere in the
// fixture.
func (fx *fixture) freshName(base string) string {
	taken := func(name string) bool {
		for path, src := range fx.files {
			for _, t := range fx.tokens(path) {
				if t.kind == tokIdent && t.text(src) == name {
					return true
				}
			}
		}
		return false
	}
	if !taken(base) {
		return base
	}
	for i := 2; ; i++ {
		name := base + strconv.Itoa(i)
		if !taken(name) {
			return name
		}
	}
}

// inFunctionBody returns the function whose body holds n, or nil.
func inFunctionBody(f *cudaparse.File, n cudaparse.Node) *cudaparse.Function {
	for _, fn := range f.Functions {
		if fn.Body.Valid() && fn.Body.Start() <= n.Start() && n.End() <= fn.Body.End() {
			// The innermost: functions do not nest, but class bodies hold
			// methods, which are functions of their own.
			inner := fn
			for _, g := range f.Functions {
				if g != fn && g.Body.Valid() && fn.Body.Start() <= g.Body.Start() && g.Body.Start() <= n.Start() && n.End() <= g.Body.End() {
					inner = g
				}
			}
			return inner
		}
	}
	return nil
}

// nodesIn returns the nodes of the kinds inside function bodies, in source
// order.
// eachSite returns a candidate for each node of the kind in the fixture's
// function bodies that at rewrites (at returns nil where the rewrite does
// not apply).
func (fx *fixture) eachSite(kind string, at func(path string, n cudaparse.Node) *rewrite) []candidate {
	var out []candidate
	for _, path := range fx.paths() {
		f := fx.parsed[path]
		if f == nil {
			continue
		}
		for _, n := range nodesIn(f, kind) {
			if rw := at(path, n); rw != nil {
				out = append(out, candidate{site: siteName(f, path, n), rw: rw})
			}
		}
	}
	return out
}

func nodesIn(f *cudaparse.File, kinds ...string) []cudaparse.Node {
	var out []cudaparse.Node
	for _, n := range f.NodesOfKind(kinds...) {
		if inFunctionBody(f, n) != nil && !n.InError() {
			out = append(out, n)
		}
	}
	return out
}

// siteName names a site by the function that holds it and its line.
func siteName(f *cudaparse.File, path string, n cudaparse.Node) string {
	name := ""
	if fn := inFunctionBody(f, n); fn != nil {
		name = fn.Name + " "
	}
	return path + ":" + strconv.Itoa(f.Position(n.Start()).Line) + " " + name
}
