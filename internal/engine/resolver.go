package engine

import (
	"path/filepath"
	"sync"

	"github.com/lazylint/lazylint/cudaparse"
)

// includeResolver resolves each file's #include directives to files of
// the run as the file is noted, and keeps only the files they name: the
// directives' text, kept until the link resolved it, was 55 MB of
// sixteen copies of the 38-project corpus checked as one project (two
// million directives) at the end of the per-file check, and its churn
// left spans of the heap partly empty for the rest of the run. A file's
// includes are kept as the graph keeps them (appendEdgeRun: differences
// from the file before, zigzag varints), and the graph is their runs put
// together in file order (edges). Safe for concurrent use, a file noted by one caller.
type includeResolver struct {
	sources *filePaths
	dirs    []string // the include folders (Options.IncludeDirs)
	byAbs   pathIndex
	byBase  map[string][]int32

	mu sync.Mutex
	// at is by file: where its includes lie in data (offset<<32 | length).
	at   []uint64
	data []byte
}

func newIncludeResolver(sources *filePaths, dirs []string) *includeResolver {
	n := sources.len()
	r := &includeResolver{sources: sources, dirs: dirs, byBase: map[string][]int32{}, at: make([]uint64, n)}
	r.byAbs = newPathIndex(n, sources.abs, sources.isAbs)
	for i := range n {
		name := sources.name(i)
		r.byBase[name] = append(r.byBase[name], int32(i))
	}
	return r
}

// note resolves and keeps the includes of file i (the last noted of a
// file noted twice).
func (r *includeResolver) note(i int, incs []cudaparse.Include) {
	var targets [32]int32
	to := targets[:0]
	for _, inc := range incs {
		if j := r.resolve(i, inc); j >= 0 && j != i {
			to = append(to, int32(j))
		}
	}
	var buf [64]byte
	run := appendEdgeRun(buf[:0], i, to)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(run) == 0 {
		r.at[i] = 0
		return
	}
	r.at[i] = uint64(len(r.data))<<32 | uint64(len(run))
	r.data = append(r.data, run...)
}

// resolve returns the file inc names from file i (-1: none of the run):
// beside the file when quoted, else in an include folder, else the file
// of that name whose path ends like inc nearest to file i's folder.
func (r *includeResolver) resolve(i int, inc cudaparse.Include) int {
	dir := r.sources.dir(i)
	path := filepath.FromSlash(inc.Path)
	if inc.Quoted {
		if j, ok := r.byAbs.find(filepath.Join(dir, path)); ok {
			return j
		}
	}
	for _, d := range r.dirs {
		if j, ok := r.byAbs.find(filepath.Join(d, path)); ok {
			return j
		}
	}
	return nearestBySuffix(r.sources, r.byBase[filepath.Base(inc.Path)], inc.Path, dir)
}

// edges returns the includes noted, as the graph of the files.
func (r *includeResolver) edges() edges {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := edges{start: make([]uint32, len(r.at)+1)}
	n := 0
	for _, at := range r.at {
		n += int(uint32(at))
	}
	e.data = make([]byte, 0, n)
	for i, at := range r.at {
		off := at >> 32
		e.data = append(e.data, r.data[off:off+uint64(uint32(at))]...)
		e.start[i+1] = uint32(len(e.data))
	}
	return e
}
