package cudaparse

import "testing"

func TestNegatedConditions(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"(!big)", "(big)", true},
		{"(big)", "(!big)", true},
		{"(!cfg.shared)", "(cfg.shared)", true},
		{"(!p->on)", "(p->on)", true},
		{"(!(n>4))", "(n>4)", true},
		{"(!a&&b)", "(a&&b)", false},
		{"(!a)", "(b)", false},
		{"(!!a)", "(a)", false},
		{"(a)", "(a)", false},
		{"(!f(x))", "(f(x))", false},
	} {
		if got := negatedConditions(c.a, c.b); got != c.want {
			t.Errorf("negatedConditions(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
