package engine

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFileEndings checks which files a folder walk takes beyond the usual
// endings: .cuinc always, .inc/.impl beside CUDA sources, and the
// configuration's extensions.
func TestFileEndings(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"cuda/kernels.cu":         "__global__ void k() {}\n",
		"cuda/kernels_impl.inc":   "__global__ void k2() {}\n",
		"cuda/dispatch.impl":      "void f() {}\n",
		"cuda/shared.cuinc":       "void g() {}\n",
		"host/table.inc":          "1, 2, 3,\n",
		"host/notes.txt":          "text\n",
		"other/gemm.cuimpl":       "void h() {}\n",
		"other/gemm_shapes.cuinc": "void i() {}\n",
	})
	rel := func(files []string) string {
		var out []string
		for _, f := range files {
			r, _ := filepath.Rel(dir, f)
			out = append(out, filepath.ToSlash(r))
		}
		return strings.Join(out, " ")
	}
	if got, want := rel(collect([]string{dir}, nil).files), "cuda/dispatch.impl cuda/kernels.cu cuda/kernels_impl.inc cuda/shared.cuinc other/gemm_shapes.cuinc"; got != want {
		t.Errorf("default endings:\n got %s\nwant %s", got, want)
	}
	if got, want := rel(collect([]string{dir}, nil, ".cuimpl").files), "cuda/dispatch.impl cuda/kernels.cu cuda/kernels_impl.inc cuda/shared.cuinc other/gemm.cuimpl other/gemm_shapes.cuinc"; got != want {
		t.Errorf("with .cuimpl:\n got %s\nwant %s", got, want)
	}
}
