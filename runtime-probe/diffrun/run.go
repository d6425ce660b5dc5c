// Package diffrun runs a program under CUDA_MODULE_LOADING=LAZY and =EAGER,
// each in its own process group that is killed whole at a timeout, and
// compares the runs: exit status, hangs, out-of-memory and load errors in
// the output, and the timings and sizes the program prints. It needs no
// GPU and no CUDA library itself; the program does.
package diffrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Loading modes, as CUDA_MODULE_LOADING spells them.
const (
	ModeLazy  = "LAZY"
	ModeEager = "EAGER"
)

// Defaults for Options.
const (
	DefaultTimeout      = 60 * time.Second
	DefaultSlowdown     = 2.0
	DefaultMinTimeDelta = 50 * time.Microsecond
	// killGrace is how long a process group has between SIGTERM and SIGKILL.
	killGrace = 2 * time.Second
	// outputGrace is how long output may keep coming after the group was
	// killed (from processes that left it); then the pipe is closed.
	outputGrace = 2 * time.Second
)

// minMemoryDelta is the smallest difference in a printed size that counts:
// the driver allocates in 2 MiB chunks.
const minMemoryDelta = 1 << 20

// Options configure a differential run.
type Options struct {
	Command []string // program and arguments
	Dir     string   // working folder ("" for the current one)
	// Env is the environment to start from (nil: this process's); the
	// loading variables are replaced in it.
	Env []string
	// Timeout bounds each run; a run past it is a hang.
	Timeout time.Duration
	// Repeat is the number of LAZY/EAGER pairs (default 1). Figures are
	// compared by their median.
	Repeat int
	// Slowdown is the factor by which a printed timing must be larger under
	// LAZY to count as slower (default 2).
	Slowdown float64
	// MinTimeDelta is the smallest difference in a printed timing that
	// counts (default 50 µs), so that noise on tiny timings is not read
	// as a slowdown.
	MinTimeDelta time.Duration
	// Output, when set, receives the programs' output, each line prefixed
	// with its mode.
	Output io.Writer
	// NoDriver, when set, says why this machine has no usable CUDA driver
	// (the caller looked before the runs). The program still runs: when it
	// fails in both modes the verdict is no-cuda, not fails-in-both.
	NoDriver string
}

// Run is one execution of the program.
type Run struct {
	Mode     string  `json:"mode"`
	ExitCode int     `json:"exit_code"` // -1 when ended by a signal
	Signal   string  `json:"signal,omitempty"`
	TimedOut bool    `json:"timed_out"`
	WallMS   float64 `json:"wall_ms"`
	// OutOfMemory and LoadError are set when the output has a line that
	// reports one; ErrorLines are those lines.
	OutOfMemory bool `json:"out_of_memory"`
	LoadError   bool `json:"load_error"`
	// NoCUDA is set when the output says CUDA could not start (no
	// driver, no device, a driver too old).
	NoCUDA     bool     `json:"no_cuda,omitempty"`
	ErrorLines []string `json:"error_lines,omitempty"`
	// HangLines are lines with which the program said it gave up waiting
	// (a watchdog, a timeout of its own).
	HangLines  []string `json:"hang_lines,omitempty"`
	Figures    []Figure `json:"figures,omitempty"`
	OutputTail string   `json:"output_tail"`
}

// Failed reports whether the run ended badly without timing out: a non-zero
// exit, a signal, or an out-of-memory or load error in its output.
func (r *Run) Failed() bool {
	return !r.TimedOut && (r.ExitCode != 0 || r.OutOfMemory || r.LoadError)
}

// Report is the outcome of a differential run.
type Report struct {
	Command   []string `json:"command"`
	TimeoutMS int64    `json:"timeout_ms"`
	Runs      []Run    `json:"runs"`
	Verdict   Verdict  `json:"verdict"`
	Reason    string   `json:"reason"`
	// Evidence lists the differences the verdict rests on.
	Evidence []string `json:"evidence,omitempty"`
}

// ErrInterrupted is returned when the context was cancelled (Ctrl-C): the
// running program's group was killed.
var ErrInterrupted = errors.New("interrupted; the program's process group was killed")

// Differential runs the program Repeat times under each mode, LAZY first,
// alternating, and returns the report. An error means the program could
// not be started or the run was interrupted.
func Differential(ctx context.Context, o Options) (*Report, error) {
	if len(o.Command) == 0 {
		return nil, errors.New("no command to run")
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Repeat <= 0 {
		o.Repeat = 1
	}
	if o.Slowdown <= 1 {
		o.Slowdown = DefaultSlowdown
	}
	if o.MinTimeDelta <= 0 {
		o.MinTimeDelta = DefaultMinTimeDelta
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	rep := &Report{Command: o.Command, TimeoutMS: o.Timeout.Milliseconds()}
	for i := 0; i < o.Repeat; i++ {
		for _, mode := range []string{ModeLazy, ModeEager} {
			run, err := runOnce(ctx, o, mode)
			if err != nil {
				return nil, err
			}
			rep.Runs = append(rep.Runs, run)
		}
	}
	rep.Verdict, rep.Reason, rep.Evidence = judge(rep.Runs, o)
	return rep, nil
}

// modeEnv is env with the loading variables set to mode.
func modeEnv(env []string, mode string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if strings.HasPrefix(kv, "CUDA_MODULE_LOADING=") || strings.HasPrefix(kv, "CUDA_MODULE_DATA_LOADING=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "CUDA_MODULE_LOADING="+mode, "CUDA_MODULE_DATA_LOADING="+mode)
}

func runOnce(ctx context.Context, o Options, mode string) (Run, error) {
	run := Run{Mode: mode}
	scan := newOutputScanner(&run)
	var sink io.Writer = scan
	if o.Output != nil {
		sink = io.MultiWriter(scan, &prefixWriter{w: o.Output, prefix: "[" + mode + "] "})
	}

	pr, pw, err := os.Pipe()
	if err != nil {
		return run, err
	}
	env := modeEnv(o.Env, mode)
	start := time.Now()
	cmd, err := startRetrying(func() *exec.Cmd {
		cmd := exec.Command(o.Command[0], o.Command[1:]...)
		cmd.Dir = o.Dir
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = pw, pw // *os.File: no copying goroutine for Wait to wait on
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd
	})
	if err != nil {
		pr.Close()
		pw.Close()
		return run, fmt.Errorf("cannot start %s: %w", o.Command[0], err)
	}
	pw.Close()
	pgid := cmd.Process.Pid

	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(sink, pr)
		close(copied)
	}()
	// Wait's error only restates the exit status, read from ProcessState.
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()

	timer := time.NewTimer(o.Timeout)
	defer timer.Stop()
	var interrupted bool
	select {
	case <-exited:
	case <-timer.C:
		run.TimedOut = true
		killGroup(pgid, exited)
	case <-ctx.Done():
		interrupted = true
		killGroup(pgid, exited)
	}
	run.WallMS = float64(time.Since(start).Microseconds()) / 1000
	// Whatever the program left behind in its group goes too.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)

	select {
	case <-copied:
	case <-time.After(outputGrace):
		pr.Close() // a process outside the group holds the pipe
		<-copied
	}
	pr.Close()
	scan.finish()

	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		run.ExitCode = -1
		run.Signal = ws.Signal().String()
	} else {
		run.ExitCode = cmd.ProcessState.ExitCode()
	}
	if interrupted {
		return run, ErrInterrupted
	}
	return run, nil
}

// killGroup sends SIGTERM to the group, then SIGKILL if the leader has not
// exited within killGrace, and waits for the leader.
func killGroup(pgid int, exited <-chan struct{}) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(killGrace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-exited
	}
}

// prefixWriter writes each line with a prefix.
type prefixWriter struct {
	w       io.Writer
	prefix  string
	midLine bool
	buf     []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = p.buf[:0]
	for _, c := range b {
		if !p.midLine {
			p.buf = append(p.buf, p.prefix...)
			p.midLine = true
		}
		p.buf = append(p.buf, c)
		if c == '\n' {
			p.midLine = false
		}
	}
	// A failing echo must not stop the copy that drains the program's pipe.
	_, _ = p.w.Write(p.buf)
	return len(b), nil
}

// startRetrying starts the command newCmd makes, retrying briefly on
// ETXTBSY: a program written just before (a build step, a test) can still be
// open for writing in a child that another goroutine forked and that has
// not reached exec yet. A Cmd cannot be started twice, hence the maker.
func startRetrying(newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	for attempt := 1; ; attempt++ {
		cmd := newCmd()
		err := cmd.Start()
		if err == nil || !errors.Is(err, syscall.ETXTBSY) || attempt == 10 {
			return cmd, err
		}
		time.Sleep(time.Duration(attempt) * 10 * time.Millisecond)
	}
}
