package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/baseline"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/config"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/report"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/version"
	"github.com/lazylint/lazylint/rules"
	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

type checkOptions struct {
	format        string
	workers       int
	enable        []string
	disable       []string
	ruleOptions   []string
	lowConfidence bool
	parseLimit    time.Duration
	maxParseMiB   int
	confirm       bool
	probe         probeRunOptions
	reportUnused  bool
	output        string
	exitZero      bool
	config        configFlags
	baseline      string
	writeBaseline string
	fix           bool
	diff          bool
	color         string
	noProgress    bool
	noCache       bool
	project       string
	noProject     bool
	failOn        string
	includeDirs   []string
	compileDB     string
	statistics    bool
	cpuProfile    string
	trace         bool
	memProfile    string
	summaries     []string
}

func newCheckCommand() *cobra.Command {
	var o checkOptions
	cmd := &cobra.Command{
		Use:   "check [PATH...] [--confirm -- CMD ARGS...]",
		Short: "Check files and folders (default: the current folder)",
		Long: `Check C, C++ and CUDA files (` + strings.Join(cudaparse.Extensions, " ") + `), and .go
files that call CUDA through cgo or through a binding package (one that does,
in the tree or in a local module its go.mod or go.work names): their cgo
preambles with the C rules, the Go code with the cgo analyzers. Folders are walked in parallel, honouring .gitignore
below them and skipping .git; the files and folders named are checked even
when .gitignore lists them.

With --confirm, the program after "--" is then run under
CUDA_MODULE_LOADING=LAZY and =EAGER (see "lazylint probe run") and every
finding is marked confirmed or not confirmed: a hang only under LAZY confirms
LL003, a failure only under LAZY LL001, a printed timing that is slower only
under LAZY LL002, a printed figure that differs LL004.

Exit codes: 0 no findings at or above --fail-on (default warning; fail-on:
in .lazylint.yml), 1 findings at or above it, 2 usage error or a file that
could not be read or parsed (the other files are still checked and
reported), 3 with --confirm when the program failed in both modes without
CUDA (no usable driver: findings marked not exercised).`,
		RunE: func(cmd *cobra.Command, args []string) error { return runCheck(cmd, &o, args) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.format, "format", "f", "text", "output format: "+strings.Join(report.Formats, ", "))
	f.IntVarP(&o.workers, "jobs", "j", 0, "parallel workers (0: one per core)")
	f.StringSliceVar(&o.enable, "enable", nil, "run only these rules: IDs, names, globs (LL00*) or all, as in .lazylint.yml")
	f.StringSliceVar(&o.disable, "disable", nil, "do not run these rules: IDs, names, globs (LL00*) or all, as in .lazylint.yml")
	f.StringArrayVar(&o.ruleOptions, "rule-option", nil, "set a rule option: RULE.option=value (e.g. LL001.threshold=0.8)")
	f.BoolVar(&o.lowConfidence, "low-confidence", false, "also report findings in code the parser did not understand, marked as such")
	f.DurationVar(&o.parseLimit, "parse-limit", cudaparse.DefaultParseLimit, "longest time one file may take to parse")
	f.IntVar(&o.maxParseMiB, "max-parse-mib", engine.DefaultMaxParseBytes>>20, "largest file parsed, in MiB (0: no limit); larger files that need a parse are reported as not checked. A check takes about "+strconv.Itoa(engine.ParseMemoryFactor)+" times a file's size in memory")
	f.StringVarP(&o.output, "output", "o", "", "write the report to this file instead of stdout")
	f.BoolVar(&o.exitZero, "exit-zero", false, "exit 0 even when there are findings (file errors still exit 2)")
	f.StringVar(&o.failOn, "fail-on", "warning", "lowest severity that fails the run (exit 1): info, warning or error; findings below it are reported but exit 0")
	f.BoolVar(&o.reportUnused, "report-unused-suppressions", false, "report suppression comments that name lazylint but silence no finding (LL000)")
	f.BoolVar(&o.confirm, "confirm", false, "run the program after -- under LAZY and EAGER and mark each finding confirmed or not")
	o.probe.register(f, "confirm-")
	o.config.register(f)
	f.StringVar(&o.baseline, "baseline", "", "hide the findings recorded in this baseline file: only new ones are reported and fail")
	f.StringVar(&o.writeBaseline, "write-baseline", "", "record the current findings in this baseline file and exit 0")
	f.BoolVar(&o.fix, "fix", false, "apply the rules' suggested fixes to the files, then report what is left")
	f.StringVar(&o.color, "color", "auto", "color the text report: auto (on a terminal, unless NO_COLOR is set), always or never")
	f.BoolVar(&o.noCache, "no-cache", false, "neither read nor write the cache of per-file results (in $LAZYLINT_CACHE_DIR, default the user cache folder's lazylint/)")
	f.StringArrayVar(&o.summaries, "summaries", nil, "a folder of summaries written by `lazylint summarize` (or a cache folder from another machine) to read results and summaries from, after the cache (repeatable; never written)")
	f.BoolVar(&o.noProgress, "no-progress", false, "draw no progress bar (one is drawn on stderr for long runs on a terminal, never in CI)")
	f.BoolVar(&o.statistics, "statistics", false, "count the findings per rule (after the text report; on stderr with other formats)")
	f.BoolVar(&o.diff, "diff", false, "print the suggested fixes as a unified diff instead of a report; exit 1 when there are any")
	f.StringVar(&o.project, "project", "", "folder whose other files lend their facts (launchers, warm-ups, header macros) without being checked (default: the folders checked; when only files are named, their repository)")
	f.BoolVar(&o.noProject, "no-project", false, "check each file alone, without the facts of the project's other files")
	f.StringArrayVar(&o.includeDirs, "include-dir", nil, "a folder where #include is looked for (repeatable; also include-dirs in .lazylint.yml)")
	f.StringVar(&o.compileDB, "compile-commands", "", "a compile_commands.json whose -I and renaming -D flags are used (default: compile_commands.json or build/compile_commands.json in the project)")
	// For bench/: where a check spends its time, in pprof's format.
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the check to this file")
	_ = f.MarkHidden("cpuprofile")
	f.StringVar(&o.memProfile, "memprofile", "", "write a heap profile, taken at the phase of the check that held the most, to this file")
	_ = f.MarkHidden("memprofile")
	f.BoolVar(&o.trace, "trace", false, "print the time each phase of the check took on stderr")
	_ = f.MarkHidden("trace")
	return cmd
}

func runCheck(cmd *cobra.Command, o *checkOptions, paths []string) error {
	usage := func(format string, args ...any) error {
		printPrefixed(cmd.ErrOrStderr(), fmt.Sprintf(format, args...))
		return exitError{ExitFailure}
	}
	if !contains(report.Formats, o.format) {
		return usage("unknown format %q (want one of %s)", o.format, strings.Join(report.Formats, ", "))
	}
	if !contains(colorModes, o.color) {
		return usage("bad --color %q (want %s)", o.color, strings.Join(colorModes, ", "))
	}
	failOn, err := rule.ParseSeverity(o.failOn)
	if err != nil {
		return usage("bad --fail-on %q (want info, warning or error)", o.failOn)
	}
	if o.workers < 0 {
		return usage("bad --jobs %d (want a positive number, or 0 for one per core)", o.workers)
	}
	if o.cpuProfile != "" {
		out, err := os.Create(o.cpuProfile)
		if err != nil {
			return usage("%v", err)
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			return usage("%v", err)
		}
		defer pprof.StopCPUProfile()
	}
	switch {
	case o.diff && cmd.Flags().Changed("format"):
		return usage("--diff prints a unified diff; it cannot be combined with --format")
	case o.diff && o.writeBaseline != "":
		return usage("--diff writes nothing; it cannot be combined with --write-baseline")
	}
	sel, err := flagSelection(o.enable, o.disable, o.ruleOptions)
	if err != nil {
		return usage("%v", err)
	}
	cfg, err := o.config.load()
	if err != nil {
		return usage("%v", err)
	}
	if cfg != nil && cfg.FailOn != nil && !cmd.Flags().Changed("fail-on") {
		failOn = *cfg.FailOn
	}
	var command []string
	if dash := cmd.ArgsLenAtDash(); dash >= 0 {
		paths, command = paths[:dash], paths[dash:]
	}
	switch {
	case o.confirm && len(command) == 0:
		return usage("--confirm needs the program to run after --, e.g. check src --confirm -- ./build/app")
	case !o.confirm && len(command) > 0:
		return usage("a command after -- is only run with --confirm")
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	switch {
	case o.fix && o.diff:
		return usage("--fix writes the fixes and --diff only shows them: choose one")
	case (o.fix || o.diff) && o.confirm:
		return usage("--confirm cannot be combined with --fix or --diff")
	}
	var base *baseline.Baseline
	if o.baseline != "" {
		if _, err := os.Stat(o.baseline); errors.Is(err, fs.ErrNotExist) {
			return usage("baseline file %s does not exist; create it with --write-baseline %s", o.baseline, o.baseline)
		}
		if base, err = baseline.Read(o.baseline); err != nil {
			return usage("%v", err)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return usage("%v", err)
	}
	engineOptions := o.engineOptions(cmd, paths, wd, cfg, sel)
	runEngine := o.runner(cmd)
	res := runEngine(engineOptions)
	for _, p := range res.ExcludedNamed {
		fmt.Fprintf(cmd.ErrOrStderr(), "lazylint: %s is excluded by the configuration's exclude patterns; not checked (--no-config checks it)\n", p)
	}
	if res.Stats.Files == 0 && len(res.Errors) == 0 && len(res.ExcludedNamed) == 0 {
		// Not an error (a hook on a commit without sources), but never
		// silent: a mistyped folder would otherwise pass.
		fmt.Fprintf(cmd.ErrOrStderr(), "lazylint: no C, C++, CUDA or cgo files to check in %s\n", strings.Join(paths, ", "))
	}
	if o.writeBaseline != "" {
		if err := baseline.Write(o.writeBaseline, res.Findings, wd); err != nil {
			return usage("cannot write the baseline: %v", err)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "lazylint: wrote %d finding(s) to the baseline %s\n", len(res.Findings), o.writeBaseline)
		if len(res.Errors) > 0 {
			return exitError{ExitFailure}
		}
		return nil
	}
	filter := func(res *engine.Result) *report.BaselineStats {
		if base == nil {
			return nil
		}
		var st report.BaselineStats
		var known []engine.Finding
		res.Findings, known, st.Stale = base.Filter(res.Findings, wd)
		st.Known = len(known)
		return &st
	}
	if o.fix || o.diff {
		filter(&res) // findings the baseline accepts are not fixed either
		fixes, errs := engine.PlanFixes(res.Findings)
		res.Errors = append(res.Errors, errs...)
		if o.diff {
			return writeDiff(cmd, fixes, res.Errors)
		}
		if err := writeFixes(cmd, fixes); err != nil {
			return usage("%v", err)
		}
		res = runEngine(engineOptions) // report what is left
		res.Errors = append(res.Errors, errs...)
	}
	extras := report.Extras{Rules: rules.All, ToolVersion: version.Version, Baseline: filter(&res), BaseDir: wd, Root: sourceRoot(wd), Statistics: o.statistics}
	if o.confirm {
		rep, err := o.probe.run(cmd, command)
		if err != nil {
			return err
		}
		extras.Probe = rep
		if rep.Verdict != diffrun.NoCUDA { // traced runs would fail as well
			extras.Evidence = traceEvidence(cmd, command, o.probe.timeout, o.probe.slowdown)
		}
	}
	if err := o.writeReport(cmd, res, extras); err != nil {
		return usage("cannot write the report: %v", err)
	}
	noCUDA := extras.Probe != nil && extras.Probe.Verdict == diffrun.NoCUDA
	if noCUDA {
		noCUDANotice(cmd.ErrOrStderr(), "--confirm", extras.Probe)
	}
	switch {
	case len(res.Errors) > 0:
		return exitError{ExitFailure}
	case noCUDA:
		return exitError{ExitNoDriver}
	case !o.exitZero && failing(res.Findings, failOn):
		return exitError{ExitFindings}
	}
	return nil
}

// engineOptions are the engine's options for a check: the config with the
// flags' selection on top, its excludes, the cache.
func (o *checkOptions) engineOptions(cmd *cobra.Command, paths []string, wd string, cfg *config.Config, sel config.Selection) engine.Options {
	opts := configOptions(cfg, sel)
	opts.Paths, opts.BaseDir = paths, wd
	opts.Workers = o.workers
	opts.ParseLimit = o.parseLimit
	opts.MaxParseBytes = maxParseBytes(o.maxParseMiB)
	// A flag given on the command line wins over the config.
	if cmd.Flags().Changed("low-confidence") {
		opts.LowConfidence = o.lowConfidence
	}
	if cmd.Flags().Changed("report-unused-suppressions") {
		opts.ReportUnusedSuppressions = o.reportUnused
	}
	if !o.noCache {
		opts.Cache = openCache(cmd)
	}
	if len(o.summaries) > 0 {
		opts.Cache = opts.Cache.WithReadOnly(o.summaries...)
	}
	if o.trace {
		opts.Trace = cmd.ErrOrStderr()
	}
	if o.memProfile != "" {
		opts.Trace = &heapAtPeak{path: o.memProfile, next: opts.Trace}
	}
	opts.NoProject = o.noProject
	if !o.noProject {
		o.projectOptions(cmd, &opts, paths, wd, cfg)
	}
	return opts
}

// projectOptions sets what project-wide analysis needs: the project's root
// when only files are named (their repository), include folders from the
// flags, the config and a compile database.
func (o *checkOptions) projectOptions(cmd *cobra.Command, opts *engine.Options, paths []string, wd string, cfg *config.Config) {
	root := o.project
	if root == "" && len(paths) > 0 {
		onlyFiles := true
		for _, p := range paths {
			if st, err := os.Stat(p); err != nil || st.IsDir() {
				onlyFiles = false
			}
		}
		if onlyFiles {
			root = engine.RepositoryRoot(filepath.Dir(paths[0]))
		}
	}
	if root != "" {
		if abs, err := filepath.Abs(root); err == nil {
			opts.ProjectRoot = abs
		}
	}
	for _, d := range o.includeDirs {
		if abs, err := filepath.Abs(d); err == nil {
			opts.IncludeDirs = append(opts.IncludeDirs, abs)
		}
	}
	var dbs []string
	if cfg != nil {
		opts.IncludeDirs = append(opts.IncludeDirs, cfg.IncludeDirs...)
		dbs = append(dbs, cfg.CompileCommands...)
	}
	if o.compileDB != "" {
		dbs = append(dbs, o.compileDB)
	}
	if len(dbs) == 0 {
		searchRoot := opts.ProjectRoot
		if searchRoot == "" {
			searchRoot = wd
			if len(paths) == 1 {
				if st, err := os.Stat(paths[0]); err == nil && st.IsDir() {
					searchRoot = paths[0]
				}
			}
		}
		if p := engine.FindCompileDB(searchRoot); p != "" {
			dbs = append(dbs, p)
		}
	}
	for _, p := range dbs {
		db, err := engine.ReadCompileDB(p)
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "lazylint: %v; going on without it\n", err)
			continue
		}
		opts.IncludeDirs = append(opts.IncludeDirs, db.IncludeDirs...)
		opts.GlobalMacros = append(opts.GlobalMacros, db.Macros...)
	}
}

// maxParseBytes turns --max-parse-mib into engine.Options.MaxParseBytes,
// where 0 means no limit.
func maxParseBytes(mib int) int64 {
	if mib <= 0 {
		return -1
	}
	return int64(mib) << 20
}

// runner returns engine.Run, with a progress bar on a terminal.
func (o *checkOptions) runner(cmd *cobra.Command) func(engine.Options) engine.Result {
	if o.noProgress || !isTerminal(cmd.ErrOrStderr()) || inCI() {
		return engine.Run
	}
	return func(opts engine.Options) engine.Result {
		bar := newProgressBar(cmd.ErrOrStderr())
		opts.Progress = bar.update
		defer bar.finish()
		return engine.Run(opts)
	}
}

// writeReport writes the report to stdout or --output.
func (o *checkOptions) writeReport(cmd *cobra.Command, res engine.Result, extras report.Extras) error {
	out := cmd.OutOrStdout()
	var file *os.File
	if o.output != "" {
		f, err := os.Create(o.output)
		if err != nil {
			return err
		}
		file, out = f, f
	}
	extras.Color = useColor(o.color, out)
	extras.Source = sourceReader(extras.BaseDir)
	extras.Width = terminalWidth(out)
	err := report.Write(out, cmd.ErrOrStderr(), o.format, res, extras)
	if err == nil && o.statistics && o.format != "text" && o.format != "concise" {
		report.Statistics(cmd.ErrOrStderr(), res) // the report's format has no place for them
	}
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// flagSelection turns --enable, --disable and --rule-option into a
// selection that goes on top of the config's.
func flagSelection(enable, disable, settings []string) (config.Selection, error) {
	var sel config.Selection
	// The config's vocabulary: "all", IDs, names and globs.
	lookup := func(names []string) ([]*rule.Rule, error) {
		var out []*rule.Rule
		for _, name := range names {
			rs, err := config.Rules(rules.All, name)
			if err != nil {
				return nil, err
			}
			out = append(out, rs...)
		}
		return out, nil
	}
	var err error
	if len(enable) > 0 {
		if sel.Enable, err = lookup(enable); err != nil {
			return sel, err
		}
	}
	if sel.Disable, err = lookup(disable); err != nil {
		return sel, err
	}
	sel.Options, err = parseRuleOptions(settings)
	// For `lazylint config`: what the flags set.
	sel.Where = map[string]string{"enable": "--enable", "disable": "--disable"}
	for id, opts := range sel.Options {
		for name := range opts {
			sel.Where["options."+id+"."+name] = "--rule-option"
		}
	}
	return sel, err
}

// parseRuleOptions parses RULE.option=value settings and checks that the
// rule and option exist.
func parseRuleOptions(settings []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, s := range settings {
		key, value, ok := strings.Cut(s, "=")
		id, name, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 {
			return nil, fmt.Errorf("bad --rule-option %q: want RULE.option=value", s)
		}
		r := rules.ByID(id)
		if r == nil {
			return nil, fmt.Errorf("bad --rule-option %q: unknown rule %q", s, id)
		}
		known := false
		for _, opt := range r.Options {
			if opt.Name != name {
				continue
			}
			known = true
			if err := opt.Check(value); err != nil {
				return nil, fmt.Errorf("bad --rule-option %q: %w", s, err)
			}
		}
		if !known {
			return nil, fmt.Errorf("bad --rule-option %q: %s has no option %q", s, r.ID, name)
		}
		if out[r.ID] == nil {
			out[r.ID] = map[string]string{}
		}
		out[r.ID][name] = value
	}
	return out, nil
}

// openCache opens the cache of per-file results; a cache that cannot be
// opened is said once on stderr and the run goes on without it.
func openCache(cmd *cobra.Command) *cache.Cache {
	dir, err := cache.Dir()
	if err == nil {
		var c *cache.Cache
		if c, err = cache.Open(dir); err == nil {
			// Entries unused for 30 days go, looked for once a day.
			c.Prune(30*24*time.Hour, 24*time.Hour)
			return c
		}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "lazylint: running without the cache: %v\n", err)
	return nil
}

// failing reports whether a finding is at least as severe as failOn.
func failing(fs []engine.Finding, failOn rule.Severity) bool {
	for _, f := range fs {
		if f.Severity >= failOn {
			return true
		}
	}
	return false
}

// sourceRoot is the folder that project-relative report paths start from:
// the repository that holds wd, or wd itself outside any repository.
func sourceRoot(wd string) string {
	if root := engine.RepositoryRoot(wd); root != "" {
		return root
	}
	return wd
}

// sourceReader returns the text of reported files, for code frames: read
// once each, decoded as the rules saw it (BOM dropped, UTF-16 decoded).
func sourceReader(baseDir string) func(string) []byte {
	texts := map[string][]byte{}
	return func(path string) []byte {
		if text, ok := texts[path]; ok {
			return text
		}
		full := path
		if !filepath.IsAbs(full) {
			full = filepath.Join(baseDir, path)
		}
		text, err := engine.ReadSource(full)
		if err != nil {
			text = nil
		}
		texts[path] = text
		return text
	}
}
