package cli

// Exit codes.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // findings
	ExitFailure  = 2 // usage error, or a file that could not be read or parsed
	ExitNoDriver = 3 // no usable CUDA driver: probe env/module; probe run and check --confirm when the program failed in both modes without CUDA (verdict no-cuda)

	ExitInterrupted = 130 // a probe run stopped by Ctrl-C (its program was killed)
)
