package link

import (
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
)

// parse parses src as a CUDA file.
func parse(t *testing.T, src string) *cudaparse.File {
	t.Helper()
	p, err := cudaparse.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	f, err := p.Parse("test.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A parsed file's summary lists its functions that do nothing a caller
// needs, so that a call from the file reaches its own function and not
// another file's of the same name. A CPU reference beside a CUDA version
// (llm.c's train_gpt2.c and the layers of its CUDA headers): its forward
// pass calls plain loops, and the header's functions of those names
// launch.
func TestSummaryKeepsLeafFunctions(t *testing.T) {
	cpu := parse(t, `
void scale_forward(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++) out[i] = 0.5f * in[i];
}
void model_forward(float *out, const float *in) { scale_forward(out, in, 16); }
`).Summary()
	cpu.Path = "model.c"
	gpu := parse(t, `
__global__ void scale_kernel(float *out, const float *in, int n) { out[threadIdx.x] = in[threadIdx.x]; }
void scale_forward(float *out, const float *in, int n) { scale_kernel<<<1, 32>>>(out, in, n); }
`).Summary()
	gpu.Path = "kernels.cuh"
	p := NewProject([]*cudaparse.FileSummary{cpu, gpu})
	callee := p.ResolveCall("", "scale_forward", "", 3, false, "model.c")
	if callee == nil || callee.File() != "model.c" {
		t.Fatalf("scale_forward called from model.c resolves to %+v, want model.c's own", callee)
	}
	forward := p.ResolveCall("", "model_forward", "", 2, false, "model.c")
	if forward == nil {
		t.Fatal("model_forward not found")
	}
	if k := p.Kernels(forward); !k.Empty() {
		t.Errorf("model.c's model_forward loads %+v, want nothing", k)
	}
}
