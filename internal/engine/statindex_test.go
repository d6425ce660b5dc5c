package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/fastread"
	"github.com/lazylint/lazylint/internal/rule"
)

func TestStatIndexRoundTrip(t *testing.T) {
	entries := []statEntry{
		{stamp: fastread.Stamp{Size: 12, Mtime: 1, Ctime: 2, Ino: 3, Dev: 4}, hash: 1<<64 - 1, size: 12},
		{}, // not read: left out
		{stamp: fastread.Stamp{Size: 0, Mtime: -5, Ctime: 7, Ino: 1 << 40, Dev: 9}, hash: 0, size: 0},
	}
	s := &stampedSources{sources: pathsOf([]string{"/a/b.cu", "/a/gone.cu", "/a/c.h"}, nil), fresh: entries, started: time.Now()}
	data := s.encode()
	want := &statIndex{written: s.started.UnixNano(), entries: map[string]statEntry{"/a/b.cu": entries[0], "/a/c.h": entries[2]}}
	if got := decodeStatIndex(data); !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip: %+v, want %+v", got, want)
	}
	for n := range len(data) { // every truncation is refused, none panics
		if got := decodeStatIndex(data[:n]); got != nil {
			t.Fatalf("%d of %d bytes decoded to %+v", n, len(data), got)
		}
	}
	if decodeStatIndex(append(data, 0)) != nil {
		t.Error("trailing bytes accepted")
	}
}

func TestStatIndexTrustsOnlyOldSameStamps(t *testing.T) {
	now := time.Now().UnixNano()
	old := now - int64(time.Hour)
	stamp := fastread.Stamp{Size: 10, Mtime: old, Ctime: old, Ino: 5, Dev: 1}
	ix := &statIndex{written: now, entries: map[string]statEntry{"/f.cu": {stamp: stamp, hash: 42}}}
	if e, ok := ix.unchanged("/f.cu", stamp); !ok || e.hash != 42 {
		t.Errorf("same old stamp not trusted: %+v %v", e, ok)
	}
	for name, s := range map[string]fastread.Stamp{
		"size":   {Size: 11, Mtime: old, Ctime: old, Ino: 5, Dev: 1},
		"mtime":  {Size: 10, Mtime: old + 1, Ctime: old, Ino: 5, Dev: 1},
		"ctime":  {Size: 10, Mtime: old, Ctime: old + 1, Ino: 5, Dev: 1},
		"inode":  {Size: 10, Mtime: old, Ctime: old, Ino: 6, Dev: 1},
		"device": {Size: 10, Mtime: old, Ctime: old, Ino: 5, Dev: 2},
	} {
		if _, ok := ix.unchanged("/f.cu", s); ok {
			t.Errorf("another %s trusted", name)
		}
	}
	if _, ok := ix.unchanged("/g.cu", stamp); ok {
		t.Error("a file the index does not hold trusted")
	}
	if _, ok := ix.unchanged("/f.cu", fastread.Stamp{}); ok {
		t.Error("an unknown stamp trusted")
	}
	// Changed just before the index was written: a second edit in the
	// same tick of a coarse clock would not show.
	recent := fastread.Stamp{Size: 10, Mtime: now - int64(time.Second), Ctime: now - int64(time.Second), Ino: 5, Dev: 1}
	ix.entries["/f.cu"] = statEntry{stamp: recent, hash: 42}
	if _, ok := ix.unchanged("/f.cu", recent); ok {
		t.Error("a stamp inside the racy window trusted")
	}
	var none *statIndex
	if _, ok := none.unchanged("/f.cu", stamp); ok {
		t.Error("no index trusted a file")
	}
}

// A warm run reads the files whose stamps changed, and only those; an edit
// that keeps the size and the modification time is seen (the change time
// moves), and the findings are those of a run without the cache.
func TestWarmRunReadsWhatChanged(t *testing.T) {
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = 0 // the files were written a moment ago
	dir := writeTree(t, 4)
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var trace bytes.Buffer
	run := func() Result {
		trace.Reset()
		return Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{callRule}, BaseDir: dir, Cache: c, Trace: &trace})
	}
	stamps := func() string {
		for line := range strings.Lines(trace.String()) {
			if strings.HasPrefix(line, "stamps") {
				return strings.Join(strings.Fields(line)[2:], " ")
			}
		}
		return ""
	}
	plain := func() Result { return Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{callRule}, BaseDir: dir}) }
	same := func(what string, got, want Result) {
		t.Helper()
		if !reflect.DeepEqual(got.Findings, want.Findings) || !reflect.DeepEqual(got.Suppressed, want.Suppressed) {
			t.Errorf("%s: findings %v, want %v", what, got.Findings, want.Findings)
		}
	}

	cold := run()
	if got, want := stamps(), "0 of 5 files unchanged since the last run, 5 read"; got != want {
		t.Errorf("cold run: %q, want %q", got, want)
	}
	same("cold", cold, plain())
	warm := run()
	if got, want := stamps(), "5 of 5 files unchanged since the last run, 0 read"; got != want {
		t.Errorf("warm run: %q, want %q", got, want)
	}
	same("warm", warm, plain())
	if warm.Stats.Bytes != cold.Stats.Bytes {
		t.Errorf("warm run read %d bytes, the cold one %d", warm.Stats.Bytes, cold.Stats.Bytes)
	}

	// The same size, the modification time put back: only the change
	// time tells.
	path := filepath.Join(dir, "b.cu")
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fastread.StampOf(path).Ctime%int64(time.Second) == 0 {
		time.Sleep(1100 * time.Millisecond) // a file system that counts whole seconds
	}
	text, _ := os.ReadFile(path)
	edited := bytes.Replace(text, []byte("cudaMalloc(p, 2)"), []byte("cudaMallox(p, 2)"), 1)
	if len(edited) != len(text) || bytes.Equal(edited, text) {
		t.Fatal("the edit is not what the test means")
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if !fastread.StampOf(path).Known() {
		t.Skip("this platform gives no change times: every file is read")
	}
	after := run()
	if got, want := stamps(), "4 of 5 files unchanged since the last run, 1 read"; got != want {
		t.Errorf("after an edit: %q, want %q", got, want)
	}
	same("after an edit", after, plain())
	if len(after.Findings) != len(warm.Findings)-1 {
		t.Errorf("the edit removed no finding: %d, then %d", len(warm.Findings), len(after.Findings))
	}

	// Inside the racy window nothing is trusted.
	racyWindow = time.Hour
	run()
	if got, want := stamps(), "0 of 5 files unchanged since the last run, 5 read"; got != want {
		t.Errorf("racy window: %q, want %q", got, want)
	}
}
