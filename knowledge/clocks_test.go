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
