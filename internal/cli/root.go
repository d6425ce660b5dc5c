// Package cli is lazylint's command line: cobra commands, one per file, that
// wire the engine, the rules and the reports together.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// exitError carries an exit code out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs lazylint with args and returns the exit code.
func Main(args []string) int {
	return Run(args, os.Stdout, os.Stderr)
}

// Run is Main with explicit output streams, for tests.
func Run(args []string, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return ExitClean
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintln(stderr, "lazylint:", err)
		return ExitFailure
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "lazylint",
		Short: "Find CUDA lazy-loading hazards in C, C++ and CUDA sources",
		Long: `lazylint finds code that breaks when CUDA loads kernels lazily (the default
since CUDA 12.2): whole-VRAM allocations, timed first launches, cross-kernel
spin waits and module-loading assumptions. It needs no build, no compile
database and no CUDA installation.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version prints what `lazylint version` prints.
		Version: versionLine(),
	}
	root.SetVersionTemplate("{{.Version}}\n")
	root.AddCommand(newCheckCommand(), newRulesCommand(), newExplainCommand(), newVersionCommand(), newProbeCommand(), newConfigCommand(), newLSPCommand(), newCgoHeadersCommand(), newSummarizeCommand())
	return root
}
