package analyzers

import (
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// A cgo preamble often only declares the C functions a package calls; they
// are defined in .cu files built by nvcc into a library the package links
// (`cudaError_t vector_add(uint32_t *a, ...);` in the preamble, its body in
// ../cu/vector_add.cuh). Whether such a function launches a kernel is read
// from those sources: the files of the package's folder and of the folders
// its #cgo CFLAGS name with -I. A definition whose body uses <<<>>> or a
// launch API launches.

// cgoDirective matches a #cgo line of compiler flags in a preamble.
var cgoDirective = regexp.MustCompile(`(?m)^[ \t]*#cgo[ \t]+(?:[^:\n]*[ \t])?(?:CFLAGS|CPPFLAGS|CXXFLAGS):(.*)$`)

// cSourceExtensions are the files searched for definitions.
var cSourceExtensions = map[string]bool{".cu": true, ".cuh": true, ".c": true, ".cc": true, ".cpp": true, ".cxx": true, ".h": true, ".hpp": true, ".inl": true}

const (
	maxCSourceBytes = 1 << 20
	maxCSourceFiles = 200
)

// sourceLaunchers returns the functions the cgo files of the package (in
// dir) declare without defining that launch kernels in the C sources.
func sourceLaunchers(dir string, files []*srcFile) map[string]bool {
	wanted, flags := declaredElsewhere(files)
	if len(wanted) == 0 {
		return nil
	}
	out := map[string]bool{}
	seen := 0
	for _, d := range includeDirs(dir, flags) {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() || !cSourceExtensions[strings.ToLower(filepath.Ext(e.Name()))] || seen >= maxCSourceFiles {
				continue
			}
			seen++
			if info, err := e.Info(); err != nil || info.Size() > maxCSourceBytes {
				continue
			}
			if src, err := os.ReadFile(filepath.Join(d, e.Name())); err == nil {
				definedLaunchers(string(src), wanted, out)
			}
		}
	}
	return out
}

// declaredElsewhere returns the C functions the preambles declare whose
// names do not say whether they launch (not CUDA's own, not launch_...),
// and the preambles' #cgo compiler flags.
func declaredElsewhere(files []*srcFile) (map[string]bool, []string) {
	wanted := map[string]bool{}
	var flags []string
	for _, sf := range files {
		if !sf.cgo {
			continue
		}
		for _, cg := range preambles(sf.file) {
			text := cg.Text()
			for _, m := range preambleDeclaration.FindAllStringSubmatch(text, -1) {
				if !touchesCUDA(m[1]) && !launcherName.MatchString(m[1]) {
					wanted[m[1]] = true
				}
			}
			for _, m := range cgoDirective.FindAllStringSubmatch(text, -1) {
				flags = append(flags, strings.Fields(m[1])...)
			}
		}
	}
	return wanted, flags
}

// includeDirs are the package's folder and the -I folders of its flags.
func includeDirs(dir string, flags []string) []string {
	out := []string{dir}
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if !strings.HasPrefix(f, "-I") {
			continue
		}
		p := strings.TrimPrefix(f, "-I")
		if p == "" && i+1 < len(flags) {
			i++
			p = flags[i]
		}
		p = strings.ReplaceAll(strings.Trim(p, `"'`), "${SRCDIR}", dir)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		out = append(out, filepath.Clean(p))
	}
	sort.Strings(out[1:])
	return out
}

// cDefinition matches the start of a C function definition.
var cDefinition = regexp.MustCompile(`\b([A-Za-z_]\w*)\s*\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*(?:const\s*)?\{`)

// definedLaunchers marks in out the wanted functions src defines with a
// body that launches.
func definedLaunchers(src string, wanted, out map[string]bool) {
	for _, loc := range cDefinition.FindAllStringSubmatchIndex(src, -1) {
		name := src[loc[2]:loc[3]]
		if !wanted[name] || out[name] {
			continue
		}
		if launchesIn(blockAt(src, loc[1]-1)) {
			out[name] = true
		}
	}
}

// blockAt returns the braced block that starts at src[open].
func blockAt(src string, open int) string {
	depth := 0
	for i := open; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[open : i+1]
			}
		}
	}
	return src[open:]
}

// launchesIn reports whether C code launches a kernel.
func launchesIn(body string) bool {
	if strings.Contains(body, "<<<") {
		return true
	}
	for api := range knowledge.LaunchAPIs {
		if strings.Contains(body, api+"(") {
			return true
		}
	}
	return false
}

// fileDir is the folder of a file of the pass.
func fileDir(s *Summary, f *ast.File) string {
	if s.fset == nil {
		return ""
	}
	return filepath.Dir(s.fset.Position(f.Package).Filename)
}
