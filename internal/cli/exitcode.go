package cli

// Exit codes.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // findings
	ExitFailure  = 2 // usage error, or a file that could not be read or parsed
)
