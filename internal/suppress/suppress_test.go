package suppress

import (
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/rule"
)

var (
	ll001 = &rule.Rule{ID: "LL001", Name: "whole-vram-allocation"}
	ll002 = &rule.Rule{ID: "LL002", Name: "untimed-first-launch"}
)

func TestDirectives(t *testing.T) {
	src := `int a;  // NOLINT(lazylint-LL001)
// NOLINTNEXTLINE(lazylint-*)
int b;
int c;  // NOLINT
int d;  // NOLINT(bugprone-foo)
/* NOLINTBEGIN(lazylint-LL002) */
int e;
int f;
// NOLINTEND(lazylint-LL002)
int g;  // lazylint:ignore LL001 the arena leaves room for the table
// lazylint:ignore whole-vram-allocation,LL002 reserved by the caller
int h;
const char *s = "// NOLINT(lazylint-LL002)";
const char *r = R"x(// NOLINT(lazylint-LL002) )x";
int i = 1'000; // NOLINT(lazylint-untimed-first-launch)
`
	set := Parse([]byte(src), false)
	if len(set.Problems) > 0 {
		t.Fatalf("problems: %+v", set.Problems)
	}
	for _, tc := range []struct {
		r    *rule.Rule
		line int
		want string // directive kind, "" for none
	}{
		{ll001, 1, KindNOLINT}, {ll002, 1, ""},
		{ll001, 3, KindNOLINTNEXTLINE}, {ll002, 3, KindNOLINTNEXTLINE}, {ll001, 2, ""},
		{ll002, 4, KindNOLINT},
		{ll001, 5, ""},
		{ll002, 7, KindNOLINTBEGIN}, {ll002, 8, KindNOLINTBEGIN}, {ll001, 7, ""}, {ll002, 10, ""},
		{ll001, 10, KindIgnore}, {ll002, 10, ""},
		{ll001, 12, KindIgnore}, {ll002, 12, KindIgnore}, {ll001, 11, ""},
		{ll002, 13, ""}, {ll002, 14, ""},
		{ll002, 15, KindNOLINT},
	} {
		got := ""
		if d := set.Match(tc.r, tc.line); d != nil {
			got = d.Kind
		}
		if got != tc.want {
			t.Errorf("%s on line %d: %q, want %q", tc.r.ID, tc.line, got, tc.want)
		}
	}
	if d := set.Match(ll001, 10); d == nil || d.Reason != "the arena leaves room for the table" {
		t.Errorf("reason: %+v", d)
	}
}

func TestProblems(t *testing.T) {
	src := `int a;  // lazylint:ignore LL001
int b;  // lazylint:ignore
// NOLINTBEGIN(lazylint-LL001)
int c;
// NOLINTEND(lazylint-LL002)
`
	set := Parse([]byte(src), false)
	var msgs []string
	for _, p := range set.Problems {
		msgs = append(msgs, p.Message)
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{"needs a reason", "names no rule", "NOLINTEND(lazylint-LL002) has no matching NOLINTBEGIN", "NOLINTBEGIN(lazylint-LL001) has no matching NOLINTEND"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if set.Match(ll001, 1) != nil {
		t.Error("an ignore without a reason must not suppress")
	}
}

func TestGoNolint(t *testing.T) {
	src := "package p\n" +
		"func f() {\n" +
		"\tC.cuModuleGetLoadingMode(&m) //nolint:lazylint // probed after init elsewhere\n" +
		"\t//nolint:errcheck,lazylint\n" +
		"\tC.cuModuleGetLoadingMode(&m)\n" +
		"\tC.cuModuleGetLoadingMode(&m) //nolint:errcheck\n" +
		"\tx := \"//nolint:lazylint\"\n" +
		"}\n"
	set := Parse([]byte(src), true)
	if d := set.Match(ll001, 3); d == nil || d.Reason != "probed after init elsewhere" {
		t.Errorf("line 3: %+v", d)
	}
	if set.Match(ll001, 5) == nil {
		t.Error("line 5: own-line nolint covers the next line")
	}
	if set.Match(ll001, 6) != nil || set.Match(ll001, 7) != nil {
		t.Error("nolint for another linter, or inside a string, must not suppress")
	}
}

func TestUnused(t *testing.T) {
	src := "int a;  // NOLINT(lazylint-LL001)\nint b;  // NOLINT\nint c;  // lazylint:ignore LL002 reason\n"
	set := Parse([]byte(src), false)
	set.Match(ll001, 1)
	unused := set.Unused([]*rule.Rule{ll001, ll002})
	if len(unused) != 1 || unused[0].Line != 3 {
		t.Fatalf("unused = %+v, want only line 3 (a bare NOLINT may be for clang-tidy)", unused)
	}
	if len(set.Unused([]*rule.Rule{ll001})) != 0 {
		t.Error("a directive for a rule that did not run is not unused")
	}
}

func TestCommentsNeverPanic(t *testing.T) {
	for _, src := range []string{"/* open", "\"open", "R\"x(open", "'", "//", "/", "`open", "a'b'c"} {
		comments([]byte(src), false)
		comments([]byte(src), true)
		Parse([]byte(src+" NOLINT lazylint:ignore nolint"), false)
	}
}

func TestOtherToolsChecks(t *testing.T) {
	src := "int a;  // NOLINT(bugprone-*)\nint b;  // NOLINT(*-LL001)\nint c;  // NOLINT(lazy*)\n// NOLINTBEGIN(google-runtime-int)\n"
	set := Parse([]byte(src), false)
	if len(set.Problems) != 0 {
		t.Errorf("another tool's unmatched NOLINTBEGIN is its business: %+v", set.Problems)
	}
	if set.Match(ll001, 1) != nil {
		t.Error("NOLINT(bugprone-*) must not silence lazylint")
	}
	if set.Match(ll001, 2) == nil || set.Match(ll001, 3) == nil {
		t.Error("globs that can match lazylint-LL001 must silence it")
	}
}

// Misspelled directives are hinted at (LL000) instead of silently not
// applying; the correct forms beside them give no hint.
func TestMisspelledDirectives(t *testing.T) {
	src := `int a;  // lazylint: ignore LL001 spaces around the colon
int b;  // LAZYLINT:IGNORE LL001 capitals
int c;  // nolint(lazylint-LL001)
int d;  // NOLINT (lazylint-LL001)
int e;  // lazylint:file_ignore LL008 underscore
int f;  // NOLINT(lazylint-LL001) NOLINTNEXTLINE(lazylint-LL002)
int g;  // lazylint:ignore LL001 correct
int h;  // the lazylint: ignore comments are explained in the README
int i;  // nolint(bugprone-foo) is clang-tidy's business, not ours
`
	set := Parse([]byte(src), false)
	var lines []int
	for _, p := range set.Problems {
		lines = append(lines, p.Line)
		if !strings.Contains(p.Message, "lazylint") && !strings.Contains(p.Message, "NOLINT") {
			t.Errorf("line %d: hint %q names no correct form", p.Line, p.Message)
		}
	}
	// Line 8 is prose that reads like a directive: hinted too, which is
	// what a reader of that comment needs to hear anyway.
	if want := []int{1, 2, 3, 4, 5, 8}; !equalInts(lines, want) {
		t.Errorf("hints on lines %v, want %v: %+v", lines, want, set.Problems)
	}
	if d := set.Match(ll001, 1); d != nil {
		t.Errorf("a misspelled directive applied: %+v", d)
	}
	if d := set.Match(ll001, 7); d == nil {
		t.Error("the correct directive did not apply")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Unknown rule names in explicit directives are hinted at; other tools'
// checks and globs that reach a rule are not.
func TestCheckNames(t *testing.T) {
	src := `int a;  // NOLINT(lazylint-LL01)
int b;  // lazylint:ignore LL01 typo of the ID
int c;  // lazylint:ignore whole-vram-alocation typo of the name
int d;  // NOLINT(lazylint-LL00*, bugprone-foo)
int e;  // lazylint:ignore LL001,whole-vram-allocation both spellings
int f;  // NOLINT(lazylint-LL09*)
`
	set := Parse([]byte(src), false)
	set.CheckNames([]*rule.Rule{ll001, ll002})
	var lines []int
	for _, p := range set.Problems {
		lines = append(lines, p.Line)
	}
	if want := []int{1, 2, 3, 6}; !equalInts(lines, want) {
		t.Errorf("unknown-name hints on lines %v, want %v: %+v", lines, want, set.Problems)
	}
}

func TestFileIgnore(t *testing.T) {
	src := `// lazylint:file-ignore LL008 managed variables here are host-only test doubles
int a;

int z;
/* lazylint:file-ignore */
`
	set := Parse([]byte(src), false)
	for _, line := range []int{1, 2, 4, 5} {
		if d := set.Match(&rule.Rule{ID: "LL008", Name: "managed-forces-eager"}, line); d == nil || d.Kind != KindFileIgnore {
			t.Errorf("LL008 on line %d: %+v", line, d)
		}
		if d := set.Match(ll001, line); d != nil {
			t.Errorf("LL001 on line %d silenced by %+v", line, d)
		}
	}
	if len(set.Problems) != 1 || set.Problems[0].Line != 5 || !strings.Contains(set.Problems[0].Message, "names no rule") {
		t.Errorf("problems: %+v", set.Problems)
	}
}

// An unused rule of a multi-rule directive is reported when another of its
// rules silenced a finding (the wholly unused directive is Unused's).
func TestUnusedChecks(t *testing.T) {
	src := `int a;  // lazylint:ignore LL001,LL002 only LL001 fires here
int b;  // NOLINT(lazylint-LL001,lazylint-LL002)
int c;  // lazylint:ignore LL001,LL002 nothing fires here
int d;  // NOLINT(lazylint-LL00*)
`
	set := Parse([]byte(src), false)
	set.Match(ll001, 1)
	set.Match(ll001, 2)
	set.Match(ll002, 2)
	set.Match(ll001, 4)
	ran := []*rule.Rule{ll001, ll002}
	got := set.UnusedChecks(ran)
	if len(got) != 1 || got[0].Directive.Line != 1 || got[0].Check != "LL002" {
		t.Errorf("UnusedChecks = %+v", got)
	}
	if u := set.Unused(ran); len(u) != 1 || u[0].Line != 3 {
		t.Errorf("Unused = %+v", u)
	}
}
