package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/charlievieth/fastwalk"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/lazylint/lazylint/cudaparse"
)

// ignoreTree holds the .gitignore patterns of each visited directory,
// accumulated from the repository root down. Directories are entered before
// their children are read, so a child always finds its parent's patterns.
type ignoreTree struct {
	repoRoot string // absolute; "" outside a git repository
	mu       sync.RWMutex
	byDir    map[string][]gitignore.Pattern // absolute dir -> patterns in force there
}

// RepositoryRoot returns the nearest folder at or above dir that holds a
// .git, or "" outside a repository.
func RepositoryRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return findRepoRoot(abs)
}

// findRepoRoot returns the nearest ancestor of dir (or dir) with a .git.
func findRepoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

func newIgnoreTree(absRoot string) *ignoreTree {
	t := &ignoreTree{byDir: map[string][]gitignore.Pattern{}}
	t.repoRoot = findRepoRoot(absRoot)
	if t.repoRoot == "" {
		// Not in a repository: honour the walked folder's own .gitignore
		// files, rooted at the folder.
		t.repoRoot = absRoot
	}
	// Patterns from the repository root down to the walked folder.
	var ps []gitignore.Pattern
	ps = append(ps, readPatterns(filepath.Join(t.repoRoot, ".git", "info", "exclude"), nil)...)
	rel, err := filepath.Rel(t.repoRoot, absRoot)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = "."
	}
	dir := t.repoRoot
	var domain []string
	ps = append(ps, readPatterns(filepath.Join(dir, ".gitignore"), domain)...)
	if rel != "." {
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			dir = filepath.Join(dir, part)
			domain = append(domain, part)
			ps = append(ps, readPatterns(filepath.Join(dir, ".gitignore"), domain)...)
		}
	}
	t.byDir[absRoot] = namedFolder(ps, t.components(absRoot))
	return t
}

// namedFolder drops, from the patterns in force at a folder named on the
// command line, those that ignore the folder itself or one above it: a
// folder the user names is checked, as a named file is (lazylint check
// build, with build/ in .gitignore). The patterns that ignore files inside
// it still apply.
func namedFolder(ps []gitignore.Pattern, parts []string) []gitignore.Pattern {
	if len(parts) == 0 || !gitignore.NewMatcher(ps).Match(parts, true) {
		return ps
	}
	var out []gitignore.Pattern
	for _, p := range ps {
		if !ignoresFolder(p, parts) {
			out = append(out, p)
		}
	}
	return out
}

// ignoresFolder reports whether p excludes the folder parts or a folder
// above it.
func ignoresFolder(p gitignore.Pattern, parts []string) bool {
	for i := 1; i <= len(parts); i++ {
		if p.Match(parts[:i], true) == gitignore.Exclude {
			return true
		}
	}
	return false
}

func readPatterns(path string, domain []string) []gitignore.Pattern {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, slices.Clone(domain)))
	}
	return ps
}

// components splits an absolute path below the repository root into its
// components relative to the root.
func (t *ignoreTree) components(abs string) []string {
	rel, err := filepath.Rel(t.repoRoot, abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return nil
	}
	return strings.Split(rel, string(filepath.Separator))
}

// ignored reports whether abs, an entry of directory absDir, is ignored.
func (t *ignoreTree) ignored(absDir, abs string, isDir bool) bool {
	t.mu.RLock()
	ps := t.byDir[absDir]
	t.mu.RUnlock()
	if len(ps) == 0 {
		return false
	}
	parts := t.components(abs)
	if parts == nil {
		return false
	}
	return gitignore.NewMatcher(ps).Match(parts, isDir)
}

// enter records the patterns in force in directory abs: its parent's and
// those of its own .gitignore.
func (t *ignoreTree) enter(absParent, abs string) {
	t.mu.RLock()
	ps := t.byDir[absParent]
	t.mu.RUnlock()
	if own := readPatterns(filepath.Join(abs, ".gitignore"), t.components(abs)); len(own) > 0 {
		ps = append(slices.Clip(ps), own...)
	}
	t.mu.Lock()
	t.byDir[abs] = ps
	t.mu.Unlock()
}

// walkDir walks a folder tree; tests replace it to inject errors that
// permissions cannot produce (when running as root).
var walkDir = fastwalk.Walk

// walkResult is what a walk found: source files to check, and paths that
// could not be walked.
type walkResult struct {
	files    []string
	errors   []FileError
	excluded int
	// excludedNamed are the paths named in paths that exclude left out.
	excludedNamed []string
}

// collect expands the paths given on the command line into source files.
// Files and folders named explicitly are always checked; folders are walked
// in parallel, honouring .gitignore below them and skipping .git. exclude, when set, leaves
// out files and folders by absolute path, named ones included. The result is
// sorted and free of duplicates.
func collect(paths []string, exclude func(abs string, isDir bool) bool, extra ...string) walkResult {
	var (
		mu  sync.Mutex
		res walkResult
	)
	endings := newEndings(extra)
	addErr := func(path string, err error) {
		mu.Lock()
		res.errors = append(res.errors, FileError{Path: path, Message: err.Error()})
		mu.Unlock()
	}
	excluded := func(abs string, isDir bool) bool {
		if exclude == nil || !exclude(abs, isDir) {
			return false
		}
		mu.Lock()
		res.excluded++
		mu.Unlock()
		return true
	}
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			addErr(root, cleanErr(err))
			continue
		}
		if excluded(absPath(root), info.IsDir()) {
			res.excludedNamed = append(res.excludedNamed, root)
			continue
		}
		if !info.IsDir() {
			if !isCheckable(root) && !endings.match(root) {
				addErr(root, errors.New("not a C, C++, CUDA or Go source file (want one of "+strings.Join(cudaparse.Extensions, " ")+" .go)"))
				continue
			}
			res.files = append(res.files, filepath.Clean(root))
			continue
		}
		absRoot, err := filepath.Abs(root)
		if err != nil {
			addErr(root, err)
			continue
		}
		ign := newIgnoreTree(absRoot)
		conf := fastwalk.Config{Follow: false}
		err = walkDir(&conf, root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				// A folder that cannot be read (or a file that vanished):
				// one error naming it, and the walk goes on. Not SkipDir:
				// fastwalk reports a ReadDir error after the folder was
				// entered and hands the callback's answer back from Walk,
				// which printed Go's "skip this directory" as a second error.
				addErr(path, cleanErr(err))
				return nil
			}
			if path == root {
				return nil
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err // cannot happen: path is below root
			}
			abs := filepath.Join(absRoot, rel)
			absDir := filepath.Dir(abs)
			if d.IsDir() {
				if d.Name() == ".git" || ign.ignored(absDir, abs, true) || excluded(abs, true) {
					return fastwalk.SkipDir
				}
				ign.enter(absDir, abs)
				return nil
			}
			if !d.Type().IsRegular() && d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			if !isCheckable(path) && !endings.match(path) || ign.ignored(absDir, abs, false) || excluded(abs, false) {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// Symlinks to files are checked; to folders, not followed.
				st, err := os.Stat(path)
				if err != nil {
					addErr(path, fmt.Errorf("broken symbolic link: %w", cleanErr(err)))
					return nil
				}
				if st.IsDir() {
					return nil
				}
			}
			mu.Lock()
			res.files = append(res.files, path)
			mu.Unlock()
			return nil
		})
		if err != nil && !errors.Is(err, fs.SkipDir) {
			addErr(root, cleanErr(err))
		}
	}
	res.files = dedupe(res.files)
	sort.Slice(res.errors, func(i, j int) bool { return res.errors[i].Path < res.errors[j].Path })
	return res
}

// endings decides the files checked for their ending beyond
// cudaparse.Extensions: those the configuration names (extensions:), and
// by default the include-style endings of CUDA code (.cuinc always; .inc,
// .impl, .ipp, .tcc, .inl-like .cuinl) when their folder holds a .cu or
// .cuh file.
type endings struct {
	extra map[string]bool
	mu    sync.Mutex
	cuda  map[string]bool // folder -> holds a .cu/.cuh file
}

// besideCUDA are the endings checked by default next to CUDA sources.
var besideCUDA = map[string]bool{".inc": true, ".impl": true, ".ipp": true, ".tcc": true, ".cuinl": true}

func newEndings(extra []string) *endings {
	e := &endings{extra: map[string]bool{".cuinc": true}, cuda: map[string]bool{}}
	for _, x := range extra {
		e.extra[strings.ToLower(x)] = true
	}
	return e
}

func (e *endings) match(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	if e.extra[ext] {
		return true
	}
	if !besideCUDA[ext] {
		return false
	}
	dir := filepath.Dir(path)
	e.mu.Lock()
	defer e.mu.Unlock()
	has, seen := e.cuda[dir]
	if !seen {
		entries, _ := os.ReadDir(dir)
		for _, d := range entries {
			if x := strings.ToLower(filepath.Ext(d.Name())); x == ".cu" || x == ".cuh" {
				has = true
				break
			}
		}
		e.cuda[dir] = has
	}
	return has
}

// Checkable reports whether a folder walk with the configuration's extra
// file endings takes path: the usual endings, .go, and the endings of
// CUDA code collect takes (.cuinc; .inc and the like beside .cu files).
func Checkable(path string, extensions []string) bool {
	return isCheckable(path) || newEndings(extensions).match(path)
}

// isCheckable reports whether lazylint checks files like path: C, C++ and
// CUDA sources, and Go files (those that import "C" are checked).
func isCheckable(path string) bool {
	return cudaparse.IsSource(path) || strings.HasSuffix(path, ".go")
}

// dedupe sorts paths and drops those that name a file already listed
// (hazard.cu, ./hazard.cu and its absolute path are one file).
func dedupe(paths []string) []string {
	for i, p := range paths {
		paths[i] = filepath.Clean(p)
	}
	sort.Strings(paths)
	wd, _ := os.Getwd()
	seen := map[string]bool{}
	out := paths[:0]
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(p) {
			abs = filepath.Join(wd, p)
		}
		if !seen[abs] {
			seen[abs] = true
			out = append(out, p)
		}
	}
	return out
}

// cleanErr drops the path from *PathError, which the report prints anyway.
func cleanErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
