package syntax

// Kernel launches: k<<<cfg>>>(args).

// rewriteLaunches turns each `k<<<cfg>>>(args)` into `k(  cfg  )(args)`: a
// call of a call whose inner argument list is the launch configuration.
func (p *prepass) rewriteLaunches() {
	for i := 0; i+2 < len(p.toks); i++ {
		spaced := false
		if !p.isTriple(i, '<') || p.blanked[i] {
			// `k << < g, b >> >(args)`: the launch as some formatters
			// space it, which nvcc takes as well.
			if !p.isSpacedTriple(i, '<') || p.blanked[i] {
				continue
			}
			spaced = true
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
		closeTok, config, ok := p.findLaunchClose(i+3, spaced)
		if !ok {
			continue
		}
		open, closeAt := int(p.toks[i].Start), int(p.toks[closeTok].Start)
		if spaced {
			// The same columns as the spelling: `(` over the first `<`,
			// `)` over the last `>`, blanks between.
			openEnd, closeEnd := int(p.toks[i+2].End), int(p.toks[closeTok+2].End)
			for k := open; k < openEnd; k++ {
				p.out[k] = ' '
			}
			for k := closeAt; k < closeEnd; k++ {
				p.out[k] = ' '
			}
			p.out[open], p.out[closeEnd-1] = '(', ')'
			closeAt = closeEnd - 3
		} else {
			copy(p.out[open:], "(  ")
			copy(p.out[closeAt:], "  )")
		}
		p.rw.Launches = append(p.rw.Launches, LaunchSyntax{Open: open, Close: closeAt, Config: config})
		i = closeTok + 2
	}
}

// isTriple reports whether tokens i, i+1, i+2 are c c c with nothing between.
func (p *prepass) isTriple(i int, c byte) bool {
	return p.isPunct(i, c) && p.isPunct(i+1, c) && p.isPunct(i+2, c) && p.adjacent(i, i+1) && p.adjacent(i+1, i+2)
}

// isSpacedTriple reports whether tokens i, i+1, i+2 are c c c on one line
// with only blanks between, not all adjacent (`<< <`, `> >>`).
func (p *prepass) isSpacedTriple(i int, c byte) bool {
	if !p.isPunct(i, c) || !p.isPunct(i+1, c) || !p.isPunct(i+2, c) {
		return false
	}
	for _, j := range []int{i, i + 1} {
		between := p.src[p.toks[j].End:p.toks[j+1].Start]
		for _, b := range between {
			if b != ' ' && b != '\t' {
				return false
			}
		}
	}
	return true
}

// findLaunchClose finds the `>>>` that closes a launch configuration starting
// at token i: the first one at bracket depth zero that is followed by `(`;
// with spaced, also `>> >` spaced as the opening was.
func (p *prepass) findLaunchClose(i int, spaced bool) (int, []Range, bool) {
	depth := 0
	var config []Range
	argStart := -1
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.Kind == TokDirective {
			continue
		}
		if argStart < 0 {
			argStart = int(t.Start)
		}
		if t.Kind != TokPunct {
			continue
		}
		switch p.src[t.Start] {
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
				config = append(config, Range{argStart, int(p.toks[j-1].End)})
				argStart = -1
			}
		case '>':
			if depth == 0 && (p.isTriple(j, '>') || spaced && p.isSpacedTriple(j, '>')) && !(p.isPunct(j+3, '>') && p.adjacent(j+2, j+3)) && p.isPunct(j+3, '(') {
				if argStart >= 0 && argStart < int(t.Start) {
					config = append(config, Range{argStart, int(p.toks[j-1].End)})
				}
				return j, config, true
			}
		}
	}
	return 0, nil, false
}
