package engine

import (
	"reflect"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
)

// The classes a scan kept read back as they were scanned, in order, the
// names shared among files.
func TestPackedClassesReadBack(t *testing.T) {
	names := newInterner()
	scanned := cudaparse.ScanClassBases([]byte(`
struct Base { virtual void run(); };
class Timer : public Base, private Clock { };
template <typename T> struct Solver : Timer { };
struct Plain { };
class Leaf final : public Solver<float> { };
`))
	if len(scanned) < 3 {
		t.Fatalf("the scan found %d classes with bases, want at least 3: %v", len(scanned), scanned)
	}
	// A class with no bases in the list too, as another caller may pack.
	scanned = append(scanned, cudaparse.ClassBases{Class: "Alone"})
	other := packClasses(names, []cudaparse.ClassBases{{Class: "Timer", Bases: []string{"Base"}}})
	packed := packClasses(names, scanned)
	var got []cudaparse.ClassBases
	eachClass(names, packed, func(class string, ids []nameID) {
		c := cudaparse.ClassBases{Class: class}
		for _, id := range ids {
			c.Bases = append(c.Bases, names.name(id))
		}
		got = append(got, c)
	})
	if !reflect.DeepEqual(got, scanned) {
		t.Errorf("read back\n%v\nwant\n%v", got, scanned)
	}
	if scanned[0].Class != "Timer" || other[0] != packed[0] {
		t.Errorf("Timer's ids: %d in one file, %d in another (first class %q)", other[0], packed[0], scanned[0].Class)
	}
}
