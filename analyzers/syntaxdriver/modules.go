package syntaxdriver

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Import paths come from the module files the tree holds: go.mod gives a
// folder's module path (and `replace` directives with local paths map
// other modules to folders), go.work's `use` lines name the folders of the
// other modules of the workspace. A folder under no go.mod (a tree copied
// without its module file) gets its path from the imports of the tree
// itself: a package imported as "example.com/m/cuda" from the tree, with a
// folder cuda/ under the folder A, makes A the module example.com/m.

// module is a module's path and root folder.
type module struct {
	path, dir string
}

// modules finds and caches module roots.
type modules struct {
	read func(string) ([]byte, error)
	// byDir caches the module of a folder (nil: none above it).
	byDir map[string]*module
	// known are the modules found so far, with those go.work and replace
	// directives name, by path.
	known map[string]*module
	// works caches go.work files read, by folder.
	works map[string]bool
}

func newModules(read func(string) ([]byte, error)) *modules {
	return &modules{read: read, byDir: map[string]*module{}, known: map[string]*module{}, works: map[string]bool{}}
}

// of returns the module whose root is dir or above it, or nil.
func (m *modules) of(dir string) *module {
	if mod, ok := m.byDir[dir]; ok {
		return mod
	}
	var mod *module
	if data, err := m.read(filepath.Join(dir, "go.mod")); err == nil {
		mod = m.parseMod(dir, data)
		m.workAbove(dir)
	} else if parent := filepath.Dir(dir); parent != dir {
		mod = m.of(parent)
	}
	m.byDir[dir] = mod
	return mod
}

// parseMod reads a go.mod: its module path and local replacements.
func (m *modules) parseMod(dir string, data []byte) *module {
	mod := &module{dir: dir}
	for _, d := range directives(string(data)) {
		switch {
		case d[0] == "module" && len(d) > 1:
			mod.path = unquote(d[1])
		case d[0] == "replace":
			// replace A [v] => B [v]
			arrow := indexOf(d, "=>")
			if arrow < 2 || arrow+1 >= len(d) {
				continue
			}
			to := unquote(d[arrow+1])
			if isLocalPath(to) {
				m.note(unquote(d[1]), filepath.Join(dir, filepath.FromSlash(to)))
			}
		}
	}
	if mod.path == "" {
		return nil
	}
	if _, ok := m.known[mod.path]; !ok {
		m.known[mod.path] = mod
	}
	return mod
}

// note records a module path's folder (from go.work or a replace).
func (m *modules) note(modPath, dir string) {
	if _, ok := m.known[modPath]; !ok && modPath != "" {
		m.known[modPath] = &module{path: modPath, dir: dir}
	}
}

// workAbove reads the go.work at dir or above it, once.
func (m *modules) workAbove(dir string) {
	for d := dir; ; d = filepath.Dir(d) {
		if done, ok := m.works[d]; ok && done {
			return
		}
		m.works[d] = true
		if data, err := m.read(filepath.Join(d, "go.work")); err == nil {
			for _, dd := range directives(string(data)) {
				if dd[0] == "use" && len(dd) > 1 {
					use := filepath.Join(d, filepath.FromSlash(unquote(dd[1])))
					if mod, err := m.read(filepath.Join(use, "go.mod")); err == nil {
						m.parseMod(use, mod)
					}
				}
			}
			return
		}
		if filepath.Dir(d) == d {
			return
		}
	}
}

// importPath returns the import path of the package in dir, when a module
// covers it.
func (m *modules) importPath(dir string) (string, bool) {
	mod := m.of(dir)
	if mod == nil {
		return "", false
	}
	rel, err := filepath.Rel(mod.dir, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false
	}
	if rel == "." {
		return mod.path, true
	}
	return mod.path + "/" + filepath.ToSlash(rel), true
}

// dirOf returns the folder of an import path in a known module, or "".
func (m *modules) dirOf(importPath string) string {
	best := ""
	for p := range m.known {
		if (importPath == p || strings.HasPrefix(importPath, p+"/")) && len(p) > len(best) {
			best = p
		}
	}
	if best == "" {
		return ""
	}
	return filepath.Join(m.known[best].dir, filepath.FromSlash(strings.TrimPrefix(importPath[len(best):], "/")))
}

// directives splits a go.mod or go.work into directives, one per line,
// blocks (`replace ( ... )`) unfolded, comments dropped.
func directives(text string) [][]string {
	var out [][]string
	block := ""
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case block != "" && f[0] == ")":
			block = ""
		case block != "":
			out = append(out, append([]string{block}, f...))
		case len(f) == 2 && f[1] == "(":
			block = f[0]
		default:
			out = append(out, f)
		}
	}
	return out
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func unquote(s string) string { return strings.Trim(s, "\"`") }

func isLocalPath(p string) bool {
	return strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p) || p == "." || p == ".."
}

// inferPaths gives import paths to the folders no go.mod covers, from the
// imports of the files under them: each import that names a folder under
// an ancestor A (A/cuda for "example.com/m/cuda") votes for A being the
// module "example.com/m"; the best voted roots win, largest first.
func inferPaths(dirs map[string]bool, imports map[string][]string) map[string]string {
	votes := rootVotes(dirs, imports)
	roots := make([]root, 0, len(votes))
	for r := range votes {
		roots = append(roots, r)
	}
	sort.Slice(roots, func(i, j int) bool {
		if len(votes[roots[i]]) != len(votes[roots[j]]) {
			return len(votes[roots[i]]) > len(votes[roots[j]])
		}
		if roots[i].dir != roots[j].dir {
			return len(roots[i].dir) > len(roots[j].dir)
		}
		return roots[i].path < roots[j].path
	})
	out := map[string]string{}
	taken := map[string]bool{}
	for _, r := range roots {
		if !taken[r.dir] {
			taken[r.dir] = true
			r.assign(dirs, out)
		}
	}
	return out
}

// root is a folder taken to be a module's root, and the module's path.
type root struct{ dir, path string }

// rootVotes counts, for each candidate root, the folders whose import
// from the tree it explains.
func rootVotes(dirs map[string]bool, imports map[string][]string) map[root]map[string]bool {
	top := commonDir(dirs)
	votes := map[root]map[string]bool{}
	for fileDir, paths := range imports {
		for _, p := range paths {
			elems := strings.Split(p, "/")
			for a := fileDir; ; a = filepath.Dir(a) {
				for k := 1; k < len(elems); k++ {
					d := filepath.Join(a, filepath.FromSlash(strings.Join(elems[len(elems)-k:], "/")))
					if !dirs[d] {
						continue
					}
					r := root{a, strings.Join(elems[:len(elems)-k], "/")}
					if votes[r] == nil {
						votes[r] = map[string]bool{}
					}
					votes[r][d] = true
				}
				if a == top || filepath.Dir(a) == a {
					break
				}
			}
		}
	}
	return votes
}

// assign gives the folders under the root that have no path yet theirs.
func (r root) assign(dirs map[string]bool, out map[string]string) {
	for d := range dirs {
		rel, err := filepath.Rel(r.dir, d)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if _, done := out[d]; done {
			continue
		}
		if rel == "." {
			out[d] = r.path
		} else {
			out[d] = path.Join(r.path, filepath.ToSlash(rel))
		}
	}
}

// commonDir is the deepest folder above (or equal to) every folder of
// dirs: ancestors above it are not looked at.
func commonDir(dirs map[string]bool) string {
	top := ""
	for d := range dirs {
		if top == "" {
			top = d
			continue
		}
		for top != d && !strings.HasPrefix(d, top+string(os.PathSeparator)) && filepath.Dir(top) != top {
			top = filepath.Dir(top)
		}
	}
	return top
}
