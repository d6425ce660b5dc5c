package cudaparse

// CallSummary answers "has a call of some kind happened on the way here?"
// within one file: in the same function (on every path, loops taken to
// run), through functions of the file called earlier, and through the
// callers of a function when every call of it in the file comes after one.
type CallSummary struct {
	file   *File
	match  func(*Call) bool
	direct map[*Function]bool // fn makes a matching call (or launch), maybe through callees
	entry  map[*Function]int  // 0 unknown, 1 yes, 2 no, 3 in progress
	Launch bool               // kernel launches count as matching calls
}

// NewCallSummary summarizes the calls of f that match.
func NewCallSummary(f *File, match func(*Call) bool) *CallSummary {
	return &CallSummary{file: f, match: match, direct: map[*Function]bool{}, entry: map[*Function]int{}}
}

// makes reports whether a call of fn, anywhere in it or its callees in the
// file, matches.
func (s *CallSummary) makes(fn *Function) bool {
	if v, ok := s.direct[fn]; ok {
		return v
	}
	s.direct[fn] = false // breaks recursion
	result := false
	for _, c := range s.file.Calls {
		if c.Func != fn {
			continue
		}
		if s.match(c) {
			result = true
			break
		}
		if callee := s.file.FunctionNamed(c.Name); callee != nil && callee != fn && s.makes(callee) {
			result = true
			break
		}
	}
	if !result && s.Launch {
		for _, l := range s.file.Launches {
			if l.Func == fn {
				result = true
				break
			}
		}
	}
	s.direct[fn] = result
	return result
}

// Before reports whether a matching call (or a call of a function of the
// file that makes one) runs on the way to n in n's function.
func (s *CallSummary) Before(n Node) bool {
	fn := s.file.enclosingFunction(n)
	if fn == nil {
		return false
	}
	for _, c := range s.file.Calls {
		if c.Func != fn || c.Node.Start() >= n.Start() || !OnTheWay(c.Node, n) {
			continue
		}
		if s.match(c) {
			return true
		}
		if callee := s.file.FunctionNamed(c.Name); callee != nil && callee != fn && s.makes(callee) {
			return true
		}
	}
	if s.Launch {
		for _, l := range s.file.Launches {
			if l.Func == fn && l.Node.Start() < n.Start() && OnTheWay(l.Node, n) {
				return true
			}
		}
	}
	return false
}

// AtEntry reports whether every call of fn in the file comes after a
// matching call (directly or through its own callers), and there is at
// least one: then fn always starts after one.
func (s *CallSummary) AtEntry(fn *Function) bool {
	switch s.entry[fn] {
	case 1:
		return true
	case 2, 3:
		return false
	}
	s.entry[fn] = 3
	calls := 0
	ok := true
	for _, c := range s.file.Calls {
		if c.Name != fn.Name || c.Func == nil || c.Func == fn {
			continue
		}
		calls++
		if !s.Before(c.Node) && !s.AtEntry(c.Func) {
			ok = false
			break
		}
	}
	if calls == 0 {
		ok = false
	}
	if ok {
		s.entry[fn] = 1
	} else {
		s.entry[fn] = 2
	}
	return ok
}
