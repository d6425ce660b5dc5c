package cudaparse

import (
	"testing"
	"unsafe"
)

// A large project links hundreds of thousands of functions: a field added
// or moved that makes a function larger should be a choice.
func TestFunctionSummarySize(t *testing.T) {
	if n := unsafe.Sizeof(FunctionSummary{}); n > 120 {
		t.Errorf("FunctionSummary is %d bytes, was 120", n)
	}
}
