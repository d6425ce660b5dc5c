package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/engine"
)

func newSummarizeCommand() *cobra.Command {
	var o checkOptions
	var out string
	cmd := &cobra.Command{
		Use:   "summarize [PATH...] -o DIR",
		Short: "Write what a check computes of each file alone, for checks on other machines or in a build system",
		Long: `Write into DIR, for each C, C++ and CUDA file under the paths, what a check
computes of the file alone: its result before the project's facts and its
summary for the project step. Entries are named by a hash of the file's
bytes, this lazylint binary and the settings (the same configuration must be
used by the check), so folders written by several runs (one per file, in a
build system) can be merged by copying, and never go stale.

"lazylint check --summaries DIR" then reads them after its own cache: it
parses only the files whose result the project's facts change. DIR has the
cache's layout: a cache folder restored on a CI machine serves as well.`,
		RunE: func(cmd *cobra.Command, args []string) error { return runSummarize(cmd, &o, out, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "the folder to write the summaries to (created if need be)")
	f.IntVarP(&o.workers, "jobs", "j", 0, "parallel workers (0: one per core)")
	f.StringSliceVar(&o.enable, "enable", nil, "run only these rules (as for check: the check must select the same)")
	f.StringSliceVar(&o.disable, "disable", nil, "do not run these rules (as for check)")
	f.StringArrayVar(&o.ruleOptions, "rule-option", nil, "set a rule option: RULE.option=value (as for check)")
	f.BoolVar(&o.lowConfidence, "low-confidence", false, "as for check")
	f.BoolVar(&o.reportUnused, "report-unused-suppressions", false, "as for check")
	f.DurationVar(&o.parseLimit, "parse-limit", cudaparse.DefaultParseLimit, "longest time one file may take to parse")
	f.IntVar(&o.maxParseMiB, "max-parse-mib", engine.DefaultMaxParseBytes>>20, "largest file parsed, in MiB (0: no limit)")
	o.config.register(f)
	return cmd
}

func runSummarize(cmd *cobra.Command, o *checkOptions, out string, paths []string) error {
	usage := func(format string, args ...any) error {
		printPrefixed(cmd.ErrOrStderr(), fmt.Sprintf(format, args...))
		return exitError{ExitFailure}
	}
	if out == "" {
		return usage("summarize needs the folder to write to: -o DIR")
	}
	sel, err := flagSelection(o.enable, o.disable, o.ruleOptions)
	if err != nil {
		return usage("%v", err)
	}
	cfg, err := o.config.load()
	if err != nil {
		return usage("%v", err)
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	wd, err := os.Getwd()
	if err != nil {
		return usage("%v", err)
	}
	o.noCache, o.noProject = true, true
	opts := o.engineOptions(cmd, paths, wd, cfg, sel)
	if opts.Cache, err = cache.Open(out); err != nil {
		return usage("cannot write summaries: %v", err)
	}
	stats, errs := engine.Summarize(opts)
	for _, e := range errs {
		printPrefixed(cmd.ErrOrStderr(), fmt.Sprintf("%s: %s", e.Path, e.Message))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "summarized %d files in %.2fs: %d results, %d parse summaries (%d files parsed) in %s\n",
		stats.Files, stats.Duration.Seconds(), stats.Results, stats.Summaries, stats.Parsed, out)
	if len(errs) > 0 {
		return exitError{ExitFailure}
	}
	return nil
}
