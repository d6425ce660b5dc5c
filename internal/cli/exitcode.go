package cli

// Exit codes.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // findings
	ExitFailure  = 2 // usage error, or a file that could not be read or parsed
	ExitNoDriver = 3 // probe env/module: no usable CUDA driver on this machine

	ExitInterrupted = 130 // a probe run stopped by Ctrl-C (its program was killed)
)
