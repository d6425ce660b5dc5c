package cudaparse

import (
	"regexp"
	"testing"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// IsRuntimeAPI and IsDriverAPI answer as the expressions they replaced,
// on names built from every piece those expressions distinguish.
func TestAPINamesMatchTheirExpressions(t *testing.T) {
	runtime := regexp.MustCompile(`^cuda[A-Z][A-Za-z0-9]*(_v[0-9]+)?$`)
	driver := regexp.MustCompile(`^cu[A-Z][A-Za-z0-9]*(_v[0-9]+)?$`)
	heads := []string{"", "c", "cu", "cuda", "cud", "Cu", "hip", "xcuda"}
	bodies := []string{"", "A", "a", "Z", "Free", "MemAlloc", "M3m", "free", "_", "9", "Mem_Alloc", "Mé", "Malloc_v", "_v2"}
	tails := []string{"", "_v2", "_v", "_v12", "_vx", "_v2x", "_v2_v3", "v2", "_", "X"}
	n := 0
	for _, h := range heads {
		for _, b := range bodies {
			for _, tl := range tails {
				name := h + b + tl
				n++
				if got, want := IsRuntimeAPI(name), runtime.MatchString(name); got != want {
					t.Errorf("IsRuntimeAPI(%q) = %v, the expression says %v", name, got, want)
				}
				if got, want := IsDriverAPI(name), driver.MatchString(name); got != want {
					t.Errorf("IsDriverAPI(%q) = %v, the expression says %v", name, got, want)
				}
			}
		}
	}
	if !IsRuntimeAPI("cudaGetDeviceProperties_v2") || !IsDriverAPI("cuMemAlloc_v2") || IsDriverAPI("cublas") {
		t.Error("the documented examples")
	}
	t.Logf("%d names", n)
}

// isSymbolName answers as the expression it replaced.
func TestSymbolNameMatchesItsExpression(t *testing.T) {
	symbol := regexp.MustCompile(`^[A-Za-z_][\w:]*$`)
	pieces := []string{"", "a", "Z", "_", "9", "ns::k", ":", "$", "é", "k<int>", " ", "x1", "::"}
	for _, a := range pieces {
		for _, b := range pieces {
			for _, c := range pieces {
				s := a + b + c
				if got, want := isSymbolName(s), symbol.MatchString(s); got != want {
					t.Errorf("isSymbolName(%q) = %v, the expression says %v", s, got, want)
				}
			}
		}
	}
}

// The byte classes answer as the comparisons they replaced, for every byte.
func TestByteClasses(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		identStart := b == '_' || b == '$' || (b|0x20) >= 'a' && (b|0x20) <= 'z' || b >= 0x80
		if syntax.IsIdentStart(b) != identStart || syntax.IsIdentByte(b) != (identStart || b >= '0' && b <= '9') ||
			syntax.IsSpace(b) != (b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == '\v') {
			t.Errorf("byte %#x: ident start %v, ident byte %v, space %v", b, syntax.IsIdentStart(b), syntax.IsIdentByte(b), syntax.IsSpace(b))
		}
	}
}
