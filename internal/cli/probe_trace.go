package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/runtime-probe/cupti"
)

func newProbeTraceCommand() *cobra.Command {
	var format, traceOut, svgOut, mode, libOverride string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "trace [flags] -- CMD ARGS...",
		Short: "Run a program with a CUPTI injection library: per-kernel lazy loads, launches and waits",
		Long: `trace runs the program once (under CUDA_MODULE_LOADING=LAZY unless --mode
says otherwise) with an injection library that the CUDA driver loads at
cuInit (CUDA_INJECTION64_PATH). The library records, through CUPTI, each
launch (kernel, stream, host call time, result), each kernel's lazy load
(CUPTI's LAZY_FUNCTION_LOADING overhead records, matched to the launch that
triggered it), each kernel's run on the GPU, module loads and device
allocations. The table shows, per kernel, the load, the first and later run
times, and whether its kernel waited for a kernel on another stream: under
lazy loading a kernel loaded while another runs can wait for it to end.

The library is built from C source carried by lazylint, with the system C
compiler ($CC, gcc or cc) against the toolkit's CUPTI (found under
$CUDA_HOME, $CUDA_PATH, nvcc's toolkit or /usr/local/cuda), once per toolkit,
into the user cache folder. Without CUPTI or a compiler, trace says so and
exits 3; probe run still works. Tools that hold CUPTI's one subscriber slot
(Nsight, compute-sanitizer, PyTorch's profiler) make the trace empty; the
table then shows the CUPTI error.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format); err != nil {
				return usageError(cmd, err)
			}
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return usageError(cmd, errors.New("give the program after --, e.g. lazylint probe trace -- ./app"))
			}
			mode = strings.ToUpper(mode)
			if mode != "LAZY" && mode != "EAGER" && mode != "" {
				return usageError(cmd, fmt.Errorf("--mode %q: want lazy, eager or an empty string (keep the environment's)", mode))
			}
			lib := libOverride
			if lib == "" {
				tk, err := cupti.FindToolkit()
				if err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), "lazylint probe trace:", err, "(probe run needs no CUPTI)")
					return exitError{ExitNoDriver}
				}
				cache, err := os.UserCacheDir()
				if err != nil {
					cache = os.TempDir()
				}
				lib, err = cupti.Build(cmd.Context(), tk, cache)
				if err != nil {
					fmt.Fprintln(cmd.ErrOrStderr(), "lazylint probe trace:", err, "(probe run needs no compiler)")
					return exitError{ExitNoDriver}
				}
			}
			res, err := cupti.Run(cmd.Context(), cupti.RunOptions{Command: args, Library: lib, Mode: mode, Timeout: timeout, Stdout: cmd.ErrOrStderr(), Stderr: cmd.ErrOrStderr()})
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), "lazylint probe trace:", err)
				return exitError{ExitFailure}
			}
			if len(res.Traces) == 0 {
				fmt.Fprintln(cmd.ErrOrStderr(), "lazylint probe trace: no trace was written: the program did not initialize CUDA, or the driver did not load the injection library")
			}
			if traceOut != "" {
				if err := writeFileWith(traceOut, func(f *os.File) error { return cupti.WriteChromeTrace(f, res.Traces) }); err != nil {
					return usageError(cmd, err)
				}
			}
			if svgOut != "" && len(res.Traces) > 0 {
				if err := writeFileWith(svgOut, func(f *os.File) error { return cupti.WriteSVG(f, res.Traces[0]) }); err != nil {
					return usageError(cmd, err)
				}
			}
			out := cmd.OutOrStdout()
			if format == "json" {
				return writeJSON(out, res)
			}
			fmt.Fprintf(out, "exit %d in %.1f ms", res.ExitCode, res.WallMS)
			if res.TimedOut {
				fmt.Fprintf(out, " (timed out after %s; process group killed)", timeout)
			}
			fmt.Fprintln(out)
			for _, t := range res.Traces {
				cupti.WriteTable(out, t)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&format, "format", "f", "text", "output format: text, json")
	f.StringVar(&traceOut, "trace", "", "write a Chrome trace file (Perfetto, chrome://tracing)")
	f.StringVar(&svgOut, "svg", "", "write an SVG timeline of the first process")
	f.StringVar(&mode, "mode", "lazy", "CUDA_MODULE_LOADING for the run: lazy, eager, or \"\" to keep the environment's")
	f.DurationVar(&timeout, "timeout", time.Minute, "kill the program's process group after this")
	f.StringVar(&libOverride, "injection-lib", "", "use this injection library instead of building one")
	return cmd
}

func writeFileWith(path string, write func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
