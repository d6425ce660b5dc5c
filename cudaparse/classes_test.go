package cudaparse

import (
	"bytes"
	"reflect"
	"testing"
)

func TestScanClassBases(t *testing.T) {
	tests := []struct {
		src  string
		want []ClassBases
	}{
		{"class D : public B<T>, private ns::C {};", []ClassBases{{"D", []string{"B", "C"}}}},
		{"struct S final : Base { int x; };", []ClassBases{{"S", []string{"Base"}}}},
		{"class API_EXPORT Foo : public Bar<Baz<int>> {", []ClassBases{{"Foo", []string{"Bar"}}}},
		{"template <class T> class X;\nclass Y { public: int a; };", nil},
		{"class Z : public Q;", nil},
		{"enum class Kind : int { A, B };", nil},
	}
	for _, tt := range tests {
		if got := ScanClassBases([]byte(tt.src)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ScanClassBases(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// FuzzScanClassBases checks the colon-first search against the plain one.
func FuzzScanClassBases(f *testing.F) {
	for _, s := range []string{
		"class D : public B<T>, private ns::C {};", "enum class K : int {};", "struct S : A::B {",
		"class X:Y{}; struct Z : W", "a ? b : c; class Q : R", "class ns::N : public M {", "class:B{",
		"template <class T> struct V : T { T::x; };", "x::class Y : Z {",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if got, want := ScanClassBases(src), classBasesByKeyword(src); !reflect.DeepEqual(got, want) {
			t.Errorf("ScanClassBases(%q) = %v, the keyword search %v", src, got, want)
		}
	})
}

// classBasesByKeyword is ScanClassBases the plain way, from each
// `class` and `struct` forward to the first stop: the reference the colon
// search must agree with.
func classBasesByKeyword(src []byte) []ClassBases {
	var out []ClassBases
	for _, kw := range [][]byte{[]byte("class"), []byte("struct")} {
		eachWord(src, kw, func(at, i int) bool {
			if afterEnum(src, at) {
				return true
			}
			end := min(len(src), i+classHeadWindow)
			// Only a head whose first stop is a single colon has bases:
			// `class T>` of a template, `class X;` and `class X {` have none.
			stop := bytes.IndexAny(src[i:end], ":{;>,)=")
			if stop < 0 || src[i+stop] != ':' || i+stop+1 < len(src) && src[i+stop+1] == ':' {
				return true
			}
			if brace := bytes.IndexAny(src[i:end], "{;"); brace >= 0 {
				end = i + brace + 1
			}
			if cb, ok := classHead(src[i:end]); ok {
				out = append(out, cb)
			}
			return true
		})
	}
	return out
}

func TestDeclaresVariableOf(t *testing.T) {
	tests := []struct {
		src, class string
		want       bool
	}{
		{"Dense<float> m(3, 3);", "Dense", true},
		{"void f(const DenseBase<Real> &m) {}", "DenseBase", true},
		{"Solver *s = make();", "Solver", true},
		{"DenseBase<Real>::Scale(a);", "DenseBase", false},
		{"auto x = Dense<float>(3, 3);", "Dense", false},
		{"MyDense<float> m;", "Dense", false},
	}
	for _, tt := range tests {
		if got := DeclaresVariableOf([]byte(tt.src), tt.class); got != tt.want {
			t.Errorf("DeclaresVariableOf(%q, %q) = %v, want %v", tt.src, tt.class, got, tt.want)
		}
	}
}

func TestClassNameAndPointee(t *testing.T) {
	tests := []struct{ typ, want string }{
		{"ns::GpuMatrix<float>", "GpuMatrix"},
		{"const Solver", "Solver"},
		{"std::shared_ptr<kernels::Solver>", "Solver"},
		{"std::unique_ptr<Op<float>>", "Op"},
		{"int (*)(int)", ""},
	}
	for _, tt := range tests {
		if got := className(pointee(tt.typ)); got != tt.want {
			t.Errorf("className(pointee(%q)) = %q, want %q", tt.typ, got, tt.want)
		}
	}
}
