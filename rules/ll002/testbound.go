package ll002

import (
	"regexp"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// A measurement that only feeds a unit test's coarse bound
// (`EXPECT_LT(ms, 1000.0f)`) misleads nobody much: a first launch in it is
// reported as info at most.

// reportingCall matches calls that show or keep a measurement.
var reportingCall = regexp.MustCompile(`(?i)print|^(puts|fputs|write|log|record|report|emplace_back|push_back)`)

// onlyTestBound reports whether what region r measures is used only in
// test assertions of fn: the variables its stop read (or the
// cudaEventElapsedTime that pairs it) sets, and those computed from them,
// appear in EXPECT/ASSERT/REQUIRE/CHECK calls and nowhere that reports or
// returns them.
func (a *analysis) onlyTestBound(fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	measured := map[string]bool{}
	if r.Clock == cudaparse.ClockEvent {
		for _, c := range a.file.Calls {
			if c.Func == fn && knowledge.IsEventElapsed(c.Name) && len(c.Args) > 0 {
				if v := addressOf(c.Args[0]); v != "" {
					measured[v] = true
				}
			}
		}
	} else if v := assignedBy(r.Stop); v != "" {
		measured[v] = true
	}
	if len(measured) == 0 {
		return false
	}
	// Variables computed from the measurement: elapsed = t1 - t0.
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if v := assignedBy(n); v != "" && !measured[v] && mentionsAny(n, measured) {
			measured[v] = true
		}
		return true
	})
	asserted, reported := false, false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if !n.Is("identifier") || !measured[n.Text()] {
			return true
		}
		for p := n.Parent(); p.Valid() && p != fn.Body; p = p.Parent() {
			switch {
			case p.Is("return_statement"):
				reported = true
			case p.Is("call_expression"):
				name := p.ChildByField("function").Name()
				if cudaparse.TestAssertion.MatchString(name) {
					asserted = true
				} else if reportingCall.MatchString(name) {
					reported = true
				}
			case p.Is("binary_expression") && p.ChildByField("operator").Text() == "<<":
				reported = true // std::cout << ms
			}
		}
		return true
	})
	return asserted && !reported
}

// addressOf returns the variable of `&v`.
func addressOf(n cudaparse.Node) string {
	n = n.Unparen()
	if n.Is("pointer_expression") && n.ChildByField("operator").Text() == "&" {
		return cudaparse.VarKey(n.ChildByField("argument"))
	}
	return ""
}

// assignedBy returns the variable that the expression n (or the declaration
// or assignment holding it) sets: t1 for `auto t1 = now();`.
func assignedBy(n cudaparse.Node) string {
	for p := n; p.Valid(); p = p.Parent() {
		switch {
		case p.Is("init_declarator"):
			return cudaparse.VarKey(p.ChildByField("declarator"))
		case p.Is("assignment_expression"):
			return cudaparse.VarKey(p.ChildByField("left"))
		case p.Is("expression_statement", "compound_statement", "declaration", "function_definition"):
			return ""
		}
		if p != n && !p.Is("call_expression", "argument_list", "field_expression", "parenthesized_expression", "binary_expression", "cast_expression", "template_function", "qualified_identifier") {
			return ""
		}
	}
	return ""
}

func mentionsAny(n cudaparse.Node, names map[string]bool) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		if x.Is("identifier") && names[x.Text()] {
			found = true
		}
		return !found
	})
	return found
}
