package cudaparse

import "testing"

func TestCalledAsFunction(t *testing.T) {
	cases := []struct {
		src, name string
		want      bool
	}{
		{"n = v.size();", "size", false},
		{"n = p->size();", "size", false},
		{"n = p -> size ();", "size", false},
		{"n = v.\n  size();", "size", false},
		{"n = size(v);", "size", true},
		{"n = std::size(v);", "size", true},
		{"n = v.size() + size(w);", "size", true},
		{"n = v.sizes(); m = resize(v);", "size", false},
		{"launch_all(); x.launch();", "launch", false},
		{"launch<T>(s);", "launch", true},
		{"size", "size", true},
		{".size", "size", false},
		{"", "size", false},
		{"size()", "", false},
	}
	for _, c := range cases {
		if got := CalledAsFunction([]byte(c.src), c.name); got != c.want {
			t.Errorf("CalledAsFunction(%q, %q) = %v, want %v", c.src, c.name, got, c.want)
		}
	}
}
