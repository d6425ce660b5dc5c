package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

func newConfigCommand() *cobra.Command {
	var flags configFlags
	var enable, disable, ruleOptions []string
	cmd := &cobra.Command{
		Use:   "config [FILE]",
		Short: "Print the effective configuration (for FILE: with its per-path overrides)",
		Long: `Print, as YAML, the configuration lazylint check would use: the files read
(the nearest .lazylint.yml from the working directory up and the files it
extends), the rules that run with their severities and options, the exclude
patterns and the overrides. With FILE, the settings for that file: which
overrides apply, and whether it is excluded.

A config file with a mistake is reported with its file, line and column,
and the exit code is 2.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := flagSelection(enable, disable, ruleOptions)
			if err != nil {
				return usageError(cmd, err)
			}
			cfg, err := flags.load()
			if err != nil {
				return usageError(cmd, err)
			}
			file := ""
			if len(args) == 1 {
				if file, err = filepath.Abs(args[0]); err != nil {
					return usageError(cmd, err)
				}
			}
			eff := cfg.Effective(file, sel)
			if cfg == nil {
				eff.Files = []string{}
				fmt.Fprintln(cmd.OutOrStdout(), "# no config file: every rule at its defaults")
			}
			enc := yaml.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent(2)
			if err := enc.Encode(eff); err != nil {
				return err
			}
			return enc.Close()
		},
	}
	f := cmd.Flags()
	flags.register(f)
	f.StringSliceVar(&enable, "enable", nil, "as for check: run only these rules")
	f.StringSliceVar(&disable, "disable", nil, "as for check: do not run these rules")
	f.StringArrayVar(&ruleOptions, "rule-option", nil, "as for check: RULE.option=value")
	return cmd
}
