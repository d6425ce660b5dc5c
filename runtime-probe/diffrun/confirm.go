package diffrun

import "fmt"

// Confirmation statuses.
const (
	Confirmed    = "confirmed"
	NotConfirmed = "not-confirmed"
	// NotExercised: the finding's kernel never ran in the traced run, or
	// the runs could show nothing (no CUDA, or both modes failed alike).
	NotExercised = "not-exercised"
)

// Confirmation says whether a differential run shows what a finding
// predicts.
type Confirmation struct {
	Status  string  `json:"status"`
	Verdict Verdict `json:"verdict"`
	Reason  string  `json:"reason"`
	// Kernel is the kernel the evidence is about, when a trace gave it.
	Kernel string `json:"kernel,omitempty"`
	// Source is "trace" when the evidence came from probe trace's record
	// of the run, "output" when from the LAZY/EAGER comparison.
	Source string `json:"source,omitempty"`
}

// signatures maps a rule to the verdicts that show its hazard happening:
// a cross-kernel wait deadlocks, a whole-VRAM allocation leaves no room for
// a late load, a timed first launch includes the load, and a measurement
// around cuModuleLoad measures something else.
var signatures = map[string][]Verdict{
	"LL001": {FailsUnderLazy},
	"LL002": {SlowerUnderLazy},
	"LL003": {HangUnderLazy},
	"LL004": {FiguresDiffer, SlowerUnderLazy},
}

// notExercised says, per finding, why runs with these verdicts show
// nothing (the run's own reason is printed once, with the runs).
var notExercised = map[Verdict]string{
	NoCUDA:      "CUDA did not start in either run (no usable driver or device)",
	FailsInBoth: "the program failed under both LAZY and EAGER: the runs show nothing about lazy loading",
	HangInBoth:  "the program hung under both LAZY and EAGER: the runs show nothing about lazy loading",
}

// Signatures returns the verdicts that confirm findings of the rule (none
// for rules whose hazard a run cannot show).
func Signatures(ruleID string) []Verdict { return signatures[ruleID] }

// Confirm marks a finding of the rule against the report.
func Confirm(ruleID string, rep *Report) Confirmation {
	want := signatures[ruleID]
	if len(want) == 0 {
		return Confirmation{Status: NotConfirmed, Verdict: rep.Verdict,
			Reason: ruleID + " has no runtime signature a LAZY/EAGER run can show"}
	}
	if !rep.Verdict.Exercised() {
		return Confirmation{Status: NotExercised, Verdict: rep.Verdict, Reason: notExercised[rep.Verdict]}
	}
	for _, v := range want {
		if rep.Verdict == v {
			return Confirmation{Status: Confirmed, Verdict: rep.Verdict, Reason: rep.Reason}
		}
	}
	return Confirmation{Status: NotConfirmed, Verdict: rep.Verdict,
		Reason: fmt.Sprintf("%s is confirmed by %v; the run's verdict is %s", ruleID, want, rep.Verdict)}
}
