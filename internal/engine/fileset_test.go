package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A fileSet agrees with a map of the same files: membership, the files in
// order, their number, and unions, for files added in and out of order.
func TestFileSetAgreesWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	build := func(n, span int) (fileSet, map[int]bool) {
		s, m := newFileSet(), map[int]bool{}
		for range n {
			i := rng.IntN(span)
			s.add(i)
			m[i] = true
		}
		return s, m
	}
	check := func(what string, s fileSet, m map[int]bool) {
		t.Helper()
		var got []int
		s.each(func(i int) { got = append(got, i) })
		want := make([]int, 0, len(m))
		for i := range m {
			want = append(want, i)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: files %v, want %v", what, got, want)
		}
		if s.len() != len(m) {
			t.Errorf("%s: len %d, want %d", what, s.len(), len(m))
		}
		for i := -1; i < 3000; i++ {
			if s.has(i) != m[i] {
				t.Fatalf("%s: has(%d) = %v", what, i, s.has(i))
			}
		}
	}
	for round := range 50 {
		a, am := build(rng.IntN(200), 3000)
		b, bm := build(rng.IntN(200), 1+rng.IntN(3000))
		check("a", a, am)
		a.union(b)
		for i := range bm {
			am[i] = true
		}
		a.shrink()
		check("a with b", a, am)
		// A set holds its subsets and no set with a file more; a union
		// with a subset changes nothing.
		sub := newFileSet()
		for i := range am {
			if rng.IntN(2) == 0 {
				sub.add(i)
			}
		}
		if !a.holds(sub) {
			t.Fatal("a set does not hold a subset of it")
		}
		a.union(sub)
		check("a with a subset", a, am)
		more := newFileSet()
		sub.each(more.add)
		extra := rng.IntN(3000)
		more.add(extra)
		if a.holds(more) != am[extra] {
			t.Fatalf("holds a subset and %d: %v, the set has it: %v", extra, a.holds(more), am[extra])
		}
		if round == 0 {
			var empty fileSet
			a.union(empty)
			check("a with nothing", a, am)
		}
	}
}
