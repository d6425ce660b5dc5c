package diffrun

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// script writes an executable shell script that behaves according to
// $CUDA_MODULE_LOADING, like a CUDA program with a lazy-loading hazard.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "prog.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func differential(t *testing.T, o Options) *Report {
	t.Helper()
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	rep, err := Differential(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2*max(o.Repeat, 1) {
		t.Fatalf("%d runs, want %d", len(rep.Runs), 2*max(o.Repeat, 1))
	}
	return rep
}

func TestVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		lazy    string // script body under LAZY
		eager   string // under EAGER
		repeat  int
		timeout time.Duration // 500 ms unless set
		want    Verdict
		wantEvi string // a substring of the evidence, if any
	}{
		{name: "hang under lazy", lazy: "sleep 30", eager: "echo ok", want: HangUnderLazy},
		{name: "hang under eager", lazy: "echo ok", eager: "sleep 30", want: HangUnderEager},
		{name: "hang in both", lazy: "sleep 30", eager: "sleep 30", want: HangInBoth},
		{name: "exit code under lazy", lazy: "exit 3", eager: "exit 0", want: FailsUnderLazy},
		{name: "oom message with exit 0", lazy: "echo 'CUDA error at main.cu:42: out of memory'", eager: "echo ok", want: FailsUnderLazy, wantEvi: "LAZY: CUDA error at main.cu:42: out of memory"},
		{name: "load error", lazy: "echo 'cuModuleGetFunction: CUDA_ERROR_NOT_FOUND' >&2", eager: "echo ok", want: FailsUnderLazy, wantEvi: "CUDA_ERROR_NOT_FOUND"},
		{name: "killed by signal under lazy", lazy: "kill -SEGV $$", eager: "echo ok", want: FailsUnderLazy},
		{name: "fails under eager", lazy: "echo ok", eager: "exit 1", want: FailsUnderEager},
		{name: "fails in both", lazy: "exit 1", eager: "exit 2", want: FailsInBoth},
		{
			name:  "first timed launch slower",
			lazy:  "echo 'first launch: 0.318 ms'; echo 'next launch: 0.015 ms'",
			eager: "echo 'first launch: 0.021 ms'; echo 'next launch: 0.011 ms'",
			want:  SlowerUnderLazy, wantEvi: `"first launch: 0.318 ms": 0.318 ms under LAZY, 0.021 ms under EAGER (15.1x)`,
		},
		{name: "units differ, value the same", lazy: "echo 'kernel took 1500 us'", eager: "echo 'kernel took 1.5 ms'", want: Same},
		{name: "tiny timings are noise", lazy: "echo 'first launch: 0.030 ms'", eager: "echo 'first launch: 0.010 ms'", want: Same},
		{name: "slower in one of three runs only", lazy: "n=$(cat \"$0.count\" 2>/dev/null || echo 0); echo $((n+1)) > \"$0.count\"; if [ $n = 0 ]; then echo 'took 9 ms'; else echo 'took 1 ms'; fi", eager: "echo 'took 1 ms'", repeat: 3, want: Same},
		{name: "memory around module load", lazy: "echo 'cuModuleLoad used 0 MiB in 5.6 ms'", eager: "echo 'cuModuleLoad used 256 MiB in 5.9 ms'", want: FiguresDiffer, wantEvi: "0 MiB under LAZY, 256 MiB under EAGER"},
		{name: "faster under lazy", lazy: "echo 'load: 5 ms'", eager: "echo 'load: 15 ms'", want: FiguresDiffer},
		{name: "bandwidth is no size", lazy: "echo 'copy: 10 GB/s'", eager: "echo 'copy: 30 GB/s'", want: Same},
		{name: "same", lazy: "echo 'done in 1.0 ms'", eager: "echo 'done in 1.1 ms'", want: Same},
		// Shaped after programs not written for lazylint (issue 15).
		{name: "watchdog turns deadlock into slow success", lazy: "sleep 0.7; echo 'result ok'", eager: "echo 'result ok'", timeout: 3 * time.Second, want: SlowerUnderLazy, wantEvi: "wall time:"},
		{name: "small wall gap is noise", lazy: "sleep 0.1; echo ok", eager: "echo ok", timeout: 3 * time.Second, want: Same},
		{name: "watchdog line only under lazy", lazy: "echo 'watchdog: waiter gave up after 2000000 spins'; echo 'result ok'", eager: "echo 'result ok'", want: HangUnderLazy, wantEvi: "watchdog"},
		{name: "watchdog setting printed in both", lazy: "echo 'watchdog limit: 2000000 spins'", eager: "echo 'watchdog limit: 2000000 spins'", want: Same},
		{name: "unit in the key", lazy: "echo 'first launch event_ms=0.2809'", eager: "echo 'first launch event_ms=0.0201'", want: SlowerUnderLazy, wantEvi: "event_ms=0.2809"},
		{name: "unit in a yaml key", lazy: "echo 'load_us: 1200'", eager: "echo 'load_us: 12'", want: SlowerUnderLazy},
		{name: "unit as a json key", lazy: `echo '{"kernel": "scale", "ms": 1.2}'`, eager: `echo '{"kernel": "scale", "ms": 0.05}'`, want: SlowerUnderLazy},
		{name: "camel case key", lazy: "echo 'firstLaunchMs=3.5'", eager: "echo 'firstLaunchMs=0.1'", want: SlowerUnderLazy},
		{name: "no unit in the key", lazy: "echo 'ms_count=900'", eager: "echo 'ms_count=3'", want: Same},
		{name: "tolerated oom in both, first-launch oom only under lazy", lazy: "echo 'arena: cudaMalloc 80 GiB: out of memory, retrying smaller'; echo 'launch: cudaErrorMemoryAllocation'", eager: "echo 'arena: cudaMalloc 80 GiB: out of memory, retrying smaller'", want: FailsUnderLazy, wantEvi: "LAZY: launch: cudaErrorMemoryAllocation"},
		{name: "tolerated oom in both only", lazy: "echo 'arena: cudaMalloc 80 GiB at 0x7f00: out of memory'", eager: "echo 'arena: cudaMalloc 79 GiB at 0x7e00: out of memory'", want: Same},
		// No CUDA (issue 23 item 1): the program says so in both modes.
		{name: "no device in both", lazy: "echo 'CUDA error: no CUDA-capable device is detected' >&2; exit 1", eager: "echo 'cudaErrorNoDevice' >&2; exit 1", want: NoCUDA, wantEvi: "no CUDA-capable device"},
		{name: "no device in one mode only", lazy: "echo 'CUDA error: no CUDA-capable device is detected' >&2; exit 1", eager: "exit 1", want: FailsInBoth},
		{name: "same exit, extra error only under lazy", lazy: "echo 'out of memory at step 1'; echo 'CUDA_ERROR_NOT_FOUND'; exit 1", eager: "echo 'out of memory at step 1'; exit 1", want: FailsUnderLazy, wantEvi: "CUDA_ERROR_NOT_FOUND"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			prog := script(t, `if [ "$CUDA_MODULE_LOADING" = LAZY ]; then `+tc.lazy+"\nelse "+tc.eager+"\nfi\n")
			timeout := tc.timeout
			if timeout == 0 {
				timeout = 500 * time.Millisecond
			}
			rep := differential(t, Options{Command: []string{prog}, Timeout: timeout, Repeat: tc.repeat})
			if rep.Verdict != tc.want {
				t.Fatalf("verdict %s, want %s (%s; evidence %q; runs %+v)", rep.Verdict, tc.want, rep.Reason, rep.Evidence, rep.Runs)
			}
			if tc.wantEvi != "" && !strings.Contains(strings.Join(rep.Evidence, "\n"), tc.wantEvi) {
				t.Errorf("evidence %q lacks %q", rep.Evidence, tc.wantEvi)
			}
		})
	}
}

func TestRunFields(t *testing.T) {
	prog := script(t, `echo "mode=$CUDA_MODULE_LOADING data=$CUDA_MODULE_DATA_LOADING"; exit 7`)
	t.Setenv("CUDA_MODULE_LOADING", "EAGER") // must not leak into the LAZY run
	var echo bytes.Buffer
	rep := differential(t, Options{Command: []string{prog}, Output: &echo})
	for i, mode := range []string{ModeLazy, ModeEager} {
		r := rep.Runs[i]
		if r.Mode != mode || r.ExitCode != 7 || r.TimedOut || r.Signal != "" || r.WallMS <= 0 {
			t.Errorf("run %d = %+v", i, r)
		}
		if want := "mode=" + mode + " data=" + mode + "\n"; r.OutputTail != want {
			t.Errorf("run %d output %q, want %q", i, r.OutputTail, want)
		}
	}
	if want := "[LAZY] mode=LAZY data=LAZY\n[EAGER] mode=EAGER data=EAGER\n"; echo.String() != want {
		t.Errorf("echoed output %q, want %q", echo.String(), want)
	}
}

func TestCommandNotFound(t *testing.T) {
	_, err := Differential(context.Background(), Options{Command: []string{filepath.Join(t.TempDir(), "missing")}})
	if err == nil || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Differential(context.Background(), Options{}); err == nil {
		t.Fatal("no command: want an error")
	}
}

// alive reports whether pid is a live process (a zombie is dead: only its
// exit status is left for its parent).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) STATE ...
	rest := string(stat[bytes.LastIndexByte(stat, ')')+1:])
	return !strings.HasPrefix(strings.TrimSpace(rest), "Z")
}

func readPIDs(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	return pids
}

func waitDead(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d outlived the run", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// A program that hangs under LAZY with children, one of which ignores
// SIGTERM: at the timeout the whole group goes.
func TestTimeoutKillsWholeGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	prog := script(t, `if [ "$CUDA_MODULE_LOADING" = LAZY ]; then
  sleep 300 &
  echo $! >> "`+pidfile+`"
  sh -c 'trap "" TERM; while :; do sleep 1; done' &
  echo $! >> "`+pidfile+`"
  echo $$ >> "`+pidfile+`"
  wait
fi
echo ok
`)
	rep := differential(t, Options{Command: []string{prog}, Timeout: 300 * time.Millisecond})
	if rep.Verdict != HangUnderLazy || !rep.Runs[0].TimedOut || rep.Runs[1].TimedOut {
		t.Fatalf("verdict %s, runs %+v", rep.Verdict, rep.Runs)
	}
	pids := readPIDs(t, pidfile)
	if len(pids) != 3 {
		t.Fatalf("pids %v", pids)
	}
	waitDead(t, pids)
}

// Processes a program leaves behind in its group are killed even when it
// exits normally.
func TestLeftoversKilledAfterExit(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	prog := script(t, `sleep 300 >/dev/null 2>&1 &
echo $! >> "`+pidfile+`"
echo started
`)
	rep := differential(t, Options{Command: []string{prog}})
	if rep.Verdict != Same {
		t.Fatalf("verdict %s", rep.Verdict)
	}
	waitDead(t, readPIDs(t, pidfile))
}

func TestInterruptKillsGroup(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	prog := script(t, `sleep 300 &
echo $! >> "`+pidfile+`"
echo $$ >> "`+pidfile+`"
wait
`)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if data, _ := os.ReadFile(pidfile); len(strings.Fields(string(data))) == 2 {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := Differential(ctx, Options{Command: []string{prog}, Timeout: time.Minute})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	waitDead(t, readPIDs(t, pidfile))
}

func TestLongAndBinaryOutput(t *testing.T) {
	// A 1 MB line, invalid UTF-8 and a last line without a newline.
	prog := script(t, `head -c 1000000 /dev/zero | tr '\0' x; echo; printf '\377\376 first launch: 2 ms\n'; printf 'cudaErrorMemoryAllocation'`)
	rep := differential(t, Options{Command: []string{prog}})
	r := rep.Runs[0]
	if !r.OutOfMemory || len(r.Figures) != 1 || r.Figures[0].Value != 0.002 {
		t.Fatalf("run %+v", r)
	}
	if len(r.OutputTail) > 2*tailBytes || !strings.HasSuffix(r.OutputTail, "cudaErrorMemoryAllocation") {
		t.Errorf("tail %d bytes: %q", len(r.OutputTail), r.OutputTail)
	}
}

func TestConfirm(t *testing.T) {
	rep := &Report{Verdict: HangUnderLazy, Reason: "hung"}
	if c := Confirm("LL003", rep); c.Status != Confirmed || c.Verdict != HangUnderLazy {
		t.Errorf("LL003 on a lazy hang: %+v", c)
	}
	if c := Confirm("LL001", rep); c.Status != NotConfirmed {
		t.Errorf("LL001 on a lazy hang: %+v", c)
	}
	if c := Confirm("LL007", rep); c.Status != NotConfirmed || !strings.Contains(c.Reason, "no runtime signature") {
		t.Errorf("LL007: %+v", c)
	}
	for _, v := range []Verdict{FailsUnderLazy, SlowerUnderLazy, FiguresDiffer} {
		if !v.LazyOnly() {
			t.Errorf("%s should be lazy-only", v)
		}
	}
	for _, v := range []Verdict{Same, HangInBoth, FailsUnderEager} {
		if v.LazyOnly() {
			t.Errorf("%s should not be lazy-only", v)
		}
	}
}

func TestSummary(t *testing.T) {
	runs := []Run{
		{Mode: ModeLazy, ExitCode: 1, OutOfMemory: true, WallMS: 438.4},
		{Mode: ModeLazy, ExitCode: 1, OutOfMemory: true, WallMS: 393},
		{Mode: ModeLazy, TimedOut: true, ExitCode: -1, Signal: "terminated", WallMS: 10100},
	}
	want := "2 runs exited 1 in 393.0 ms-438.4 ms, reporting out of memory; timed out in 10.10 s"
	if got := summary(runs); got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	if got := summary(nil); got != "did not run" {
		t.Errorf("summary(nil) = %q", got)
	}
}

// With no usable driver here (the caller looked), a program that fails in
// both modes exercised nothing; one that runs does not need the driver
// looked for, and is judged as usual (issue 23 item 1).
func TestNoDriver(t *testing.T) {
	fails := script(t, "echo 'CUDA error: initialization error'; exit 1")
	rep := differential(t, Options{Command: []string{fails}, NoDriver: "cannot load libcuda.so.1"})
	if rep.Verdict != NoCUDA || !strings.Contains(rep.Reason, "no usable CUDA driver on this machine (cannot load libcuda.so.1)") {
		t.Errorf("verdict %s: %s", rep.Verdict, rep.Reason)
	}
	for _, id := range []string{"LL001", "LL002", "LL003", "LL004"} {
		if c := Confirm(id, rep); c.Status != NotExercised || !strings.Contains(c.Reason, "CUDA did not start") {
			t.Errorf("%s: %+v", id, c)
		}
	}
	ok := script(t, "echo 'took 1 ms'")
	if rep := differential(t, Options{Command: []string{ok}, NoDriver: "cannot load libcuda.so.1"}); rep.Verdict != Same {
		t.Errorf("a program that runs without the driver: %s", rep.Verdict)
	}
}

// A program that fails or hangs alike in both modes proves nothing of a
// finding: not exercised, not "not confirmed".
func TestFailingInBothIsNotExercised(t *testing.T) {
	for _, v := range []Verdict{FailsInBoth, HangInBoth} {
		c := Confirm("LL003", &Report{Verdict: v, Reason: "both died"})
		if c.Status != NotExercised || !strings.Contains(c.Reason, "show nothing about lazy loading") {
			t.Errorf("%s: %+v", v, c)
		}
	}
	if c := Confirm("LL003", &Report{Verdict: Same}); c.Status != NotConfirmed {
		t.Errorf("same: %+v", c)
	}
}
