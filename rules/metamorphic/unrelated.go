package metamorphic

import (
	"strconv"
	"strings"
)

// Unrelated code: statements that touch nothing the function uses, on
// lines of their own between its statements, and a function at the top of
// a file. Findings move down with the lines; nothing else may change.

// addUnrelatedStatements: in one file, a line
// `int unrelated_N = N; (void)unrelated_N;` before each statement of a
// function body that starts a line.
func addUnrelatedStatements(fx *fixture) []candidate {
	var out []candidate
	n := 0
	for _, p := range fx.paths() {
		f := fx.parsed[p]
		if f == nil {
			continue
		}
		src := fx.files[p]
		rw := newRewrite(fx.files)
		added := 0
		for _, fn := range f.Functions {
			if !fn.Body.Valid() || fn.Body.InError() {
				continue
			}
			for _, s := range fn.Statements() {
				if s.Is("comment") || strings.HasPrefix(s.Kind(), "preproc") || !startsLine(src, s.Start()) {
					continue
				}
				n++
				name := fx.freshName("unrelated_" + strconv.Itoa(n))
				indent := indentOf(src, s.Start())
				rw.insert(p, lineStart(src, s.Start()), lit(indent+"int "+name+" = "+strconv.Itoa(n)+"; (void)"+name+";\n"))
				added++
			}
		}
		if added > 0 {
			out = append(out, candidate{site: p + " (" + strconv.Itoa(added) + " lines)", rw: rw})
		}
	}
	return out
}

// addUnrelatedFunction: a small function at the top of one file.
func addUnrelatedFunction(fx *fixture) []candidate {
	var out []candidate
	name := fx.freshName("unrelated_helper")
	for _, p := range fx.paths() {
		rw := newRewrite(fx.files)
		rw.insert(p, 0, lit("static int "+name+"(int x) {\n  return x * 3 + 1;\n}\n"))
		out = append(out, candidate{site: p, rw: rw})
	}
	return out
}
