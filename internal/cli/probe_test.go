package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/runtime-probe/fakecuda"
)

func TestProbeEnvWithoutDriver(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "libcuda.so.1")
	code, _, errs := run(t, t.TempDir(), "probe", "env", "--libcuda", missing)
	if code != ExitNoDriver || !strings.Contains(errs, "no usable CUDA driver") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	code, out, _ := run(t, t.TempDir(), "probe", "env", "--libcuda", missing, "--format", "json")
	var doc struct{ Error string }
	if code != ExitNoDriver || json.Unmarshal([]byte(out), &doc) != nil || !strings.Contains(doc.Error, "cannot load") {
		t.Errorf("json: exit %d, %q", code, out)
	}
	code, _, errs = run(t, t.TempDir(), "probe", "module", "--libcuda", missing, writeModule(t))
	if code != ExitNoDriver || !strings.Contains(errs, "no usable CUDA driver") {
		t.Errorf("module: exit %d, stderr %q", code, errs)
	}
}

func TestProbeEnv(t *testing.T) {
	t.Setenv("CUDA_MODULE_LOADING", "EAGER")
	lib := fakecuda.Build(t)
	code, out, errs := run(t, t.TempDir(), "probe", "env", "--libcuda", lib)
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"driver:", "CUDA 13.0", "loading mode:", "eager", `CUDA_MODULE_LOADING:`, `"EAGER"`, "CUDA_MODULE_DATA_LOADING:", "(unset)", "device 0:", "Fake GPU, compute 9.0, 80.0 GiB total, 80.0 GiB free"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, t.TempDir(), "probe", "env", "--libcuda", lib, "-f", "json")
	var env struct {
		DriverVersion string             `json:"driver_version"`
		LoadingMode   string             `json:"loading_mode"`
		Variables     map[string]*string `json:"variables"`
		Devices       []struct {
			Name       string `json:"name"`
			TotalBytes uint64 `json:"total_bytes"`
		} `json:"devices"`
	}
	if code != ExitClean || json.Unmarshal([]byte(out), &env) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	if env.DriverVersion != "13.0" || env.LoadingMode != "eager" || *env.Variables["CUDA_MODULE_LOADING"] != "EAGER" ||
		env.Variables["CUDA_MODULE_DATA_LOADING"] != nil || len(env.Devices) != 1 || env.Devices[0].TotalBytes != 80<<30 {
		t.Errorf("env %+v", env)
	}
}

func writeModule(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kernels.ptx")
	image := ".version 8.0\n.target sm_90\n.fake_data 268435456\n.fake_kernel _Z4spinPVi 2097152\n.fake_kernel _Z7releasePVi 0\n"
	if err := os.WriteFile(path, []byte(image), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestProbeModule(t *testing.T) {
	t.Setenv("CUDA_MODULE_LOADING", "")
	module := writeModule(t)
	code, out, errs := run(t, t.TempDir(), "probe", "module", "--libcuda", fakecuda.Build(t), module)
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"ptx", "loading mode lazy", "cuLibraryLoadData:", "0 B of device memory", "258.0 MiB", "cuFuncLoad", "spin", "release", "total: 2 kernels"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = run(t, t.TempDir(), "probe", "module", "--libcuda", fakecuda.Build(t), "--mode", "eager", "-f", "json", module)
	var rep struct {
		LoadingMode string `json:"loading_mode"`
		LoadBytes   int64  `json:"load_bytes"`
		TotalBytes  int64  `json:"total_bytes"`
		Kernels     []struct {
			Name        string `json:"name"`
			DeviceBytes int64  `json:"device_bytes"`
		} `json:"kernels"`
	}
	if code != ExitClean || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	if rep.LoadingMode != "eager" || rep.LoadBytes != 258<<20 || rep.TotalBytes != 258<<20 || len(rep.Kernels) != 2 || rep.Kernels[0].Name != "_Z4spinPVi" {
		t.Errorf("eager report %+v", rep)
	}
	notModule := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notModule, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, t.TempDir(), "probe", "module", notModule); code != ExitFailure || !strings.Contains(errs, "notes.txt: not a cubin") {
		t.Errorf("not a module: exit %d, %q", code, errs)
	}
}

// program writes a shell script that stands for a CUDA program: it behaves
// according to $CUDA_MODULE_LOADING.
func program(t *testing.T, lazy, eager string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "app.sh")
	body := "#!/bin/sh\nif [ \"$CUDA_MODULE_LOADING\" = LAZY ]; then\n" + lazy + "\nelse\n" + eager + "\nfi\n"
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestProbeRun(t *testing.T) {
	hang := program(t, "sleep 30", "echo ok")
	code, out, _ := run(t, t.TempDir(), "probe", "run", "--timeout", "300ms", "--", hang)
	if code != ExitFindings || !strings.Contains(out, "verdict: hang-under-lazy") || !strings.Contains(out, "timed out, process group killed") {
		t.Errorf("hang: exit %d\n%s", code, out)
	}
	same := program(t, "echo 'took 1 ms'", "echo 'took 1 ms'")
	code, out, _ = run(t, t.TempDir(), "probe", "run", "-f", "json", "--", same, "--an-argument")
	var doc struct {
		Runs []struct {
			Mode     string  `json:"mode"`
			ExitCode int     `json:"exit_code"`
			TimedOut bool    `json:"timed_out"`
			WallMS   float64 `json:"wall_ms"`
		} `json:"runs"`
		Verdict string   `json:"verdict"`
		Command []string `json:"command"`
	}
	if code != ExitClean || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("same: exit %d\n%s", code, out)
	}
	if doc.Verdict != "same" || len(doc.Runs) != 2 || doc.Runs[0].Mode != "LAZY" || doc.Runs[1].Mode != "EAGER" || doc.Command[1] != "--an-argument" {
		t.Errorf("doc %+v", doc)
	}
	if code, _, errs := run(t, t.TempDir(), "probe", "run", same); code != ExitFailure || !strings.Contains(errs, "after --") {
		t.Errorf("no dash: exit %d %q", code, errs)
	}
	if code, _, errs := run(t, t.TempDir(), "probe", "run", "--", filepath.Join(t.TempDir(), "nope")); code != ExitFailure || !strings.Contains(errs, "cannot start") {
		t.Errorf("missing program: exit %d %q", code, errs)
	}
}

func TestCheckConfirm(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.cu": hazard})
	oom := program(t, "echo 'launch failed: out of memory'; exit 1", "echo ok")
	code, out, errs := run(t, dir, "check", "bad.cu", "--confirm", "--", oom)
	if code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "before this allocation [confirmed: fails-under-lazy] [LL001]") || !strings.Contains(out, "verdict: fails-under-lazy") {
		t.Errorf("text:\n%s", out)
	}

	same := program(t, "echo ok", "echo ok")
	code, out, _ = run(t, dir, "check", "--format", "json", "bad.cu", "--confirm", "--", same)
	var doc struct {
		Findings []struct {
			Rule         string
			Confirmation struct{ Status, Verdict, Reason string }
		}
		Probe struct{ Verdict string }
	}
	if code != ExitFindings || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if len(doc.Findings) != 1 || doc.Findings[0].Confirmation.Status != "not-confirmed" || doc.Findings[0].Confirmation.Verdict != "same" || doc.Probe.Verdict != "same" {
		t.Errorf("json %+v", doc)
	}

	if code, _, errs := run(t, dir, "check", "bad.cu", "--confirm"); code != ExitFailure || !strings.Contains(errs, "--confirm needs the program") {
		t.Errorf("confirm without program: exit %d %q", code, errs)
	}
	if code, _, errs := run(t, dir, "check", "bad.cu", "--", same); code != ExitFailure || !strings.Contains(errs, "only run with --confirm") {
		t.Errorf("program without confirm: exit %d %q", code, errs)
	}
	// Without --confirm nothing is marked.
	if _, out, _ := run(t, dir, "check", "bad.cu"); strings.Contains(out, "confirmed") {
		t.Errorf("unmarked run mentions confirmation:\n%s", out)
	}
}

// Without a usable driver, a program that fails in both modes is judged
// no-cuda: its findings are not exercised, one notice says why, and the
// exit code is 3 (issue 23 item 1). With a driver (the fake one), the same
// program fails in both, and its findings are still not exercised.
func TestConfirmWithoutDriver(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.cu": hazard})
	fails := program(t, "echo 'CUDA error: initialization error'; exit 1", "echo 'CUDA error: initialization error'; exit 1")
	t.Setenv("LAZYLINT_LIBCUDA", filepath.Join(t.TempDir(), "libcuda.so.1"))
	t.Setenv("LAZYLINT_CONFIRM_TRACE", "off")
	code, out, errs := run(t, dir, "check", "bad.cu", "--confirm", "--", fails)
	if code != ExitNoDriver || !strings.Contains(out, "[not exercised: CUDA did not start in either run") || !strings.Contains(out, "verdict: no-cuda: no usable CUDA driver on this machine") {
		t.Errorf("check --confirm: exit %d\n%s", code, out)
	}
	if strings.Count(errs, "no usable CUDA driver") != 1 || !strings.Contains(errs, "each is marked not exercised); exit 3") {
		t.Errorf("want one notice, stderr:\n%s", errs)
	}
	code, out, errs = run(t, dir, "probe", "run", "--", fails)
	if code != ExitNoDriver || !strings.Contains(out, "verdict: no-cuda") || !strings.Contains(errs, "exit 3") {
		t.Errorf("probe run: exit %d\n%s\n%s", code, out, errs)
	}
	// A program that runs without the driver looked for is judged as usual.
	same := program(t, "echo ok", "echo ok")
	if code, out, _ := run(t, dir, "probe", "run", "--", same); code != ExitClean || !strings.Contains(out, "verdict: same") {
		t.Errorf("same without driver: exit %d\n%s", code, out)
	}

	t.Setenv("LAZYLINT_LIBCUDA", fakecuda.Build(t))
	code, out, _ = run(t, dir, "check", "--format", "json", "bad.cu", "--confirm", "--", fails)
	var doc struct {
		Findings []struct {
			Confirmation struct{ Status, Verdict, Reason string }
		}
	}
	if code != ExitFindings || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Findings) != 1 {
		t.Fatalf("with a driver: exit %d\n%s", code, out)
	}
	if c := doc.Findings[0].Confirmation; c.Status != "not-exercised" || c.Verdict != "fails-in-both" {
		t.Errorf("fails in both with a driver: %+v", c)
	}
}
