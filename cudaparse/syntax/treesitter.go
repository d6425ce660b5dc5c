package syntax

// Parsing and tree flattening happen in C, in one cgo call per file: walking
// a tree through smacker's Go API costs about as much as parsing it and
// caches every visited node in a Go map (research.md). The C runtime and the
// C++ grammar are the ones github.com/smacker/go-tree-sitter compiles and
// links; this file only declares the few entry points of tree-sitter's
// public API that it calls.

/*
#include <stdint.h>
#include <stdlib.h>
#include <stdbool.h>

typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSLanguage TSLanguage;
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor; // as in tree-sitter 0.22 api.h

extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *self);
extern bool ts_parser_set_language(TSParser *self, const TSLanguage *language);
extern void ts_parser_set_timeout_micros(TSParser *self, uint64_t timeout_micros);
extern void ts_parser_reset(TSParser *self);
extern TSTree *ts_parser_parse_string(TSParser *self, const TSTree *old_tree, const char *string, uint32_t length);
extern void ts_tree_delete(TSTree *self);
typedef struct { uint32_t row; uint32_t column; } TSPoint;
typedef struct {
	uint32_t start_byte, old_end_byte, new_end_byte;
	TSPoint start_point, old_end_point, new_end_point;
} TSInputEdit;
extern void ts_tree_edit(TSTree *self, const TSInputEdit *edit);
extern TSNode ts_tree_root_node(const TSTree *self);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern TSSymbol ts_node_symbol(TSNode);
extern bool ts_node_is_named(TSNode);
extern bool ts_node_is_missing(TSNode);
extern bool ts_node_is_extra(TSNode);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);
extern uint32_t ts_language_symbol_count(const TSLanguage *);
extern const char *ts_language_symbol_name(const TSLanguage *, TSSymbol);
extern uint32_t ts_language_field_count(const TSLanguage *);
extern const char *ts_language_field_name_for_id(const TSLanguage *, TSFieldId);
extern const TSLanguage *tree_sitter_cpp(void);

enum { LL_NAMED = 1, LL_MISSING = 2, LL_ERROR = 4, LL_EXTRA = 8 };

typedef struct {
	uint32_t start, end;
	int32_t parent, first_child, next_sibling;
	uint16_t symbol, field;
	uint8_t flags;
} ll_node;

static TSParser *ll_parser_new(void) {
	TSParser *p = ts_parser_new();
	if (p && !ts_parser_set_language(p, tree_sitter_cpp())) {
		ts_parser_delete(p);
		return NULL;
	}
	return p;
}

static int32_t ll_push(ll_node **nodes, uint32_t *n, uint32_t *cap, TSTreeCursor *c, int32_t parent) {
	if (*n == *cap) {
		uint32_t ncap = *cap * 2;
		ll_node *grown = realloc(*nodes, (size_t)ncap * sizeof(ll_node));
		if (!grown) return -1;
		*nodes = grown;
		*cap = ncap;
	}
	TSNode t = ts_tree_cursor_current_node(c);
	TSFieldId field = ts_tree_cursor_current_field_id(c);
	bool named = ts_node_is_named(t);
	// Anonymous nodes outside fields are punctuation and keywords: rules
	// never need them, and they are about half of all nodes.
	if (!named && field == 0 && !ts_node_is_missing(t)) return -2;
	TSSymbol sym = ts_node_symbol(t);
	uint8_t flags = 0;
	if (named) flags |= LL_NAMED;
	if (ts_node_is_missing(t)) flags |= LL_MISSING;
	if (sym == (TSSymbol)-1) flags |= LL_ERROR;
	if (ts_node_is_extra(t)) flags |= LL_EXTRA;
	ll_node *x = &(*nodes)[*n];
	x->start = ts_node_start_byte(t);
	x->end = ts_node_end_byte(t);
	x->parent = parent;
	x->first_child = -1;
	x->next_sibling = -1;
	x->symbol = sym;
	x->field = field;
	x->flags = flags;
	return (int32_t)(*n)++;
}

// ll_parse parses src and returns its nodes in pre-order, or NULL when the
// parse was cancelled by the timeout (status 1) or memory ran out (status 2).
// old, when not NULL, is the previous text's tree, already edited to the
// new text (ts_tree_edit): tree-sitter reuses what the edit left alone. With
// keep, the new tree is handed back through it instead of being deleted.
static ll_node *ll_parse(TSParser *p, const TSTree *old, const char *src, uint32_t len, uint64_t timeout_us, uint32_t *count, int *status, TSTree **keep) {
	*count = 0;
	*status = 0;
	if (keep) *keep = NULL;
	ts_parser_set_timeout_micros(p, timeout_us);
	TSTree *tree = ts_parser_parse_string(p, old, src, len);
	if (!tree) {
		ts_parser_reset(p);
		*status = 1;
		return NULL;
	}
	uint32_t n = 0, cap = 1024;
	ll_node *nodes = malloc((size_t)cap * sizeof(ll_node));
	TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
	int32_t cur = nodes ? ll_push(&nodes, &n, &cap, &c, -1) : -1;
	while (cur >= 0) {
		if (ts_tree_cursor_goto_first_child(&c)) {
			// Skip leading punctuation; the first kept child becomes
			// first_child. A node whose children are all skipped keeps none.
			int32_t child;
			for (;;) {
				child = ll_push(&nodes, &n, &cap, &c, cur);
				if (child != -2 || !ts_tree_cursor_goto_next_sibling(&c)) break;
			}
			if (child == -1) { cur = -1; break; }
			if (child == -2) {
				ts_tree_cursor_goto_parent(&c);
			} else {
				nodes[cur].first_child = child;
				cur = child;
				continue;
			}
		}
		for (;;) {
			int32_t sib = -2;
			while (ts_tree_cursor_goto_next_sibling(&c)) {
				sib = ll_push(&nodes, &n, &cap, &c, nodes[cur].parent);
				if (sib != -2) break;
			}
			if (sib == -1) { cur = -1; break; }
			if (sib >= 0) {
				nodes[cur].next_sibling = sib;
				cur = sib;
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) {
				cur = -2;
				break;
			}
			cur = nodes[cur].parent;
		}
		if (cur == -2) break;
	}
	ts_tree_cursor_delete(&c);
	if (keep && cur != -1) {
		*keep = tree;
	} else {
		ts_tree_delete(tree);
	}
	if (cur == -1) {
		free(nodes);
		*status = 2;
		return NULL;
	}
	*count = n;
	return nodes;
}

static int ll_parse_bare(TSParser *p, const char *src, uint32_t len) {
	ts_parser_set_timeout_micros(p, 0);
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (!tree) {
		ts_parser_reset(p);
		return 0;
	}
	ts_tree_delete(tree);
	return 1;
}
*/
import "C"

import (
	"bytes"
	"errors"
	"time"
	"unsafe"

	// The C++ grammar and the tree-sitter runtime, linked for the C above.
	_ "github.com/smacker/go-tree-sitter/cpp"
)

// Node flags, as set by ll_push.
const (
	FlagNamed   = 1
	FlagMissing = 2
	FlagError   = 4
	FlagExtra   = 8
)

// RawNode mirrors ll_node: one tree node, in pre-order, with links by index.
type RawNode struct {
	Start, End                      uint32
	Parent, FirstChild, NextSibling int32
	Symbol, Field                   uint16
	Flags                           uint8
}

func init() {
	if unsafe.Sizeof(RawNode{}) != unsafe.Sizeof(C.ll_node{}) {
		panic("cudaparse: rawNode does not mirror ll_node")
	}
}

// grammar holds the C++ grammar's symbol and field names, read when the
// package loads (well under a millisecond): a node's kind is asked millions
// of times a run, and a sync.OnceValue's check on each was a measurable
// share of the rules' time.
var grammar = loadGrammar()

func loadGrammar() *grammarNames {
	lang := C.tree_sitter_cpp()
	g := &grammarNames{}
	nsym := int(C.ts_language_symbol_count(lang))
	g.symbols = make([]string, nsym)
	for i := range nsym {
		g.symbols[i] = C.GoString(C.ts_language_symbol_name(lang, C.TSSymbol(i)))
	}
	nfield := int(C.ts_language_field_count(lang))
	g.fields = make([]string, nfield+1)
	g.fieldIDs = map[string]uint16{}
	for i := 1; i <= nfield; i++ {
		name := C.GoString(C.ts_language_field_name_for_id(lang, C.TSFieldId(i)))
		g.fields[i] = name
		g.fieldIDs[name] = uint16(i)
	}
	return g
}

type grammarNames struct {
	symbols  []string
	fields   []string
	fieldIDs map[string]uint16
}

func (g *grammarNames) symbol(s uint16) string {
	if s == 0xFFFF {
		return "ERROR"
	}
	if int(s) < len(g.symbols) {
		return g.symbols[s]
	}
	return ""
}

// SymbolName is the grammar's name of a node symbol ("ERROR" for an
// error node, "" for one the grammar lacks).
func SymbolName(s uint16) string { return grammar.symbol(s) }

// FieldName is the grammar's name of a field id ("" for none).
func FieldName(id uint16) string { return grammar.fields[id] }

// FieldID is the grammar's id of a field name.
func FieldID(name string) (uint16, bool) {
	id, ok := grammar.fieldIDs[name]
	return id, ok
}

// ErrParseLimit is returned when a file takes longer to parse than the
// parser's time limit.
var ErrParseLimit = errors.New("parse time limit exceeded")

// TreeParser owns one tree-sitter parser. It is not safe for concurrent use:
// use one per goroutine.
type TreeParser struct {
	c *C.TSParser
	// Keep asks for incremental parsing: the last tree and the text it was
	// parsed from are kept, and the next parse reuses them.
	Keep     bool
	last     *C.TSTree
	lastText []byte
}

func NewTreeParser() (*TreeParser, error) {
	p := C.ll_parser_new()
	if p == nil {
		return nil, errors.New("tree-sitter: cannot create a C++ parser")
	}
	return &TreeParser{c: p}, nil
}

func (p *TreeParser) Close() {
	p.forget()
	if p.c != nil {
		C.ts_parser_delete(p.c)
		p.c = nil
	}
}

var emptyText [1]byte

// forget deletes the kept tree.
func (p *TreeParser) forget() {
	if p.last != nil {
		C.ts_tree_delete(p.last)
		p.last, p.lastText = nil, nil
	}
}

// edit tells the kept tree how its text became text: one edit spanning
// the first to the last byte that differ, so that it is exact whatever the
// pre-pass changed around the user's edit.
func (p *TreeParser) edit(text []byte) {
	old := p.lastText
	prefix := 0
	for prefix < len(old) && prefix < len(text) && old[prefix] == text[prefix] {
		prefix++
	}
	suffix := 0
	for suffix < len(old)-prefix && suffix < len(text)-prefix && old[len(old)-1-suffix] == text[len(text)-1-suffix] {
		suffix++
	}
	e := C.TSInputEdit{
		start_byte:    C.uint32_t(prefix),
		old_end_byte:  C.uint32_t(len(old) - suffix),
		new_end_byte:  C.uint32_t(len(text) - suffix),
		start_point:   pointAt(text, prefix),
		old_end_point: pointAt(old, len(old)-suffix),
		new_end_point: pointAt(text, len(text)-suffix),
	}
	C.ts_tree_edit(p.last, &e)
}

// pointAt is tree-sitter's row and byte column of offset off in text.
func pointAt(text []byte, off int) C.TSPoint {
	row := bytes.Count(text[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(text[:off], '\n') + 1)
	return C.TSPoint{row: C.uint32_t(row), column: C.uint32_t(col)}
}

// Parse parses text and returns its flattened tree. The tree itself is
// deleted before Parse returns, or kept for the next Parse (keep).
func (p *TreeParser) Parse(text []byte, limit time.Duration) ([]RawNode, error) {
	if len(text) >= 1<<32-1 {
		return nil, errors.New("file too large to parse (4 GiB or more)")
	}
	var count C.uint32_t
	var status C.int
	buf := text
	if len(buf) == 0 {
		buf = emptyText[:] // C needs a valid pointer even for no bytes
	}
	src := (*C.char)(unsafe.Pointer(&buf[0]))
	var old *C.TSTree
	var keep **C.TSTree
	var kept *C.TSTree
	if p.Keep {
		if p.last != nil {
			p.edit(text)
			old = p.last
		}
		keep = &kept
	}
	cnodes := C.ll_parse(p.c, old, src, C.uint32_t(len(text)), C.uint64_t(limit.Microseconds()), &count, &status, keep)
	p.forget()
	if kept != nil {
		p.last, p.lastText = kept, bytes.Clone(text)
	}
	switch status {
	case 1:
		return nil, ErrParseLimit
	case 2:
		return nil, errors.New("out of memory while reading the syntax tree")
	}
	defer C.free(unsafe.Pointer(cnodes))
	nodes := make([]RawNode, int(count))
	copy(nodes, unsafe.Slice((*RawNode)(unsafe.Pointer(cnodes)), int(count)))
	return nodes, nil
}

// ParseBare parses text with tree-sitter and frees the tree at once, with no
// pre-pass, flattening or facts: the baseline benchmarks compare against.
func (p *TreeParser) ParseBare(text []byte) error {
	n := len(text)
	buf := text
	if n == 0 {
		buf = emptyText[:]
	}
	if C.ll_parse_bare(p.c, (*C.char)(unsafe.Pointer(&buf[0])), C.uint32_t(n)) == 0 {
		return errors.New("tree-sitter returned no tree")
	}
	return nil
}
