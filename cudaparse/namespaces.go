package cudaparse

import (
	"bytes"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// Namespaces, from the text alone: which namespace a definition is in, and
// whether a file can name a class of another namespace unqualified. A
// project's classes of one name in several namespaces (deal.II's
// dealii::Timer beside the Kokkos::Timer and the testing::internal::Timer
// of libraries it bundles) are different classes; without a parse, the
// text's `namespace a::b {` blocks, `using namespace` directives and
// qualified spellings tell them apart. A namespace opened by a macro
// (`DEAL_II_NAMESPACE_OPEN`) is not seen: its classes read as global, which
// every file sees.

// namespaceBlock is a namespace's body in a text: its qualified name (the
// enclosing namespaces' names and its own, "::"-joined; inline and
// anonymous namespaces add none) and its braces' offsets.
type namespaceBlock struct {
	name       string
	open, stop int
}

// namespaceBlocks returns the namespace bodies of src, innermost last
// among those that nest. Braces of other blocks are counted so that a
// namespace ends at its own closing brace; a brace left open by the text
// (a block split by #if) ends with the text.
func namespaceBlocks(src []byte) []namespaceBlock {
	if !bytes.Contains(src, []byte("namespace")) {
		return nil
	}
	return syntax.WithTokens(src, func(toks []syntax.Token) []namespaceBlock {
		// A frame per open brace: the namespace block it opens (-1 for
		// another brace), and whether that namespace added a name.
		type frame struct {
			block int
			named bool
		}
		var out []namespaceBlock
		var stack []frame
		var names []string // of the open namespaces that add one
		for k := 0; k < len(toks); k++ {
			t := toks[k]
			switch {
			case t.Kind == syntax.TokPunct && src[t.Start] == '{':
				stack = append(stack, frame{block: -1})
			case t.Kind == syntax.TokPunct && src[t.Start] == '}' && len(stack) > 0:
				f := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if f.block >= 0 {
					out[f.block].stop = int(t.Start)
				}
				if f.named {
					names = names[:len(names)-1]
				}
			case t.Kind == syntax.TokIdent && string(src[t.Start:t.End]) == "namespace":
				own, open, ok := namespaceHead(src, toks, k+1)
				if !ok {
					continue
				}
				inline := k > 0 && toks[k-1].Kind == syntax.TokIdent && string(src[toks[k-1].Start:toks[k-1].End]) == "inline"
				named := own != "" && !inline
				if named {
					names = append(names, own)
				}
				out = append(out, namespaceBlock{name: strings.Join(names, "::"), open: int(toks[open].Start), stop: len(src)})
				stack = append(stack, frame{block: len(out) - 1, named: named})
				k = open
			}
		}
		return out
	})
}

// namespaceHead reads a namespace definition's head from token k: its
// name (`a`, `a::b`, none for an anonymous one) up to the opening brace,
// whose token index it returns; ok false for an alias (`namespace fs =
// std::filesystem;`) or a using-directive's word.
func namespaceHead(src []byte, toks []syntax.Token, k int) (name string, open int, ok bool) {
	var parts []string
	for ; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.Kind == syntax.TokComment:
		case t.Kind == syntax.TokIdent:
			parts = append(parts, string(src[t.Start:t.End]))
		case t.Kind == syntax.TokPunct && src[t.Start] == ':':
		case t.Kind == syntax.TokPunct && src[t.Start] == '{':
			return strings.Join(parts, "::"), k, true
		default:
			return "", 0, false
		}
	}
	return "", 0, false
}

// namespaceAt returns the qualified namespace that holds offset at.
func namespaceAt(blocks []namespaceBlock, at int) string {
	name, open := "", -1
	for _, b := range blocks {
		if b.open < at && at < b.stop && b.open > open {
			name, open = b.name, b.open
		}
	}
	return name
}

// qualifierBefore returns the qualifier written before the name at offset
// at (`a::b` of `a::b::Timer`, template arguments passed over), or "".
func qualifierBefore(src []byte, at int) string {
	var parts []string
	for qualifiedBefore(src, at) {
		part := classBefore(src, at)
		if part == "" {
			break
		}
		parts = append(parts, part)
		at = bytes.LastIndex(src[:at-2], []byte(part))
		if at < 0 {
			break
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "::")
}

// SeesNamespace reports whether src shows that it names classes of
// namespace ns without qualifying them, or qualifies class by it: ns is
// global, or src spells `ns::class` (or with ns's last names only:
// `internal::Timer` for testing::internal), or directs `using namespace`
// of ns or of its last names, or opens a namespace of one of ns's names
// (code in dealii sees dealii::Timer).
func SeesNamespace(src []byte, ns, class string) bool {
	if ns == "" {
		return true
	}
	parts := strings.Split(ns, "::")
	for i := range parts {
		suffix := strings.Join(parts[i:], "::")
		if containsQualified(src, suffix+"::"+class) {
			return true
		}
	}
	if bytes.Contains(src, []byte("using")) {
		for i := range parts {
			if usesNamespace(src, strings.Join(parts[i:], "::")) {
				return true
			}
		}
	}
	for _, b := range namespaceBlocks(src) {
		for _, p := range strings.Split(b.name, "::") {
			for _, q := range parts {
				if p == q {
					return true
				}
			}
		}
	}
	return false
}

// containsQualified reports whether src spells the qualified name q as a
// whole (no identifier byte before it, none after it).
func containsQualified(src []byte, q string) bool {
	found := false
	eachWord(src, []byte(q), func(_, _ int) bool {
		found = true
		return false
	})
	return found
}

// usesNamespace reports whether src directs `using namespace ns;`.
func usesNamespace(src []byte, ns string) bool {
	found := false
	eachWord(src, []byte("using"), func(_, end int) bool {
		j := skipSpaces(src, end)
		if !bytes.HasPrefix(src[j:], []byte("namespace")) {
			return true
		}
		j = skipSpaces(src, j+len("namespace"))
		j += len("::") * boolInt(bytes.HasPrefix(src[j:], []byte("::")))
		if bytes.HasPrefix(src[j:], []byte(ns)) {
			k := skipSpaces(src, j+len(ns))
			found = k < len(src) && src[k] == ';'
		}
		return !found
	})
	return found
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
