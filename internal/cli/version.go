package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/internal/version"
)

// versionLine is what `lazylint version` and `lazylint --version` print:
// "lazylint 0.1.0 (rev 0123456789ab) (go1.26.8, linux/amd64)".
func versionLine() string {
	return fmt.Sprintf("lazylint %s (%s, %s/%s)", version.String(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print lazylint's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine())
			return err
		},
	}
}
