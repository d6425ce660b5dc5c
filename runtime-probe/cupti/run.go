package cupti

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

// RunOptions configure a traced run.
type RunOptions struct {
	Command []string
	Library string // the injection library (Build)
	// Mode sets CUDA_MODULE_LOADING and CUDA_MODULE_DATA_LOADING ("" keeps
	// the environment's).
	Mode    string
	Timeout time.Duration
	Stdout  io.Writer
	Stderr  io.Writer
}

// Result is a traced run: how it ended and one trace per process that
// initialized CUDA (children inherit the injection and write their own).
type Result struct {
	ExitCode int      `json:"exit_code"`
	TimedOut bool     `json:"timed_out"`
	WallMS   float64  `json:"wall_ms"`
	Traces   []*Trace `json:"traces"`
}

// Run runs the program with the injection library and reads its traces.
// A program that never initialized CUDA leaves no trace: Traces is empty.
func Run(ctx context.Context, o RunOptions) (*Result, error) {
	if len(o.Command) == 0 {
		return nil, errors.New("no command")
	}
	dir, err := os.MkdirTemp("", "lazylint-trace-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(o.Command[0], o.Command[1:]...)
	cmd.Env = append(os.Environ(), "CUDA_INJECTION64_PATH="+o.Library, "LAZYLINT_TRACE_DIR="+dir)
	if o.Mode != "" {
		cmd.Env = append(cmd.Env, "CUDA_MODULE_LOADING="+o.Mode, "CUDA_MODULE_DATA_LOADING="+o.Mode)
	}
	cmd.Stdout, cmd.Stderr = o.Stdout, o.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start %s: %w", o.Command[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	res := &Result{}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err = <-done:
	case <-timer.C:
		res.TimedOut = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if waitErr := <-done; waitErr != nil {
			return nil, fmt.Errorf("%w (the program was stopped: %w)", ctx.Err(), waitErr)
		}
		return nil, ctx.Err()
	}
	res.WallMS = float64(time.Since(start).Microseconds()) / 1000
	res.ExitCode = cmd.ProcessState.ExitCode()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return nil, err
	}
	files, _ := filepath.Glob(filepath.Join(dir, "trace.*.jsonl"))
	sort.Strings(files)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return res, err
		}
		t, err := Parse(fh)
		fh.Close()
		if err != nil {
			return res, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
		res.Traces = append(res.Traces, t)
	}
	return res, nil
}
