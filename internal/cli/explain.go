package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/internal/gen"
	"github.com/lazylint/lazylint/internal/suppress"
	"github.com/lazylint/lazylint/rules"
)

func newExplainCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "explain RULE",
		Short: "Print a rule's documentation (by ID, e.g. LL001, or name)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := rules.ByID(args[0])
			if r == nil && (strings.EqualFold(args[0], suppress.Rule.ID) || args[0] == suppress.Rule.Name) {
				r = suppress.Rule
			}
			if r == nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "lazylint: unknown rule %q; `lazylint rules` lists them\n", args[0])
				return exitError{ExitFailure}
			}
			_, err := cmd.OutOrStdout().Write(gen.RuleDoc(r))
			return err
		},
	}
}
