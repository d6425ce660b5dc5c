package cudaparse

import "github.com/lazylint/lazylint/cudaparse/syntax"

// The parser's types that a File's API hands out (positions, ranges, what
// the pre-pass rewrote), under the names rules and the engine know them
// by. The parser itself, the pre-pass and the lexer are package syntax.
type (
	Range         = syntax.Range
	Position      = syntax.Position
	LineIndex     = syntax.LineIndex
	Rewrites      = syntax.Rewrites
	Qualifier     = syntax.Qualifier
	QualifierKind = syntax.QualifierKind
	LaunchSyntax  = syntax.LaunchSyntax
)

// The CUDA declaration qualifiers the pre-pass removes.
const (
	QualOther    = syntax.QualOther
	QualGlobal   = syntax.QualGlobal
	QualDevice   = syntax.QualDevice
	QualHost     = syntax.QualHost
	QualShared   = syntax.QualShared
	QualConstant = syntax.QualConstant
	QualManaged  = syntax.QualManaged
)

// ErrParseLimit is returned when a file takes longer to parse (pre-pass
// and tree-sitter together) than the parser's time limit.
var ErrParseLimit = syntax.ErrParseLimit
