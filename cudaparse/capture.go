package cudaparse

// Stream capture: between cudaStreamBeginCapture and cudaStreamEndCapture
// a launch is recorded into a graph, not run. Its kernel loads at capture
// time, and the graph runs later, at cudaGraphLaunch (measured on an H100,
// driver 580: capture took 0.57-0.81 ms under LAZY against 0.11-0.15 ms
// under EAGER, the first graph run 0.024-0.031 ms in both).

// captureBegins and captureEnds are the calls that start and end a
// stream capture.
var (
	captureBegins = map[string]bool{
		"cudaStreamBeginCapture": true, "cudaStreamBeginCaptureToGraph": true,
		"cuStreamBeginCapture": true, "cuStreamBeginCapture_v2": true, "cuStreamBeginCaptureToGraph": true,
	}
	captureEnds = map[string]bool{"cudaStreamEndCapture": true, "cuStreamEndCapture": true}
)

// GraphLaunches are the calls that run an instantiated graph.
var GraphLaunches = map[string]bool{"cudaGraphLaunch": true, "cuGraphLaunch": true}

// CaptureEnd returns the call that ends the stream capture n is recorded
// in: a capture begun on every path to n in n's function, not ended
// before n, and ended after it in the same function. It returns nil when n
// runs where it is written, or when the capture begins or ends out of
// sight (in a helper), where n is taken to run.
func (f *File) CaptureEnd(n Node) *Call {
	fn := f.FunctionOf(n)
	if fn == nil {
		return nil
	}
	var begin *Call
	for _, c := range f.CallsIn(fn) {
		switch {
		case c.Node.Start() >= n.Start():
		case captureBegins[c.Name] && OnTheWay(c.Node, n):
			begin = c
		case captureEnds[c.Name] && begin != nil && c.Node.Start() > begin.Node.End() && !Exclusive(c.Node, n):
			begin = nil // ended before n
		}
	}
	if begin == nil {
		return nil
	}
	for _, c := range f.CallsIn(fn) {
		if captureEnds[c.Name] && c.Node.Start() > n.End() && !Exclusive(c.Node, n) {
			return c
		}
	}
	return nil
}

// Captures reports whether fn begins a stream capture: the graphs it
// launches were recorded there, and their kernels loaded at capture time.
func (f *File) Captures(fn *Function) bool {
	for _, c := range f.CallsIn(fn) {
		if captureBegins[c.Name] {
			return true
		}
	}
	return false
}
