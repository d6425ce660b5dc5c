package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// A compile database (compile_commands.json, from CMake's
// CMAKE_EXPORT_COMPILE_COMMANDS or Bear) says where each file's headers
// are: its -I, -iquote and -isystem folders. lazylint needs no build, so
// the database only helps resolve #include; its -D definitions that rename
// a call (`-DgpuMalloc=cudaMalloc`) are applied like a header's macros.

// CompileDB is what lazylint takes from a compile database.
type CompileDB struct {
	// IncludeDirs are every include folder named, in first-seen order.
	IncludeDirs []string
	// Macros are the renaming -D definitions.
	Macros []cudaparse.Macro
}

type compileCommand struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// ReadCompileDB reads a compile_commands.json. Include folders are the
// union over all entries: a header is looked for in the project's files
// only, so a folder of another target costs nothing.
func ReadCompileDB(path string) (*CompileDB, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cmds []compileCommand
	if err := json.Unmarshal(data, &cmds); err != nil {
		return nil, fmt.Errorf("%s: not a compile database: %w", path, err)
	}
	db := &CompileDB{}
	seenDir := map[string]bool{}
	seenMacro := map[string]bool{}
	for _, c := range cmds {
		args := c.Arguments
		if len(args) == 0 {
			args = splitCommand(c.Command)
		}
		dir := c.Directory
		if dir == "" {
			dir = filepath.Dir(path)
		}
		for i := 0; i < len(args); i++ {
			a := args[i]
			var value string
			var flag string
			for _, f := range []string{"-I", "-iquote", "-isystem", "-D"} {
				if a == f && i+1 < len(args) {
					flag, value = f, args[i+1]
					i++
					break
				}
				if strings.HasPrefix(a, f) && len(a) > len(f) {
					flag, value = f, a[len(f):]
					break
				}
			}
			switch flag {
			case "":
			case "-D":
				name, body, _ := strings.Cut(value, "=")
				m := cudaparse.Macro{Name: name, Body: body}
				if open := strings.IndexByte(name, '('); open > 0 && strings.HasSuffix(name, ")") {
					m.Name, m.FunctionLike = name[:open], true
					for _, p := range strings.Split(name[open+1:len(name)-1], ",") {
						m.Params = append(m.Params, strings.TrimSpace(p))
					}
				}
				if key := m.Name + "=" + m.Body; m.Relevant() && !seenMacro[key] {
					seenMacro[key] = true
					db.Macros = append(db.Macros, m)
				}
			default:
				if !filepath.IsAbs(value) {
					value = filepath.Join(dir, value)
				}
				value = filepath.Clean(value)
				if !seenDir[value] {
					seenDir[value] = true
					db.IncludeDirs = append(db.IncludeDirs, value)
				}
			}
		}
	}
	return db, nil
}

// splitCommand splits a shell command line on blanks, honouring single and
// double quotes and backslashes (what compile databases use).
func splitCommand(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// FindCompileDB looks for compile_commands.json in root and in root/build,
// the places CMake users put it; "" when there is none.
func FindCompileDB(root string) string {
	for _, p := range []string{filepath.Join(root, "compile_commands.json"), filepath.Join(root, "build", "compile_commands.json")} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}
