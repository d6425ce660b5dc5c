package gen

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/lazylint/lazylint/internal/rule"
)

// Terminal is how RuleText lays a page out.
type Terminal struct {
	Width int  // paragraphs wrap to it (0: 80)
	Color bool // headings bold, code in color
}

// RuleText renders a rule's doc page (RuleDoc) for a terminal: no
// generated-file comment, headings as plain underlined lines, code blocks
// indented without their fences, tables as aligned columns, inline code and
// links as plain text, paragraphs wrapped to the width.
func RuleText(r *rule.Rule, t Terminal) []byte {
	return t.render(RuleDoc(r))
}

var (
	inlineLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	inlineBold = regexp.MustCompile(`\*\*([^*]+)\*\*`)
	inlineCode = regexp.MustCompile("`([^`]+)`")
)

// render lays out the Markdown subset the rule pages are written in.
func (t Terminal) render(md []byte) []byte {
	width := t.Width
	if width <= 0 {
		width = 80
	}
	var out bytes.Buffer
	var para []string // the lines of the paragraph or list item being read
	var table [][]string
	flushPara := func() {
		if len(para) == 0 {
			return
		}
		indent := ""
		if strings.HasPrefix(para[0], "- ") || strings.HasPrefix(para[0], "* ") {
			indent = "  "
		}
		text := t.inline(strings.Join(para, " "))
		for i, line := range wrapWords(text, width, indent) {
			if i > 0 {
				line = indent + line
			}
			out.WriteString(line + "\n")
		}
		para = nil
	}
	flushTable := func() {
		if len(table) == 0 {
			return
		}
		widths := make([]int, len(table[0]))
		for _, row := range table {
			for i, cell := range row {
				if i < len(widths) {
					widths[i] = max(widths[i], utf8.RuneCountInString(cell))
				}
			}
		}
		for _, row := range table {
			var line strings.Builder
			for i, cell := range row {
				if i >= len(widths) {
					break
				}
				line.WriteString(cell)
				if i < len(row)-1 {
					line.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)+2))
				}
			}
			out.WriteString("  " + strings.TrimRight(line.String(), " ") + "\n")
		}
		table = nil
	}
	inCode, inComment := false, false
	for _, line := range strings.Split(string(md), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case inComment:
			inComment = !strings.Contains(line, "-->")
		case strings.HasPrefix(trimmed, "<!--"):
			inComment = !strings.Contains(line, "-->")
		case strings.HasPrefix(trimmed, "```"):
			flushPara()
			inCode = !inCode
		case inCode:
			out.WriteString("    " + t.paint("36", line) + "\n")
		case strings.HasPrefix(trimmed, "|"):
			flushPara()
			cells := strings.Split(strings.Trim(trimmed, "|"), "|")
			row := make([]string, len(cells))
			separator := true
			for i, c := range cells {
				row[i] = t.plain(strings.TrimSpace(c))
				separator = separator && strings.Trim(strings.TrimSpace(c), "-: ") == ""
			}
			if !separator {
				table = append(table, row)
			}
		case strings.HasPrefix(trimmed, "#"):
			flushPara()
			flushTable()
			level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
			title := t.plain(strings.TrimSpace(trimmed[level:]))
			rule := "="
			if level > 1 {
				rule = "-"
			}
			out.WriteString(t.paint("1", title) + "\n")
			if !t.Color {
				out.WriteString(strings.Repeat(rule, utf8.RuneCountInString(title)) + "\n")
			}
		case trimmed == "":
			flushPara()
			flushTable()
			out.WriteString("\n")
		case strings.HasPrefix(trimmed, "- ") || strings.HasPrefix(trimmed, "* "):
			flushPara()
			para = append(para, trimmed)
		default:
			flushTable()
			para = append(para, trimmed)
		}
	}
	flushPara()
	flushTable()
	// One blank line between blocks, none at the ends.
	text := strings.TrimSpace(blankRun.ReplaceAllString(out.String(), "\n\n"))
	return []byte(text + "\n")
}

// plain drops inline Markdown: code spans keep their text, links become
// "text (url)", bold its text.
func (t Terminal) plain(s string) string {
	s = inlineLink.ReplaceAllString(s, "$1 ($2)")
	s = inlineBold.ReplaceAllString(s, "$1")
	return inlineCode.ReplaceAllString(s, "$1")
}

// inline is plain, with code spans colored when colors are on (after
// wrapping would count the escapes, so only without colors is it exact).
func (t Terminal) inline(s string) string {
	if !t.Color {
		return t.plain(s)
	}
	s = inlineLink.ReplaceAllString(s, "$1 ($2)")
	s = inlineBold.ReplaceAllString(s, "\x1b[1m$1\x1b[0m")
	return inlineCode.ReplaceAllString(s, "\x1b[36m$1\x1b[0m")
}

func (t Terminal) paint(sgr, s string) string {
	if !t.Color || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

// wrapWords breaks text at spaces into lines of at most width columns
// (ANSI escapes not counted), the lines after the first to be indented by
// the caller with indent.
func wrapWords(text string, width int, indent string) []string {
	var lines []string
	var line strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		wn := utf8.RuneCountInString(ansi.ReplaceAllString(w, ""))
		limit := width
		if len(lines) > 0 {
			limit -= len(indent)
		}
		if n > 0 && n+1+wn > limit {
			lines = append(lines, line.String())
			line.Reset()
			n = 0
		}
		if n > 0 {
			line.WriteByte(' ')
			n++
		}
		line.WriteString(w)
		n += wn
	}
	if line.Len() > 0 {
		lines = append(lines, line.String())
	}
	return lines
}

var (
	ansi     = regexp.MustCompile("\x1b\\[[0-9;]*m")
	blankRun = regexp.MustCompile(`\n{3,}`)
)
