package cupti

import (
	"fmt"
	"regexp"
	"strings"
)

// Statuses of a finding's evidence.
const (
	Confirmed    = "confirmed"
	NotConfirmed = "not-confirmed"
	NotExercised = "not-exercised"
)

// Evidence is what a trace says about one finding.
type Evidence struct {
	Status string `json:"status"`
	Kernel string `json:"kernel,omitempty"`
	Reason string `json:"reason"`
}

var identRE = regexp.MustCompile(`[A-Za-z_]\w*`)

// baseName is a demangled kernel's bare name: "void ns::scale<float>(float*)"
// gives "scale".
func baseName(k string) string {
	k = shortName(k)
	if i := strings.IndexByte(k, '<'); i > 0 {
		k = k[:i]
	}
	if i := strings.LastIndex(k, "::"); i >= 0 {
		k = k[i+2:]
	}
	if i := strings.LastIndexByte(k, ' '); i >= 0 {
		k = k[i+1:]
	}
	return k
}

// Mentioned returns the kernels of the trace whose bare names appear as
// words in text (a finding's message, its line and related messages), in
// trace order; templates match by their name ("scale<float>" in the
// trace matches "scale<T>" or "scale" in the source).
func Mentioned(t *Trace, text string) []KernelSummary {
	words := map[string]bool{}
	for _, w := range identRE.FindAllString(text, -1) {
		words[w] = true
	}
	var out []KernelSummary
	for _, k := range t.Kernels() {
		if words[baseName(k.Kernel)] {
			out = append(out, k)
		}
	}
	return out
}

// KernelNames returns the bare names of the kernels that text names among
// names (from the static side): used to tell "not exercised" from "no
// kernel named".
func KernelNames(text string, names []string) []string {
	var out []string
	words := map[string]bool{}
	for _, w := range identRE.FindAllString(text, -1) {
		words[w] = true
	}
	for _, n := range names {
		if words[n] {
			out = append(out, n)
		}
	}
	return out
}

// Judge weighs the traces of a LAZY and an EAGER run (eager may be nil)
// for a finding of rule whose text names kernels. ok is false when the
// trace has nothing to say (no kernel of the finding is named in it and
// none of its kernels could be matched): the caller falls back to the
// program-level verdict.
func Judge(rule, text string, lazy, eager *Trace, declared []string) (Evidence, bool) {
	if lazy == nil {
		return Evidence{}, false
	}
	ks := Mentioned(lazy, text)
	if len(ks) == 0 {
		// Only a trace of a run that ended normally can say a kernel never
		// ran: a killed run (a hang) loses the launches not yet written.
		if names := KernelNames(text, declared); len(names) > 0 && rule != "LL001" && lazy.Complete {
			return Evidence{Status: NotExercised, Kernel: names[0],
				Reason: fmt.Sprintf("kernel %s was never launched in the traced LAZY run", strings.Join(names, ", "))}, true
		}
		return Evidence{}, false
	}
	switch rule {
	case "LL002":
		for _, k := range ks {
			if k.Load != nil {
				return Evidence{Status: Confirmed, Kernel: k.Kernel,
					Reason: fmt.Sprintf("the first launch of %s lazily loaded it (%s) inside the launch it times", k.Kernel, usText(k.Load.Dur()))}, true
			}
		}
		return Evidence{Status: NotConfirmed, Kernel: ks[0].Kernel,
			Reason: fmt.Sprintf("the first launch of %s triggered no lazy load (loaded before it, e.g. preloaded)", ks[0].Kernel)}, true
	case "LL003":
		for _, k := range ks {
			if k.WaitedOn != "" {
				return Evidence{Status: Confirmed, Kernel: k.Kernel,
					Reason: fmt.Sprintf("%s started %s after its launch, only when %s ended", k.Kernel, usText(k.WaitNS), k.WaitedOn)}, true
			}
		}
		for _, l := range lazy.Launches {
			for _, k := range ks {
				if l.WaitedOn == k.Kernel {
					return Evidence{Status: Confirmed, Kernel: l.Kernel,
						Reason: fmt.Sprintf("%s started %s after its launch, only when %s ended", l.Kernel, usText(l.WaitNS), k.Kernel)}, true
				}
			}
		}
		return Evidence{Status: NotConfirmed, Kernel: ks[0].Kernel,
			Reason: fmt.Sprintf("no kernel waited for %s: every launch started within 1 ms of its call or behind no other stream's kernel", ks[0].Kernel)}, true
	case "LL001":
		for _, l := range lazy.Launches {
			if l.Result != 0 {
				return Evidence{Status: Confirmed, Kernel: l.Kernel,
					Reason: fmt.Sprintf("the launch of %s failed (CUresult %d) under LAZY", l.Kernel, l.Result)}, true
			}
		}
		return Evidence{Status: NotConfirmed, Kernel: ks[0].Kernel,
			Reason: fmt.Sprintf("all %d launches succeeded under LAZY", len(lazy.Launches))}, true
	}
	return Evidence{}, false
}
