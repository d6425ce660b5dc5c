package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/rules"
)

func newRulesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List the rules",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tNAME\tSEVERITY\tSUMMARY")
			for _, r := range rules.All {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Summary)
			}
			return w.Flush()
		},
	}
}
