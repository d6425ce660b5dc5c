package metamorphic

import (
	"fmt"
	"sort"
	"strings"
)

// A variant's files are built from pieces: literal text, or a copy of a
// range of an original file. Copies are what let a finding of the original
// be followed to the variant: a byte that was copied lands where its copy
// is, whatever moved around it.

// piece is literal text, or (when from is set) a copy of the original
// file from's bytes [start, end).
type piece struct {
	text       string
	from       string
	start, end int
}

func lit(s string) piece { return piece{text: s} }

// cp copies the original file path's bytes [start, end).
func cp(path string, start, end int) piece { return piece{from: path, start: start, end: end} }

// edit replaces the bytes [start, end) of one original file by pieces.
type edit struct {
	start, end int
	pieces     []piece
	// anchor: a finding inside [start, end) may also land where the
	// replacement begins, even when its bytes were copied elsewhere (a
	// statement moved into a helper: the finding may stay at the call).
	anchor bool
}

// rewrite collects the edits of one variant: to the original files, and
// the files it adds.
type rewrite struct {
	orig  map[string][]byte
	edits map[string][]edit
	added map[string][]piece
	order []string // added files, in the order they were added
}

func newRewrite(orig map[string][]byte) *rewrite {
	return &rewrite{orig: orig, edits: map[string][]edit{}, added: map[string][]piece{}}
}

// replace replaces path's bytes [start, end) by pieces.
func (r *rewrite) replace(path string, start, end int, pieces ...piece) {
	r.edits[path] = append(r.edits[path], edit{start: start, end: end, pieces: pieces})
}

// move replaces path's bytes [start, end) by pieces, remembering that a
// finding in the range may land at the replacement as well as at its
// copies.
func (r *rewrite) move(path string, start, end int, pieces ...piece) {
	r.edits[path] = append(r.edits[path], edit{start: start, end: end, pieces: pieces, anchor: true})
}

// insert inserts pieces at offset at of path.
func (r *rewrite) insert(path string, at int, pieces ...piece) { r.replace(path, at, at, pieces...) }

// addFile adds a file made of pieces.
func (r *rewrite) addFile(path string, pieces ...piece) {
	if _, ok := r.added[path]; !ok {
		r.order = append(r.order, path)
	}
	r.added[path] = append(r.added[path], pieces...)
}

// placement says where a copied range of an original file landed.
type placement struct {
	from       string
	start, end int // in the original
	to         string
	at         int // in the variant
}

// built is a rewrite applied: the variant's files and where each copied
// or replaced range of the originals went.
type built struct {
	files   map[string][]byte
	copies  []placement
	replace []placement // replaced ranges, with where their replacement starts
	anchors []placement // the replaced ranges whose findings may stay at the replacement
}

// build applies the edits. Overlapping edits make it fail: the
// transformation does not apply.
func (r *rewrite) build() (*built, error) {
	b := &built{files: map[string][]byte{}}
	paths := make([]string, 0, len(r.orig))
	for p := range r.orig {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		src := r.orig[path]
		edits := append([]edit(nil), r.edits[path]...)
		sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
		var out strings.Builder
		at := 0
		for _, e := range edits {
			if e.start < at || e.end < e.start || e.end > len(src) {
				return nil, fmt.Errorf("%s: edit %d-%d overlaps another", path, e.start, e.end)
			}
			b.copy(&out, path, path, src, at, e.start)
			if e.end > e.start {
				pl := placement{from: path, start: e.start, end: e.end, to: path, at: out.Len()}
				b.replace = append(b.replace, pl)
				if e.anchor {
					b.anchors = append(b.anchors, pl)
				}
			}
			if err := b.write(&out, path, e.pieces, r.orig); err != nil {
				return nil, err
			}
			at = e.end
		}
		b.copy(&out, path, path, src, at, len(src))
		b.files[path] = []byte(out.String())
	}
	for _, path := range r.order {
		if _, clash := r.orig[path]; clash {
			return nil, fmt.Errorf("%s exists already", path)
		}
		var out strings.Builder
		if err := b.write(&out, path, r.added[path], r.orig); err != nil {
			return nil, err
		}
		b.files[path] = []byte(out.String())
	}
	return b, nil
}

// copy writes from's bytes [start, end) (src) at the end of out, and
// records where they landed.
func (b *built) copy(out *strings.Builder, to, from string, src []byte, start, end int) {
	if end <= start {
		return
	}
	b.copies = append(b.copies, placement{from: from, start: start, end: end, to: to, at: out.Len()})
	out.Write(src[start:end])
}

func (b *built) write(out *strings.Builder, to string, pieces []piece, orig map[string][]byte) error {
	for _, p := range pieces {
		if p.from == "" {
			out.WriteString(p.text)
			continue
		}
		src, ok := orig[p.from]
		if !ok || p.start < 0 || p.end < p.start || p.end > len(src) {
			return fmt.Errorf("copy of %s %d-%d out of range", p.from, p.start, p.end)
		}
		b.copy(out, to, p.from, src, p.start, p.end)
	}
	return nil
}

// Loc is a line of a file of a variant.
type Loc struct {
	Path string
	Line int
}

// where returns the places a finding at byte off of the original file path
// may be reported in the variant: where its byte was copied, or where the
// replacement of its byte begins when it was not copied (a renamed
// identifier) or when the edit anchors it (a statement moved into a helper
// may be reported at the call).
func (b *built) where(path string, off int) []Loc {
	var out []Loc
	add := func(file string, at int) {
		l := Loc{file, lineOf(b.files[file], at)}
		for _, x := range out {
			if x == l {
				return
			}
		}
		out = append(out, l)
	}
	for _, c := range b.copies {
		if c.from == path && c.start <= off && off < c.end {
			add(c.to, c.at+off-c.start)
		}
	}
	anchored := false
	for _, a := range b.anchors {
		if a.from == path && a.start <= off && off < a.end {
			add(a.to, a.at)
			anchored = true
		}
	}
	if len(out) == 0 && !anchored {
		for _, rp := range b.replace {
			if rp.from == path && rp.start <= off && off < rp.end {
				add(rp.to, rp.at)
			}
		}
	}
	return out
}

// lineOf is the 1-based line of byte offset off of src.
func lineOf(src []byte, off int) int {
	off = min(max(off, 0), len(src))
	return strings.Count(string(src[:off]), "\n") + 1
}
