package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

const cudaHead = `#include <cuda_runtime.h>
void g(void **arena) {
  size_t free_bytes, total_bytes;
  cudaMemGetInfo(&free_bytes, &total_bytes);
`

// TestSuppressEdit checks each way of writing a suppression comment the
// way it must work: the file is checked, the edit applied, and the file
// checked again, with engine.CheckSource as the server does.
func TestSuppressEdit(t *testing.T) {
	for _, c := range []struct {
		name, file, text string
		rule             string
		want             string // the edited line(s), "" for no action
	}{
		{
			name: "end of line", file: "a.cu", rule: "LL001",
			text: cudaHead + "  cudaMalloc(arena, free_bytes);   \n}\n",
			want: "  cudaMalloc(arena, free_bytes); // NOLINT(lazylint-LL001)\n",
		},
		{
			name: "CRLF", file: "a.cu", rule: "LL001",
			text: strings.ReplaceAll(cudaHead+"  cudaMalloc(arena, free_bytes);\n}\n", "\n", "\r\n"),
			want: "  cudaMalloc(arena, free_bytes); // NOLINT(lazylint-LL001)\r\n",
		},
		{
			name: "continued line", file: "a.cu", rule: "LL001",
			text: cudaHead + "  cudaMalloc(arena, \\\n             free_bytes);\n}\n",
			want: "  cudaMalloc(arena, /* NOLINT(lazylint-LL001) */ \\\n",
		},
		{
			name: "block comment opened on the line", file: "a.cu", rule: "LL001",
			text: cudaHead + "  /* a comment\n   */ cudaMalloc(arena, free_bytes); /* another\n   that goes on */\n}\n",
			want: "   */ cudaMalloc(arena, free_bytes); /* another // NOLINT(lazylint-LL001)\n",
		},
		{
			name: "raw string at the end of the line", file: "a.cu", rule: "LL001",
			text: cudaHead + "  cudaMalloc(arena, free_bytes); const char *b = R\"(\n)\";\n}\n",
			want: "  // NOLINTNEXTLINE(lazylint-LL001)\n  cudaMalloc(arena, free_bytes); const char *b = R\"(\n",
		},
		{
			name: "raw strings on both sides", file: "a.cu", rule: "LL001",
			text: cudaHead + "  const char *a = R\"(\n)\"; cudaMalloc(arena, free_bytes); const char *b = R\"(\n)\";\n}\n",
			want: ")\"; /* NOLINT(lazylint-LL001) */ cudaMalloc(arena, free_bytes); const char *b = R\"(\n",
		},
		{
			name: "Go code", file: "m.go", rule: "LL006",
			text: "package m\n\n// typedef int M;\n// static int cuModuleGetLoadingMode(M *m) { return 0; }\nimport \"C\"\n\nfunc f() {\n\tvar m C.M\n\tC.cuModuleGetLoadingMode(&m)\n}\n",
			want: "\tC.cuModuleGetLoadingMode(&m) //nolint:lazylint\n",
		},
		{
			name: "cgo preamble of // comments", file: "m.go", rule: "LL001",
			text: "package m\n\n// #include <stddef.h>\n// static int cudaMemGetInfo(size_t *f, size_t *t) { return 0; }\n// static int cudaMalloc(void **p, size_t n) { return 0; }\n// static void *grab(void) {\n//   size_t f, t; cudaMemGetInfo(&f, &t);\n//   void *p; cudaMalloc(&p, f);\n//   return p;\n// }\nimport \"C\"\n",
			want: "//   void *p; cudaMalloc(&p, f); // NOLINT(lazylint-LL001)\n",
		},
		{
			name: "cgo preamble in one block comment", file: "m.go", rule: "LL001",
			text: "package m\n\n/*\n#include <stddef.h>\nstatic int cudaMemGetInfo(size_t *f, size_t *t) { return 0; }\nstatic int cudaMalloc(void **p, size_t n) { return 0; }\nstatic void *grab(void) {\n  size_t f, t; cudaMemGetInfo(&f, &t);\n  void *p; cudaMalloc(&p, f);\n  return p;\n}\n*/\nimport \"C\"\n",
			want: "",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, c.file)
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			opts := engine.Options{Rules: rules.All, BaseDir: dir}
			r := rules.ByID(c.rule)
			f := findingOf(t, engine.CheckSource(opts, path, []byte(c.text)), r)
			if f == nil {
				t.Fatalf("no %s finding in\n%s", c.rule, c.text)
			}
			at := newTextIndex(c.text).enginePos(f.Start)
			title, edit, ok := suppressEdit(c.text, strings.HasSuffix(c.file, ".go"), r, f.Start.Line, at)
			if c.want == "" {
				if ok {
					t.Fatalf("want no action, got %q: %+v", title, edit)
				}
				return
			}
			if !ok {
				t.Fatal("no suppression offered")
			}
			edited, err := rule.ApplyEdits([]byte(c.text), []rule.TextEdit{edit})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(edited), c.want) {
				t.Errorf("%q gave\n%s\nwant a line %q", title, edited, c.want)
			}
			res := engine.CheckSource(opts, path, edited)
			if g := findingOf(t, res, r); g != nil {
				t.Errorf("%s still found after %q:\n%s", c.rule, title, edited)
			}
			for _, g := range res.Findings {
				if g.Rule.ID == "LL000" {
					t.Errorf("the comment is malformed: %s", g.Message)
				}
			}
			if res.Err != nil {
				t.Errorf("check: %s", res.Err.Message)
			}
		})
	}
}

func findingOf(t *testing.T, res engine.FileResult, r *rule.Rule) *engine.Finding {
	t.Helper()
	if r == nil {
		t.Fatal("no such rule")
	}
	for i := range res.Findings {
		if res.Findings[i].Rule == r {
			return &res.Findings[i]
		}
	}
	return nil
}
