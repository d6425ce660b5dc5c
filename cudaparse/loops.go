package cudaparse

import (
	"bytes"

	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/knowledge"
)

// SpellsLoop reports whether src may hold a loop statement: it spells
// the word `while` (a while or do loop), or the word `for` followed by
// blanks and a parenthesis (or a comment). Comments and strings count
// too, so it errs towards true; a file without is sure to hold no loop,
// whatever the pre-pass makes of it (it writes no loop keyword).
func SpellsLoop(src []byte) bool {
	found := false
	eachWord(src, []byte("while"), func(int, int) bool { found = true; return false })
	eachWord(src, []byte("for"), func(_, end int) bool {
		for end < len(src) && isBlank(src[end]) {
			end++
		}
		found = found || end < len(src) && (src[end] == '(' || src[end] == '/')
		return !found
	})
	return found
}

// CallsInLoop reports whether src calls one of names inside a for, while
// or do loop (in its header or its body), as far as a lexer can tell:
// prefilters use it to leave out files whose calls of an API are never
// repeated. It errs towards true: braces of any kind nested in a loop
// body count as the body's, and a loop statement without braces runs to
// its first semicolon.
func CallsInLoop(src []byte, names []string) bool {
	if len(names) == 0 {
		return false
	}
	want := knowledge.NameSet(names...)
	return eachLoopCall(src, func(name string) bool { return want[name] })
}

// CallsInLoopThrough is CallsInLoop that also counts, as a call of one of
// names, a loop's call of a function src defines whose body spells one of
// them, or calls such a function (two levels of helpers, by their text).
func CallsInLoopThrough(src []byte, names []string) bool {
	if len(names) == 0 {
		return false
	}
	want := knowledge.NameSet(names...)
	inLoop := map[string]bool{}
	if eachLoopCall(src, func(name string) bool {
		inLoop[name] = true
		return want[name]
	}) {
		return true
	}
	// Helpers: level one spells a name; level two calls level one.
	spells := func(body []byte) bool {
		for _, n := range names {
			if bytes.Contains(body, []byte(n)) {
				return true
			}
		}
		return false
	}
	levelOne := map[string]bool{}
	var called [][]byte // bodies of the functions loops call
	eachDefinition(src, func(name, body []byte) {
		if spells(body) {
			levelOne[string(name)] = true
		}
		if inLoop[string(name)] {
			called = append(called, body)
		}
	})
	for name := range levelOne {
		if inLoop[name] {
			return true
		}
	}
	for _, body := range called {
		found := false
		EachName(body, func(n []byte, def bool) { found = found || !def && levelOne[string(n)] })
		if found {
			return true
		}
	}
	return false
}

// eachLoopCall calls visit with the name of each call inside a loop, in
// order, until visit returns true; it reports whether one did (or the
// file ends inside a comment or literal, where the lexer loses what the
// parser recovers).
func eachLoopCall(src []byte, visit func(name string) bool) bool {
	return syntax.WithTokens(src, func(toks []syntax.Token) bool { return eachLoopCallIn(src, toks, visit) })
}

func eachLoopCallIn(src []byte, toks []syntax.Token, visit func(name string) bool) bool {
	// A token's text as bytes: compared with a keyword it is not copied
	// (a string of every identifier of a file was a tenth of this scan).
	text := func(t syntax.Token) []byte { return src[t.Start:t.End] }
	// A comment or literal that never ends hides the rest of the file from
	// the lexer, not from the parser, which recovers after it.
	if n := len(toks); n > 0 && unterminated(src, toks[n-1]) {
		return true
	}
	// Comments are dropped (in place: the write index never passes the
	// read one), so that `while /* retry */ (...)` is a loop header.
	code := toks[:0]
	for _, t := range toks {
		if t.Kind != syntax.TokComment {
			code = append(code, t)
		}
	}
	toks = code
	isPunct := func(k int, c byte) bool {
		return k < len(toks) && toks[k].Kind == syntax.TokPunct && src[toks[k].Start] == c
	}
	calls := func(k int) bool {
		return toks[k].Kind == syntax.TokIdent && isPunct(k+1, '(') && visit(string(text(toks[k])))
	}
	// braces holds, for each open brace, whether it is in a loop.
	var braces []bool
	inLoop := func() bool { return len(braces) > 0 && braces[len(braces)-1] }
	// A loop body without braces: the brace depth it runs at, -1 for none.
	stmtDepth := -1
	parens := 0
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch t.Kind {
		case syntax.TokIdent:
			switch name := text(t); {
			case string(name) == "for" || string(name) == "while":
				if !isPunct(k+1, '(') {
					continue
				}
				// The header: a call in it runs once per iteration.
				end := syntax.BalancedEnd(src, toks, k+1)
				for j := k + 1; j <= end; j++ {
					if calls(j) {
						return true
					}
				}
				k = enterLoopBody(isPunct, end, &braces, &stmtDepth)
			case string(name) == "do":
				if !isPunct(k+1, '{') {
					// A body without braces runs to its while: whatever a
					// parser's recovery makes of a malformed one (`do ;
					// err = f(0; while (...)`), the calls before it may
					// be in the loop.
					for j := k + 1; j < len(toks) && !(toks[j].Kind == syntax.TokIdent && string(text(toks[j])) == "while"); j++ {
						if calls(j) {
							return true
						}
					}
				}
				k = enterLoopBody(isPunct, k, &braces, &stmtDepth)
			case (inLoop() || stmtDepth >= 0) && calls(k):
				return true
			}
		case syntax.TokPunct:
			switch src[t.Start] {
			case '{':
				braces = append(braces, inLoop() || stmtDepth >= 0)
			case '}':
				if len(braces) > 0 {
					braces = braces[:len(braces)-1]
				}
				if len(braces) < stmtDepth {
					stmtDepth = -1
				}
			case '(':
				parens++
			case ')':
				parens = max(0, parens-1)
			case ';':
				if stmtDepth >= 0 && len(braces) == stmtDepth && parens == 0 {
					stmtDepth = -1
				}
			}
		}
	}
	return false
}

// enterLoopBody starts the body of a loop whose header ends at token k: a
// block is pushed as a loop's, a statement marks its depth; an empty body
// (`while (x);`, the end of a do-while) starts nothing. It returns the
// last token consumed.
func enterLoopBody(isPunct func(int, byte) bool, k int, braces *[]bool, stmtDepth *int) int {
	switch {
	case isPunct(k+1, '{'):
		*braces = append(*braces, true)
		return k + 1
	case !isPunct(k+1, ';') && *stmtDepth < 0:
		*stmtDepth = len(*braces)
	}
	return k
}

// unterminated reports whether t, a file's last token, is a block comment
// or a string or character literal that the file ends inside.
func unterminated(src []byte, t syntax.Token) bool {
	body := src[t.Start:t.End]
	switch t.Kind {
	case syntax.TokComment:
		return len(body) >= 2 && body[1] == '*' && (len(body) < 4 || string(body[len(body)-2:]) != "*/")
	case syntax.TokString, syntax.TokChar:
		last := body[len(body)-1]
		return int(t.End) == len(src) && (len(body) < 2 || last != '"' && last != '\'')
	}
	return false
}
