package knowledge

import "testing"

// isTimerFunction answers what TimerFunction answers: its guard only
// spares the regular expression names it cannot match.
func TestIsTimerFunction(t *testing.T) {
	for _, name := range []string{
		"StartTimer", "stopTimer", "start_timer", "STOP_TIMER", "timer_start", "TimerStop", "timerEnd",
		"endTimer", "end_timer", "begin_timer", "BeginTimer", "timer_begin", "Timer", "timer", "startTimers",
		"restartTimer", "mytimer_start", "start__timer", "timerstart_", "cudaEventRecord", "", "t",
	} {
		if got, want := isTimerFunction(name), TimerFunction.MatchString(name); got != want {
			t.Errorf("isTimerFunction(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestEntryPoint(t *testing.T) {
	for name, want := range map[string]string{
		"cuEventRecord_f": "cuEventRecord", "pfn_cuEventRecord": "cuEventRecord", "cudaEventRecord_ptr": "cudaEventRecord",
		"cuEventRecord": "cuEventRecord", "record_f": "record_f", "p_count": "p_count", "wrap_cuLaunchKernel": "cuLaunchKernel",
	} {
		if got := EntryPoint(name); got != want {
			t.Errorf("EntryPoint(%q) = %q, want %q", name, got, want)
		}
	}
	if !IsEventRecord("cuEventRecord_f") || IsEventRecord("cuEventQuery_f") || !IsEventElapsed("pfn_cuEventElapsedTime") {
		t.Error("wrappers of event records and elapsed-time reads are not told apart")
	}
}
