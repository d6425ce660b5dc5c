package cli

import "github.com/spf13/cobra"

func newRulesCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List the rules",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return writeRuleList(cmd.OutOrStdout()) },
	}
}
