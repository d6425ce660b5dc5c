package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/internal/gen"
	"github.com/lazylint/lazylint/internal/suppress"
	"github.com/lazylint/lazylint/rules"
)

func newExplainCommand() *cobra.Command {
	var markdown bool
	cmd := &cobra.Command{
		Use:   "explain [RULE]",
		Short: "Print a rule's documentation (by ID, e.g. LL001, or name); without a rule, list them",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if len(args) == 0 {
				if err := writeRuleList(out); err != nil {
					return err
				}
				_, err := fmt.Fprintln(out, "\n`lazylint explain ID` prints a rule's documentation.")
				return err
			}
			r := rules.ByID(args[0])
			if r == nil && (strings.EqualFold(args[0], suppress.Rule.ID) || args[0] == suppress.Rule.Name) {
				r = suppress.Rule
			}
			if r == nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "lazylint: unknown rule %q; `lazylint explain` lists them\n", args[0])
				return exitError{ExitFailure}
			}
			if markdown {
				_, err := out.Write(gen.RuleDoc(r))
				return err
			}
			width := terminalWidth(out)
			if width == 0 || width > 100 {
				width = min(max(width, 80), 100) // long lines read badly; pipes get 80
			}
			_, err := out.Write(gen.RuleText(r, gen.Terminal{Width: width, Color: useColor("auto", out)}))
			return err
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the doc page's Markdown source (as under docs/rules/)")
	return cmd
}

// writeRuleList lists the rules, one per line: ID, name, severity, summary.
func writeRuleList(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tSEVERITY\tSUMMARY")
	for _, r := range rules.All {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Summary)
	}
	return w.Flush()
}
