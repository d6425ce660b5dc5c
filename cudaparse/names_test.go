package cudaparse

import (
	"reflect"
	"testing"
)

// Calls with explicit template arguments are calls of the name; casts,
// comparisons and shifts are not.
func TestScanNamesTemplateCalls(t *testing.T) {
	src := []byte(`void run(G g) {
  launch<4096>(g);
  launch_tk<fft_template<1024>::layout, 4>(g, 2);
  auto p = reinterpret_cast<const void *>(&g);
  if (a < b && c > (d)) {}
  x = y << 2 >> (z);
}
template <int N> void launch(G g) { k<<<1, 1>>>(g); }
`)
	got := ScanNames(src)
	if want := []string{"launch", "launch_tk"}; !reflect.DeepEqual(got.Calls, want) {
		t.Errorf("calls %v, want %v", got.Calls, want)
	}
	if want := []string{"run", "launch"}; !reflect.DeepEqual(got.Defines, want) {
		t.Errorf("defines %v, want %v", got.Defines, want)
	}
}
