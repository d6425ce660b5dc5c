package cudaparse

// Kernel launches: k<<<cfg>>>(args).

// rewriteLaunches turns each `k<<<cfg>>>(args)` into `k(  cfg  )(args)`: a
// call of a call whose inner argument list is the launch configuration.
func (p *prepass) rewriteLaunches() {
	for i := 0; i+2 < len(p.toks); i++ {
		if !p.isTriple(i, '<') || p.blanked[i] {
			continue
		}
		// A run of more than three (a conflict marker) is not a launch.
		if p.isPunct(i-1, '<') && p.adjacent(i-1, i) || p.isPunct(i+3, '<') && p.adjacent(i+2, i+3) {
			i += 2
			continue
		}
		// The launched expression ends in a name, a template's `>` or a `)`.
		if i == 0 || !(p.isIdent(i-1) || p.isPunct(i-1, '>') || p.isPunct(i-1, ')')) {
			continue
		}
		closeTok, config, ok := p.findLaunchClose(i + 3)
		if !ok {
			continue
		}
		open, closeAt := int(p.toks[i].start), int(p.toks[closeTok].start)
		copy(p.out[open:], "(  ")
		copy(p.out[closeAt:], "  )")
		p.rw.Launches = append(p.rw.Launches, LaunchSyntax{Open: open, Close: closeAt, Config: config})
		i = closeTok + 2
	}
}

// isTriple reports whether tokens i, i+1, i+2 are c c c with nothing between.
func (p *prepass) isTriple(i int, c byte) bool {
	return p.isPunct(i, c) && p.isPunct(i+1, c) && p.isPunct(i+2, c) && p.adjacent(i, i+1) && p.adjacent(i+1, i+2)
}

// findLaunchClose finds the `>>>` that closes a launch configuration starting
// at token i: the first one at bracket depth zero that is followed by `(`.
func (p *prepass) findLaunchClose(i int) (int, []Range, bool) {
	depth := 0
	var config []Range
	argStart := -1
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind == tokDirective {
			continue
		}
		if argStart < 0 {
			argStart = int(t.start)
		}
		if t.kind != tokPunct {
			continue
		}
		switch p.src[t.start] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return 0, nil, false
			}
		case ';':
			if depth == 0 {
				return 0, nil, false
			}
		case ',':
			if depth == 0 {
				config = append(config, Range{argStart, int(p.toks[j-1].end)})
				argStart = -1
			}
		case '>':
			if depth == 0 && p.isTriple(j, '>') && !(p.isPunct(j+3, '>') && p.adjacent(j+2, j+3)) && p.isPunct(j+3, '(') {
				if argStart >= 0 && argStart < int(t.start) {
					config = append(config, Range{argStart, int(p.toks[j-1].end)})
				}
				return j, config, true
			}
		}
	}
	return 0, nil, false
}
