package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/lazylint/lazylint/internal/config"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

func newConfigCommand() *cobra.Command {
	var flags configFlags
	var enable, disable, ruleOptions, includeDirs []string
	var failOn string
	var lowConfidence, reportUnused bool
	cmd := &cobra.Command{
		Use:   "config [FILE]",
		Short: "Print the effective configuration (for FILE: with its per-path overrides)",
		Long: `Print, as YAML, the configuration lazylint check would use: the files read
(the nearest .lazylint.yml from the working directory up and the files it
extends), the rules that run with their severities and options, the exclude
patterns, the overrides, fail-on, low-confidence, report-unused-suppressions,
include-dirs, compile-commands, extensions, and the team's own launchers,
preloads, clocks and timers. A comment after each setting
says where it came from: default, the file and line that set it, or the flag.
With FILE, the settings for that file: which overrides apply, and whether it
is excluded. The flags are check's, and go on top of the config as there.

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
			eff := cfg.Effective(rules.All, file, sel)
			f := cmd.Flags()
			if f.Changed("fail-on") {
				sev, err := rule.ParseSeverity(failOn)
				if err != nil {
					return usageError(cmd, fmt.Errorf("bad --fail-on %q (want info, warning or error)", failOn))
				}
				eff.FailOn, eff.Sources["fail-on"] = sev.String(), "--fail-on"
			}
			if f.Changed("low-confidence") {
				eff.LowConfidence, eff.Sources["low-confidence"] = lowConfidence, "--low-confidence"
			}
			if f.Changed("report-unused-suppressions") {
				eff.ReportUnusedSuppressions, eff.Sources["report-unused-suppressions"] = reportUnused, "--report-unused-suppressions"
			}
			for _, d := range includeDirs {
				abs, err := filepath.Abs(d)
				if err != nil {
					return usageError(cmd, err)
				}
				// check looks in the flag's folders before the config's.
				eff.IncludeDirs = append([]string{abs}, eff.IncludeDirs...)
				eff.Sources["include-dirs/"+abs] = "--include-dir"
			}
			if cfg == nil {
				eff.Files = []string{}
				fmt.Fprintln(cmd.OutOrStdout(), "# no config file: every rule at its defaults")
			}
			doc, err := annotated(eff)
			if err != nil {
				return err
			}
			enc := yaml.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent(2)
			if err := enc.Encode(doc); err != nil {
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
	f.StringVar(&failOn, "fail-on", "warning", "as for check: the lowest severity that fails a run")
	f.BoolVar(&lowConfidence, "low-confidence", false, "as for check")
	f.BoolVar(&reportUnused, "report-unused-suppressions", false, "as for check")
	f.StringArrayVar(&includeDirs, "include-dir", nil, "as for check: a folder where #include is looked for")
	return cmd
}

// annotated returns eff as a YAML document with a comment after each
// setting saying where it came from (eff.Sources).
func annotated(eff config.Effective) (*yaml.Node, error) {
	var doc yaml.Node
	if err := doc.Encode(eff); err != nil {
		return nil, err
	}
	src := eff.Sources
	note := func(n *yaml.Node, key string) {
		if where, ok := src[key]; ok && where != "" {
			n.LineComment = where
		}
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		switch k.Value {
		case "rules":
			for _, r := range v.Content {
				annotateRule(r, note)
			}
		case "disabled":
			var parts []string
			for _, id := range v.Content {
				if where := src["disabled."+id.Value]; where != "" {
					parts = append(parts, id.Value+": "+where)
				}
			}
			if len(parts) > 0 {
				v.LineComment = strings.Join(parts, "; ")
			}
		case "exclude", "include-dirs", "compile-commands", "extensions", "launchers", "preloads", "clocks", "timers":
			annotateList(k.Value, v, note)
		default:
			note(v, k.Value)
		}
	}
	return &doc, nil
}

// annotateList notes where each item of the list setting key came from;
// an empty list says what it means.
func annotateList(key string, v *yaml.Node, note func(*yaml.Node, string)) {
	if len(v.Content) == 0 {
		v.Style = yaml.FlowStyle
		v.LineComment = emptyListMeans(key)
	}
	for _, item := range v.Content {
		name := item.Value
		if item.Kind == yaml.MappingNode { // launchers, preloads, clocks, timers
			item.Style = yaml.FlowStyle // one entry a line, its source after it
			name = additionName(item)
		}
		note(item, key+"/"+name)
	}
}

// additionName is the name of an entry of launchers, preloads, clocks or
// timers: the scalar itself, or its name or class.
func additionName(item *yaml.Node) string {
	for i := 0; i+1 < len(item.Content); i += 2 {
		if k := item.Content[i].Value; k == "name" || k == "class" {
			return item.Content[i+1].Value
		}
	}
	return item.Value
}

// annotateRule notes where a rule's entry of `rules:` came from.
func annotateRule(r *yaml.Node, note func(*yaml.Node, string)) {
	id := ""
	for i := 0; i+1 < len(r.Content); i += 2 {
		if r.Content[i].Value == "id" {
			id = r.Content[i+1].Value
		}
	}
	for i := 0; i+1 < len(r.Content); i += 2 {
		k, v := r.Content[i], r.Content[i+1]
		switch k.Value {
		case "id":
			note(v, "rules."+id)
		case "severity":
			note(v, "rules."+id+".severity")
		case "options":
			for j := 0; j+1 < len(v.Content); j += 2 {
				note(v.Content[j+1], "rules."+id+".options."+v.Content[j].Value)
			}
		}
	}
}

// emptyListMeans says what an empty list setting means.
func emptyListMeans(key string) string {
	switch key {
	case "compile-commands":
		return "default: compile_commands.json or build/compile_commands.json in the project, if there"
	case "extensions":
		return "default: only the usual endings (lazylint check --help)"
	case "launchers", "preloads", "clocks", "timers":
		return "default: only the built-in ones (README: Configuration)"
	}
	return config.Default
}
