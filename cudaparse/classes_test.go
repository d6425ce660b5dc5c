package cudaparse

import (
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
