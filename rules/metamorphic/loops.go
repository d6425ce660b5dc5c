package metamorphic

import (
	"github.com/lazylint/lazylint/cudaparse"
)

// Loops respelled: for as while, while as for or do, do as while. Each
// rewrite keeps the loop's lines (the new tokens go on the lines of the old
// ones) and is skipped where it would change what continue does.

// forToWhile: for (init; cond; step) body -> { init; while (cond) { body step; } }.
func forToWhile(fx *fixture) []candidate {
	return fx.eachSite("for_statement", func(path string, loop cudaparse.Node) *rewrite {
		src := fx.files[path]
		body := loop.ChildByField("body")
		if !body.Valid() || hasToken(fx, path, body, "continue") {
			return nil // continue would skip the step
		}
		init := loop.ChildByField("initializer")
		cond := loop.ChildByField("condition")
		step := loop.ChildByField("update")
		rw := newRewrite(fx.files)
		head := []piece{lit("{ ")}
		if init.Valid() {
			head = append(head, cp(path, init.Start(), init.End()))
			if !init.Is("declaration") {
				head = append(head, lit(";"))
			}
			head = append(head, lit(" "))
		}
		head = append(head, lit("while ("))
		if cond.Valid() {
			head = append(head, cp(path, cond.Start(), cond.End()))
		} else {
			head = append(head, lit("1"))
		}
		head = append(head, lit(") "))
		rw.replace(path, loop.Start(), body.Start(), head...)
		var tail []piece
		if step.Valid() {
			tail = append(tail, cp(path, step.Start(), step.End()), lit("; "))
		}
		if body.Is("compound_statement") {
			closing := body.End() - 1
			if src[closing] != '}' {
				return nil
			}
			rw.insert(path, closing, tail...)
			rw.insert(path, body.End(), lit(" }"))
		} else {
			rw.insert(path, body.Start(), lit("{ "))
			rw.insert(path, body.End(), append(append([]piece{lit(" ")}, tail...), lit("} }"))...)
		}
		return rw
	})
}

// whileToFor: while (cond) body -> for (; cond; ) body.
func whileToFor(fx *fixture) []candidate {
	return fx.eachSite("while_statement", func(path string, loop cudaparse.Node) *rewrite {
		cond, value, ok := whileCondition(loop)
		if !ok {
			return nil
		}
		rw := newRewrite(fx.files)
		rw.replace(path, loop.Start(), value.Start(), lit("for (; "))
		rw.replace(path, value.End(), cond.End(), lit("; )"))
		return rw
	})
}

// whileToDo: while (cond) { body } -> do { if (!(cond)) break; body } while (1);
// The test moves to the top of a do loop that never ends by its own
// condition; continue goes to while (1) and back to the test, as before.
func whileToDo(fx *fixture) []candidate {
	return fx.eachSite("while_statement", func(path string, loop cudaparse.Node) *rewrite {
		_, value, ok := whileCondition(loop)
		body := loop.ChildByField("body")
		if !ok || !body.Valid() {
			return nil
		}
		rw := newRewrite(fx.files)
		test := []piece{lit("do { if (!("), cp(path, value.Start(), value.End()), lit(")) break; ")}
		if body.Is("compound_statement") {
			rw.replace(path, loop.Start(), body.Start()+1, test...)
			rw.insert(path, body.End(), lit(" while (1);"))
		} else {
			rw.replace(path, loop.Start(), body.Start(), test...)
			rw.insert(path, body.End(), lit(" } while (1);"))
		}
		return rw
	})
}

// doToWhile: do { body } while (cond); -> while (1) { body if (!(cond)) break; }
// Skipped when the body continues: continue would skip the test.
func doToWhile(fx *fixture) []candidate {
	return fx.eachSite("do_statement", func(path string, loop cudaparse.Node) *rewrite {
		src := fx.files[path]
		body := loop.ChildByField("body")
		cond := loop.ChildByField("condition")
		if !body.Is("compound_statement") || !cond.Valid() || hasToken(fx, path, body, "continue") {
			return nil
		}
		inner := cond.Unparen()
		if !cond.Is("parenthesized_expression") || !inner.Valid() {
			return nil
		}
		closing := body.End() - 1
		if src[closing] != '}' {
			return nil
		}
		rw := newRewrite(fx.files)
		rw.replace(path, loop.Start(), body.Start(), lit("while (1) "))
		rw.insert(path, closing, lit("if (!("), cp(path, inner.Start(), inner.End()), lit(")) break; "))
		rw.replace(path, body.End(), loop.End())
		return rw
	})
}

// whileCondition returns a while loop's condition clause and its
// expression, when the condition is an expression (not a declaration).
func whileCondition(loop cudaparse.Node) (clause, value cudaparse.Node, ok bool) {
	clause = loop.ChildByField("condition")
	if !clause.Is("condition_clause") {
		return clause, value, false
	}
	value = clause.ChildByField("value")
	if !value.Valid() || value.Is("declaration", "init_declarator") || len(clause.NamedChildren()) != 1 {
		return clause, value, false
	}
	return clause, value, true
}

// hasToken reports whether the identifier or keyword word is spelled in n.
func hasToken(fx *fixture, path string, n cudaparse.Node, word string) bool {
	src := fx.files[path]
	for _, t := range fx.tokens(path) {
		if t.start >= n.Start() && t.end <= n.End() && t.kind == tokIdent && t.text(src) == word {
			return true
		}
	}
	return false
}
