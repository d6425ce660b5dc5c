package cudaparse

import "testing"

func TestCaptureEnd(t *testing.T) {
	f := parse(t, `
void record(cudaStream_t s, cudaGraph_t *g, bool twice) {
  first<<<1, 1, 0, s>>>();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  inside<<<1, 1, 0, s>>>();
  for (int i = 0; i < 4; ++i) {
    looped<<<1, 1, 0, s>>>();
  }
  cudaStreamEndCapture(s, g);
  after<<<1, 1, 0, s>>>();
  if (twice) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  }
  maybe<<<1, 1, 0, s>>>();
  cudaStreamEndCapture(s, g);
}
`)
	want := map[string]bool{"first": false, "inside": true, "looped": true, "after": false, "maybe": false}
	for _, l := range f.Launches {
		got := f.CaptureEnd(l.Node) != nil
		if w, ok := want[l.Kernel]; !ok || got != w {
			t.Errorf("%s: recorded in a capture %v, want %v", l.Kernel, got, w)
		}
	}
	if !f.Captures(f.FunctionNamed("record")) {
		t.Error("record begins a capture")
	}
}
