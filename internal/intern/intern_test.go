package intern

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// Names interned from several goroutines at once get one id each, the
// same for every caller, and read back as themselves.
func TestTableConcurrent(t *testing.T) {
	tab := New("")
	const workers, names = 4, 500
	got := make([][]uint32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var batch []string
			for k := range names {
				batch = append(batch, fmt.Sprintf("n%d", (k*7+w)%names))
			}
			got[w] = tab.IDs(nil, batch)
		})
	}
	wg.Wait()
	if n := len(tab.Names()); n != names+1 {
		t.Fatalf("%d names in the table, want %d", n, names+1)
	}
	for w := range workers {
		for k, id := range got[w] {
			if want := fmt.Sprintf("n%d", (k*7+w)%names); tab.Name(id) != want {
				t.Fatalf("worker %d name %d: id %d is %q, want %q", w, k, id, tab.Name(id), want)
			}
		}
	}
	if ids := tab.IDs(nil, []string{""}); ids[0] != 0 {
		t.Errorf("the first name's id is %d", ids[0])
	}
	if tab.IDs(nil, nil) != nil {
		t.Error("no names gave ids")
	}
}

func TestShareTakesTheTablesStringsAndAddsNone(t *testing.T) {
	tab := New("cudaLaunch", "run")
	held := tab.Name(1)
	a, b := strings.Clone("run"), "notThere"
	tab.Share(&a, &b)
	if a != "run" || unsafe.StringData(a) != unsafe.StringData(held) {
		t.Errorf("a held name is not the table's string: %q", a)
	}
	if b != "notThere" || len(tab.Names()) != 2 {
		t.Errorf("a name the table lacks changed it: %q, %d names", b, len(tab.Names()))
	}
}

// Name reads without the table's lock: names read back while other
// goroutines add more are the names given (go test -race checks the
// reads against the additions).
func TestNameWhileOthersAdd(t *testing.T) {
	tab := New()
	const workers, names = 4, 2000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range names {
				name := fmt.Sprintf("w%d-%d", w, k)
				id := tab.IDs(nil, []string{name})[0]
				if got := tab.Name(id); got != name {
					t.Errorf("id %d reads %q, want %q", id, got, name)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := len(tab.Names()); n != workers*names {
		t.Errorf("%d names in the table, want %d", n, workers*names)
	}
}
