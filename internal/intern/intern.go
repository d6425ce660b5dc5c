// Package intern numbers strings: a table gives each distinct string the
// next id, so that what holds many names (a project's summaries, the names
// its scans found) holds small ids and each string once.
package intern

import (
	"sync"
	"sync/atomic"
)

// Table is a string table, safe for concurrent use. Ids are never
// reused and a string's id never changes.
type Table struct {
	mu    sync.RWMutex
	ids   map[string]uint32
	names []string
	// view is names as of the last addition, for Name without the lock
	// (a project's packed functions read their names in the link's
	// innermost loops).
	view atomic.Pointer[[]string]
}

// New returns a table holding first, with ids 0, 1, ... in order.
func New(first ...string) *Table {
	t := &Table{ids: map[string]uint32{}}
	none := t.names
	t.view.Store(&none)
	t.IDs(nil, first)
	return t
}

// IDs appends the ids of names to dst, adding the names not in the
// table. Most calls find every name already there and take only the read
// lock.
func (t *Table) IDs(dst []uint32, names []string) []uint32 {
	t.mu.RLock()
	missing := false
	for _, n := range names {
		id, ok := t.ids[n]
		missing = missing || !ok
		dst = append(dst, id)
	}
	t.mu.RUnlock()
	if !missing {
		return dst
	}
	dst = dst[:len(dst)-len(names)]
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, n := range names {
		id, ok := t.ids[n]
		if !ok {
			id = uint32(len(t.names))
			t.ids[n] = id
			t.names = append(t.names, n)
		}
		dst = append(dst, id)
	}
	view := t.names
	t.view.Store(&view)
	return dst
}

// Name returns the string of id.
func (t *Table) Name(id uint32) string {
	// An id handed out is in the view stored before IDs returned it; the
	// elements of a view never change.
	return (*t.view.Load())[id]
}

// Names returns the strings so far, by id. The slice is a snapshot: its
// elements never change, later strings are not in it.
func (t *Table) Names() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.names
}

// Share replaces each of names that the table holds by the table's own
// string, so that the copies can be freed; it adds none (a name held
// once would cost the table more than it saves).
func (t *Table) Share(names ...*string) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, n := range names {
		if id, ok := t.ids[*n]; ok {
			*n = t.names[id]
		}
	}
}
