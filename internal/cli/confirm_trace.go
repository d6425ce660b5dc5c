package cli

import (
	"fmt"
	"os"
	"regexp"
	"time"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/runtime-probe/cupti"
	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

// launchNameRE finds the kernel of a launch in a finding's line:
// "scale<float><<<grid, block>>>" gives "scale".
var launchNameRE = regexp.MustCompile(`([A-Za-z_]\w*)\s*(?:<[^<>;]*>)?\s*<<<`)

// traceEvidence runs the program once more under LAZY and once under EAGER
// with the injection library, when CUPTI and a compiler are here, and
// returns the per-finding evidence for check --confirm. Without them it
// says why on stderr and returns nil: the program-level verdict then
// decides alone. The EAGER trace is the baseline a LAZY figure is compared
// with (LL004's module load); without it Judge uses the LAZY trace alone.
func traceEvidence(cmd *cobra.Command, command []string, timeout time.Duration, slowdown float64) func(engine.Finding) *diffrun.Confirmation {
	if os.Getenv("LAZYLINT_CONFIRM_TRACE") == "off" {
		return nil
	}
	lib := os.Getenv("LAZYLINT_INJECTION_LIB")
	if lib == "" {
		tk, err := cupti.FindToolkit()
		if err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "lazylint: --confirm without per-kernel evidence:", err)
			return nil
		}
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		if lib, err = cupti.Build(cmd.Context(), tk, cache); err != nil {
			fmt.Fprintln(cmd.ErrOrStderr(), "lazylint: --confirm without per-kernel evidence:", err)
			return nil
		}
	}
	res, err := cupti.Run(cmd.Context(), cupti.RunOptions{Command: command, Library: lib, Mode: "LAZY", Timeout: timeout})
	if err != nil || len(res.Traces) == 0 {
		fmt.Fprintln(cmd.ErrOrStderr(), "lazylint: --confirm without per-kernel evidence: the traced run left no trace", err)
		return nil
	}
	lazy := res.Traces[0]
	var eager *cupti.Trace
	if res, err := cupti.Run(cmd.Context(), cupti.RunOptions{Command: command, Library: lib, Mode: "EAGER", Timeout: timeout}); err == nil && len(res.Traces) > 0 {
		eager = res.Traces[0]
	}
	return func(f engine.Finding) *diffrun.Confirmation {
		text := f.Message + "\n" + f.Snippet
		for _, r := range f.Related {
			text += "\n" + r.Message
		}
		var declared []string
		for _, m := range launchNameRE.FindAllStringSubmatch(f.Snippet, -1) {
			declared = append(declared, m[1])
		}
		for _, m := range kernelWordRE.FindAllStringSubmatch(f.Message, -1) {
			declared = append(declared, m[1])
		}
		ev, ok := cupti.Judge(f.Rule.ID, text, lazy, eager, declared, cupti.Options{Slowdown: slowdown})
		if !ok {
			return nil
		}
		status := map[string]string{cupti.Confirmed: diffrun.Confirmed, cupti.NotConfirmed: diffrun.NotConfirmed, cupti.NotExercised: diffrun.NotExercised}[ev.Status]
		return &diffrun.Confirmation{Status: status, Reason: ev.Reason, Kernel: ev.Kernel, Source: "trace"}
	}
}

// kernelWordRE finds the kernel a message starts with ("kernel waitFor
// spins"); "kernel" later in a message is prose ("every kernel before").
var kernelWordRE = regexp.MustCompile(`^kernel ([A-Za-z_]\w*)`)
