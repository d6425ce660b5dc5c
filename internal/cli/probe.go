package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/ianlancetaylor/demangle"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lazylint/lazylint/internal/report"
	"github.com/lazylint/lazylint/runtime-probe/cupti"
	"github.com/lazylint/lazylint/runtime-probe/diffrun"
	"github.com/lazylint/lazylint/runtime-probe/driver"
)

func newProbeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "probe",
		Short: "Show lazy loading happening on this machine's GPU",
		Long: `probe talks to the CUDA driver (libcuda.so.1, loaded at run time: no CUDA
toolkit or headers needed; $` + driver.LibraryEnv + ` names another library) and
runs programs under both loading modes.

Exit codes: env and module exit 3 when there is no usable CUDA driver; run
exits 0 when the modes show no lazy-only difference, 1 when they do, 2 when
the program could not be run, 3 when it failed in both modes without CUDA
(verdict no-cuda), 130 when interrupted.`,
	}
	cmd.AddCommand(newProbeEnvCommand(), newProbeModuleCommand(), newProbeRunCommand(), newProbeTraceCommand())
	return cmd
}

func checkFormat(format string) error {
	if format != "text" && format != "json" {
		return fmt.Errorf("unknown format %q (want text or json)", format)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // <, > and & as written: C++ templates and && stay readable
	return enc.Encode(v)
}

// driverError reports a driver failure and picks its exit code.
func driverError(cmd *cobra.Command, err error) error {
	fmt.Fprintln(cmd.ErrOrStderr(), "lazylint probe:", err)
	if errors.Is(err, driver.ErrNoDriver) {
		return exitError{ExitNoDriver}
	}
	return exitError{ExitFailure}
}

func newProbeEnvCommand() *cobra.Command {
	var format, library string
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Driver version, GPUs and the loading mode CUDA picks here",
		Long: `env reports the driver's CUDA version, each GPU (name, compute capability,
total and free memory), the loading mode cuModuleGetLoadingMode reports after
cuInit in this process, and the CUDA_MODULE_LOADING and
CUDA_MODULE_DATA_LOADING settings it was made under.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(format); err != nil {
				return usageError(cmd, err)
			}
			env, err := driver.ProbeEnv(library, true)
			if err != nil {
				if format == "json" {
					_ = writeJSON(cmd.OutOrStdout(), struct {
						driver.Env
						Error string `json:"error"`
					}{env, err.Error()})
				}
				return driverError(cmd, err)
			}
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), env)
			}
			writeEnvText(cmd.OutOrStdout(), env)
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, json")
	cmd.Flags().StringVar(&library, "libcuda", "", "driver library to load (default $"+driver.LibraryEnv+" or "+driver.DefaultLibrary+")")
	return cmd
}

func writeEnvText(w io.Writer, env driver.Env) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "library:\t%s\n", env.Library)
	fmt.Fprintf(tw, "driver:\tCUDA %s\n", env.DriverVersion)
	mode := env.LoadingMode
	if env.LoadingModeError != "" {
		mode += " (" + env.LoadingModeError + ")"
	}
	fmt.Fprintf(tw, "loading mode:\t%s\n", mode)
	for _, name := range driver.EnvVars {
		v := "(unset)"
		if p := env.Variables[name]; p != nil {
			v = fmt.Sprintf("%q", *p)
		}
		fmt.Fprintf(tw, "%s:\t%s\n", name, v)
	}
	for _, warn := range env.Warnings {
		fmt.Fprintf(tw, "warning:\t%s\n", warn)
	}
	for _, d := range env.Devices {
		fmt.Fprintf(tw, "device %d:\t%s, compute %s, %s total, %s free\n", d.Index, d.Name, d.ComputeCapability, cupti.BytesText(int64(d.TotalBytes)), cupti.BytesText(int64(d.FreeBytes)))
	}
	_ = tw.Flush()
}

func newProbeModuleCommand() *cobra.Command {
	var format, library, mode string
	var device int
	cmd := &cobra.Command{
		Use:   "module FILE",
		Short: "Each kernel's load time and device memory, loaded one by one",
		Long: `module loads a cubin, fatbin or PTX file (cuLibraryLoadData, or
cuModuleLoadData on older drivers), then each of its kernels one by one
(cuKernelGetFunction, cuFuncLoad where the driver has it), and reports the
time and the drop in free device memory of each step. The total is the
headroom a program that allocates (nearly) all device memory before its first
launch must leave for this image. Memory is allocated by the driver in chunks
(2 MiB on current GPUs), so single kernels show a whole chunk or nothing.

--mode sets CUDA_MODULE_LOADING for this process before CUDA starts; under
eager loading the image load takes everything at once.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return usageError(cmd, err)
			}
			mode = strings.ToUpper(mode)
			if mode != diffrun.ModeLazy && mode != diffrun.ModeEager {
				return usageError(cmd, fmt.Errorf("--mode %q: want lazy or eager", mode))
			}
			image, err := os.ReadFile(args[0])
			if err != nil {
				return usageError(cmd, err)
			}
			if _, err := driver.DetectFormat(image); err != nil {
				// A host executable or library: probe the device code it
				// embeds, saying so, rather than call it a cubin.
				fatbins, ferr := driver.HostFatbins(image)
				if ferr != nil || len(fatbins) == 0 {
					return usageError(cmd, fmt.Errorf("%s: %w", args[0], err))
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: host ELF with %d fatbin container(s) in .nv_fatbin; probing the first (%s)\n", args[0], len(fatbins), cupti.BytesText(int64(len(fatbins[0]))))
				image = fatbins[0]
			}
			// CUDA reads the variable once, in cuInit, from the C environment,
			// which os.Setenv writes when cgo is in use.
			if err := os.Setenv("CUDA_MODULE_LOADING", mode); err != nil {
				return err
			}
			d, err := driver.Open(library)
			if err != nil {
				return driverError(cmd, err)
			}
			defer d.Close()
			if err := d.Init(); err != nil {
				return driverError(cmd, err)
			}
			rep, err := d.ProbeModule(image, device)
			rep.File = args[0]
			if err != nil {
				if format == "json" {
					_ = writeJSON(cmd.OutOrStdout(), struct {
						driver.ModuleReport
						Error string `json:"error"`
					}{rep, err.Error()})
				}
				return driverError(cmd, err)
			}
			if format == "json" {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			writeModuleText(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&format, "format", "f", "text", "output format: text, json")
	f.StringVar(&library, "libcuda", "", "driver library to load (default $"+driver.LibraryEnv+" or "+driver.DefaultLibrary+")")
	f.StringVar(&mode, "mode", "lazy", "loading mode to probe under: lazy or eager")
	f.IntVar(&device, "device", 0, "GPU to load the image on")
	return cmd
}

func writeModuleText(w io.Writer, rep driver.ModuleReport) {
	fmt.Fprintf(w, "%s: %s, %s, on device %d (%s), loading mode %s\n", rep.File, rep.Format, cupti.BytesText(int64(rep.ImageBytes)), rep.Device.Index, rep.Device.Name, rep.LoadingMode)
	fmt.Fprintf(w, "%s: %.3f ms, %s of device memory\n", rep.API, rep.LoadMS, cupti.BytesText(rep.LoadBytes))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "load ms\tdevice memory\tloaded by\tkernel\t")
	for _, k := range rep.Kernels {
		fmt.Fprintf(tw, "%.3f\t%s\t%s\t%s\t\n", k.LoadMS, cupti.BytesText(k.DeviceBytes), k.LoadedBy, demangle.Filter(k.Name, demangle.NoParams))
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "total: %d kernels, %.3f ms, %s of device memory: the headroom a program that takes (nearly) all free memory before its first launch must leave for this image\n",
		len(rep.Kernels), rep.TotalMS, cupti.BytesText(rep.TotalBytes))
}

// probeRunOptions are the flags of a differential run, shared by probe run
// and check --confirm.
type probeRunOptions struct {
	timeout    time.Duration
	repeat     int
	slowdown   float64
	minDelta   time.Duration
	showOutput bool
}

func (o *probeRunOptions) register(f *pflag.FlagSet, prefix string) {
	f.DurationVar(&o.timeout, prefix+"timeout", diffrun.DefaultTimeout, "a run that takes longer is a hang: its process group is killed")
	f.IntVar(&o.repeat, prefix+"repeat", 1, "LAZY/EAGER pairs to run; printed figures are compared by their median")
	f.Float64Var(&o.slowdown, prefix+"slowdown", diffrun.DefaultSlowdown, "factor by which a printed timing or size must differ")
	f.DurationVar(&o.minDelta, prefix+"min-time-delta", diffrun.DefaultMinTimeDelta, "smallest difference in a printed timing that counts")
	f.BoolVar(&o.showOutput, prefix+"show-output", false, "copy the program's output to stderr, each line prefixed with its mode")
}

// run runs command under both modes; Ctrl-C kills the running program's
// process group.
func (o *probeRunOptions) run(cmd *cobra.Command, command []string) (*diffrun.Report, error) {
	if o.repeat < 1 {
		return nil, usageError(cmd, fmt.Errorf("repeat must be at least 1, got %d", o.repeat))
	}
	if o.slowdown <= 1 {
		return nil, usageError(cmd, fmt.Errorf("slowdown must be above 1, got %g", o.slowdown))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := diffrun.Options{
		Command: command, Timeout: o.timeout, Repeat: o.repeat,
		Slowdown: o.slowdown, MinTimeDelta: o.minDelta,
	}
	if o.showOutput {
		opts.Output = cmd.ErrOrStderr()
	}
	// Looked for before the runs, so that a program that fails in both
	// modes for want of a driver is judged no-cuda, not fails-in-both.
	opts.NoDriver = noUsableDriver()
	rep, err := diffrun.Differential(ctx, opts)
	switch {
	case errors.Is(err, diffrun.ErrInterrupted):
		fmt.Fprintln(cmd.ErrOrStderr(), "lazylint probe:", err)
		return nil, exitError{ExitInterrupted}
	case err != nil:
		fmt.Fprintln(cmd.ErrOrStderr(), "lazylint probe:", err)
		return nil, exitError{ExitFailure}
	}
	return rep, nil
}

func newProbeRunCommand() *cobra.Command {
	var o probeRunOptions
	var format string
	cmd := &cobra.Command{
		Use:   "run [flags] -- CMD ARGS...",
		Short: "Run a program under CUDA_MODULE_LOADING=LAZY and =EAGER and compare",
		Long: `run starts the program under CUDA_MODULE_LOADING=LAZY, then =EAGER (both
variables, CUDA_MODULE_DATA_LOADING too), each in its own process group that
is killed whole at the timeout, and reports for each run the exit status,
whether it timed out, its wall time and the out-of-memory or load errors in
its output. Then a verdict, the first of these that applies:

  hang-under-lazy    only LAZY runs passed the timeout (a load deadlock)
  hang-under-eager   only EAGER runs did
  hang-in-both       both did: not a lazy-loading effect
  fails-under-lazy   only LAZY runs failed: exit status, signal, or an
                     out-of-memory or load error in the output
  fails-under-eager  only EAGER runs failed
  fails-in-both      both failed
  no-cuda            both failed and CUDA could not start: no usable driver
                     here, or the program printed that it found no driver or
                     device (tried first; exit 3)
  slower-under-lazy  a timing the program prints (a number with a unit such
                     as ms or us) is --slowdown times larger under LAZY
  figures-differ     a printed size, or a printed timing smaller under LAZY,
                     differs as much (e.g. memory measured around cuModuleLoad)
  same               none of these

Printed figures are paired by the shape of their line (numbers masked) and
its occurrence, so "first launch: 0.318 ms" under LAZY is compared with
"first launch: 0.021 ms" under EAGER.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return usageError(cmd, err)
			}
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return usageError(cmd, errors.New("give the program after --, e.g. lazylint probe run -- ./app --size 1024"))
			}
			rep, err := o.run(cmd, args)
			if err != nil {
				return err
			}
			if format == "json" {
				if err := writeJSON(cmd.OutOrStdout(), rep); err != nil {
					return err
				}
			} else {
				report.ProbeText(cmd.OutOrStdout(), rep)
			}
			if rep.Verdict == diffrun.NoCUDA {
				noCUDANotice(cmd.ErrOrStderr(), "probe run", rep)
				return exitError{ExitNoDriver}
			}
			if rep.Verdict.LazyOnly() {
				return exitError{ExitFindings}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "text", "output format: text, json")
	o.register(cmd.Flags(), "")
	return cmd
}

// noUsableDriver says why this machine has no usable CUDA driver: the
// driver library ($LAZYLINT_LIBCUDA or libcuda.so.1) cannot be loaded or
// cuInit fails. It returns "" when there is one.
func noUsableDriver() string {
	d, err := driver.Open("")
	if err == nil {
		err = d.Init()
		d.Close()
	}
	if err == nil || !errors.Is(err, driver.ErrNoDriver) {
		return ""
	}
	return strings.TrimPrefix(err.Error(), driver.ErrNoDriver.Error()+": ")
}

// noCUDANotice is the one line said when the runs showed that CUDA could
// not start: what it means for the findings, and the exit code.
func noCUDANotice(w io.Writer, what string, rep *diffrun.Report) {
	why := "the program could not start CUDA (no driver or device, as its output says)"
	if strings.HasPrefix(rep.Reason, "no usable CUDA driver") {
		why = "no usable CUDA driver on this machine"
	}
	fmt.Fprintf(w, "lazylint: %s: %s: the program failed in both modes and exercised no kernel, so no finding is confirmed or refuted (each is marked not exercised); exit %d. Run it where the program can use a GPU.\n", what, why, ExitNoDriver)
}

// usageError prints err and exits 2.
func usageError(cmd *cobra.Command, err error) error {
	printPrefixed(cmd.ErrOrStderr(), err.Error())
	return exitError{ExitFailure}
}

// printPrefixed prints msg with "lazylint: " before each of its lines (a
// config file with several mistakes gives one per line).
func printPrefixed(w io.Writer, msg string) {
	for _, line := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		fmt.Fprintln(w, "lazylint: "+line)
	}
}
