package ll005

import (
	"regexp"

	"github.com/lazylint/lazylint/cudaparse"
)

// Whether a value changes from one iteration of a loop to the next: the
// image a load reads (a different image per context is a different module)
// and the context a switch makes current (a loop that sets the same one each
// time does not switch).

// scope is where a value is evaluated: the loop itself, or the body of a
// helper or lambda that the loop calls, whose parameters take the values of
// the call's arguments.
type scope struct {
	file *cudaparse.File
	// region holds the definitions that can change per iteration: the loop
	// (header included), or the helper's body.
	region cudaparse.Node
	loop   *loop // the top scope's loop
	params map[string]int
	call   *cudaparse.Call // the call of the helper, in parent
	parent *scope
	// declared caches the names declared inside the region's body.
	declared map[string]bool
	memo     map[cudaparse.Node]bool
}

func (a *analysis) newScope(region cudaparse.Node, params map[string]int, call *cudaparse.Call, parent *scope) *scope {
	return &scope{file: a.file, region: region, params: params, call: call, parent: parent, memo: map[cudaparse.Node]bool{}}
}

// varies reports whether the value of expr may change from one iteration
// of the loop to the next.
func (s *scope) varies(expr cudaparse.Node) bool { return s.variesAt(expr, 0) }

func (s *scope) variesAt(expr cudaparse.Node, depth int) bool {
	if depth > maxValueDepth || !expr.Valid() {
		return false
	}
	found := false
	expr.Descendants(func(n cudaparse.Node) bool {
		switch {
		case found:
		case n.Is("identifier") && s.variesName(n, depth):
			found = true
		case n.Is("call_expression") && perDeviceCall.MatchString(n.ChildByField("function").Name()):
			// image_for_current_device(): picked by the device just made
			// current.
			found = true
		}
		return !found
	})
	return found
}

// perDeviceCall matches functions whose result depends on the current
// device: current_device_image(), arch_cubin(), get_sm_version().
var perDeviceCall = regexp.MustCompile(`(?i)device|arch|gpu|compute_?cap|sm_?ver|^sm\d*_`)

func (s *scope) variesName(id cudaparse.Node, depth int) bool {
	if v, ok := s.memo[id]; ok {
		return v
	}
	s.memo[id] = false // a definition that depends on itself adds nothing
	v := s.variesNameUncached(id, depth)
	s.memo[id] = v
	return v
}

func (s *scope) variesNameUncached(id cudaparse.Node, depth int) bool {
	name := id.Text()
	if s.loop != nil && s.loop.vars[name] {
		return true
	}
	if k, ok := s.params[name]; ok {
		return s.parent != nil && s.parent.variesAt(s.call.Arg(k), depth+1)
	}
	for _, d := range s.file.ReachingDefs(id) {
		if !s.region.Contains(d.Node) {
			continue // set before the loop: the same in every iteration
		}
		switch {
		case d.Op == cudaparse.DefUpdate:
			// A counter declared inside the body (an inner loop's) starts
			// over in every iteration; one declared outside goes on.
			if !s.declaredInside(name) {
				return true
			}
		case d.IsCompound():
			if !s.declaredInside(name) || s.variesAt(d.Value, depth+1) {
				return true
			}
		case d.Op == cudaparse.DefRange:
			if s.loop != nil && d.Node.Parent() == s.loop.node || s.variesAt(d.Value, depth+1) {
				return true
			}
		case d.Op == cudaparse.DefOut:
			// cuDeviceGet(&dev, i): written from the call's other arguments.
			for k, arg := range d.Call.Args {
				if k != d.Index && s.variesAt(arg, depth+1) {
					return true
				}
			}
		case d.Op == cudaparse.DefDecl:
			if s.filledFromVarying(name, depth) {
				return true
			}
		case d.Value.Valid():
			if s.variesAt(d.Value, depth+1) {
				return true
			}
		}
	}
	return false
}

// filledFromVarying reports whether a buffer declared without a value is
// written by a call that also takes a varying argument:
// snprintf(path, sizeof path, "k_%d.cubin", dev).
func (s *scope) filledFromVarying(name string, depth int) bool {
	for _, c := range s.file.Calls {
		if !s.region.Contains(c.Node) {
			continue
		}
		fills := -1
		for k, arg := range c.Args {
			if arg.Unparen().Is("identifier") && arg.Unparen().Text() == name {
				fills = k
				break
			}
		}
		if fills < 0 {
			continue
		}
		for k, arg := range c.Args {
			if k != fills && s.variesAt(arg, depth+1) {
				return true
			}
		}
	}
	return false
}

// declaredInside reports whether name is declared in the body of the
// region (for the loop: not in its header).
func (s *scope) declaredInside(name string) bool {
	if s.declared == nil {
		s.declared = map[string]bool{}
		body := s.region
		if s.loop != nil {
			body = s.loop.body
		}
		body.Descendants(func(n cudaparse.Node) bool {
			switch {
			case n.Is("init_declarator"):
				s.declared[cudaparse.DeclaredName(n.ChildByField("declarator"))] = true
			case n.Is("declaration"):
				for _, d := range n.ChildrenByField("declarator") {
					s.declared[cudaparse.DeclaredName(d)] = true
				}
			case n.Is("for_range_loop"):
				addIdentifiers(s.declared, n.ChildByField("declarator"))
			}
			return true
		})
	}
	return s.declared[name]
}
