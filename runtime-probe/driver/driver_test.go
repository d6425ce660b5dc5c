package driver_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/runtime-probe/driver"
	"github.com/lazylint/lazylint/runtime-probe/fakecuda"
)

const fakeModule = `// fake module
.version 8.0
.target sm_90
.fake_data 268435456
.fake_kernel spin 2097152
.fake_kernel release 0
.fake_kernel reduce 4194304
`

func TestMissingLibraryIsNoDriver(t *testing.T) {
	_, err := driver.ProbeEnv(filepath.Join(t.TempDir(), "libcuda.so.1"), false)
	if !errors.Is(err, driver.ErrNoDriver) {
		t.Fatalf("err = %v, want ErrNoDriver", err)
	}
	if !strings.Contains(err.Error(), "cannot load") {
		t.Errorf("err = %v, want it to say the library cannot be loaded", err)
	}
}

func TestLibraryWithoutEntryPointsIsNoDriver(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "empty.c")
	if err := os.WriteFile(src, []byte("int not_cuda(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "libcuda.so.1")
	if msg, err := exec.Command("gcc", "-shared", "-fPIC", "-o", lib, src).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	_, err := driver.ProbeEnv(lib, false)
	if !errors.Is(err, driver.ErrNoDriver) || !strings.Contains(err.Error(), "no entry point cuInit") {
		t.Fatalf("err = %v, want ErrNoDriver naming cuInit", err)
	}
}

func TestInitFailureIsNoDriver(t *testing.T) {
	lib := fakecuda.Build(t)
	t.Setenv("FAKE_CUDA_NO_DEVICE", "1")
	env, err := driver.ProbeEnv(lib, false)
	if !errors.Is(err, driver.ErrNoDriver) || !strings.Contains(err.Error(), "CUDA_ERROR_NO_DEVICE") {
		t.Fatalf("err = %v, want ErrNoDriver with CUDA_ERROR_NO_DEVICE", err)
	}
	if env.DriverVersion != "13.0" {
		t.Errorf("driver version = %q, want 13.0 (known before cuInit)", env.DriverVersion)
	}
}

func TestEnv(t *testing.T) {
	for _, tc := range []struct {
		value    string // "" leaves the variable unset
		wantMode string
	}{
		{"", driver.ModeLazy},
		{"LAZY", driver.ModeLazy},
		{"EAGER", driver.ModeEager},
	} {
		t.Run("CUDA_MODULE_LOADING="+tc.value, func(t *testing.T) {
			lib := fakecuda.Build(t)
			if tc.value == "" {
				t.Setenv("CUDA_MODULE_LOADING", "")
				os.Unsetenv("CUDA_MODULE_LOADING")
			} else {
				t.Setenv("CUDA_MODULE_LOADING", tc.value)
			}
			env, err := driver.ProbeEnv(lib, true)
			if err != nil {
				t.Fatal(err)
			}
			if env.LoadingMode != tc.wantMode {
				t.Errorf("mode = %q, want %q", env.LoadingMode, tc.wantMode)
			}
			got := env.Variables["CUDA_MODULE_LOADING"]
			if (tc.value == "") != (got == nil) || (got != nil && *got != tc.value) {
				t.Errorf("CUDA_MODULE_LOADING reported as %v, want %q", got, tc.value)
			}
			if len(env.Devices) != 1 {
				t.Fatalf("devices = %+v, want one", env.Devices)
			}
			dev := env.Devices[0]
			if dev.Name != "Fake GPU" || dev.TotalBytes != 80<<30 || dev.ComputeCapability != "9.0" || dev.FreeBytes != 80<<30 {
				t.Errorf("device = %+v", dev)
			}
			if env.DriverVersion != "13.0" {
				t.Errorf("driver version = %q", env.DriverVersion)
			}
		})
	}
}

func probeModule(t *testing.T, lib, mode string, image []byte) driver.ModuleReport {
	t.Helper()
	t.Setenv("CUDA_MODULE_LOADING", mode)
	d, err := driver.Open(lib)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Init(); err != nil {
		t.Fatal(err)
	}
	rep, err := d.ProbeModule(image, 0)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestModuleLazy(t *testing.T) {
	for _, tc := range []struct {
		name, define, api, handleCall string
	}{
		{"library API", "", "cuLibraryLoadData", "cuKernelGetFunction"},
		{"module API only", "FAKE_NO_LIBRARY", "cuModuleLoadData", "cuModuleEnumerateFunctions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var defines []string
			if tc.define != "" {
				defines = append(defines, tc.define)
			}
			rep := probeModule(t, fakecuda.Build(t, defines...), "LAZY", []byte(fakeModule))
			if rep.API != tc.api || rep.Format != driver.FormatPTX || rep.LoadingMode != driver.ModeLazy {
				t.Errorf("api %q format %q mode %q", rep.API, rep.Format, rep.LoadingMode)
			}
			if rep.LoadBytes != 0 {
				t.Errorf("image load took %d bytes under lazy loading, want 0", rep.LoadBytes)
			}
			want := []driver.KernelLoad{
				{Name: "spin", LoadedBy: "cuFuncLoad", DeviceBytes: 256<<20 + 2<<20},
				{Name: "release", LoadedBy: "cuFuncLoad", DeviceBytes: 0},
				{Name: "reduce", LoadedBy: "cuFuncLoad", DeviceBytes: 4 << 20},
			}
			if len(rep.Kernels) != len(want) {
				t.Fatalf("kernels = %+v", rep.Kernels)
			}
			for i, k := range rep.Kernels {
				k.LoadMS = 0
				if k != want[i] {
					t.Errorf("kernel %d = %+v, want %+v", i, k, want[i])
				}
			}
			if rep.TotalBytes != 262<<20 {
				t.Errorf("total = %d, want %d", rep.TotalBytes, 262<<20)
			}
		})
	}
}

func TestModuleEager(t *testing.T) {
	rep := probeModule(t, fakecuda.Build(t), "EAGER", []byte(fakeModule))
	if rep.LoadingMode != driver.ModeEager || rep.LoadBytes != 262<<20 || rep.TotalBytes != 262<<20 {
		t.Errorf("mode %q load %d total %d", rep.LoadingMode, rep.LoadBytes, rep.TotalBytes)
	}
	for _, k := range rep.Kernels {
		if k.DeviceBytes != 0 || k.LoadedBy != "cuKernelGetFunction" {
			t.Errorf("kernel %+v: want nothing left to load", k)
		}
	}
}

func TestModuleOutOfMemoryNamesKernel(t *testing.T) {
	image := strings.Replace(fakeModule, ".fake_kernel reduce 4194304", ".fake_kernel reduce 999999999999", 1)
	t.Setenv("CUDA_MODULE_LOADING", "LAZY")
	d, err := driver.Open(fakecuda.Build(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Init(); err != nil {
		t.Fatal(err)
	}
	rep, err := d.ProbeModule([]byte(image), 0)
	var res *driver.Result
	if !errors.As(err, &res) || res.Name != "CUDA_ERROR_OUT_OF_MEMORY" || !strings.Contains(err.Error(), "kernel reduce") {
		t.Fatalf("err = %v, want CUDA_ERROR_OUT_OF_MEMORY naming kernel reduce", err)
	}
	if len(rep.Kernels) != 2 {
		t.Errorf("kernels measured before the failure = %d, want 2", len(rep.Kernels))
	}
}

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		image string
		want  string
	}{
		{"\x7fELF\x02\x01\x01", driver.FormatCubin},
		{"\x50\xed\x55\xba\x01\x00", driver.FormatFatbin},
		{"//\n.version 8.0\n.target sm_90\n", driver.FormatPTX},
		{"hello", ""},
		{"", ""},
	} {
		got, err := driver.DetectFormat([]byte(tc.image))
		if got != tc.want || (tc.want == "") != (err != nil) {
			t.Errorf("DetectFormat(%q) = %q, %v; want %q", tc.image, got, err, tc.want)
		}
	}
}

func TestLibraryEnvVariable(t *testing.T) {
	lib := fakecuda.Build(t)
	t.Setenv(driver.LibraryEnv, lib)
	if got := driver.LibraryPath(); got != lib {
		t.Fatalf("LibraryPath() = %q, want %q", got, lib)
	}
	env, err := driver.ProbeEnv("", false)
	if err != nil || env.Library != lib || len(env.Devices) != 1 {
		t.Fatalf("ProbeEnv through $%s: %+v, %v", driver.LibraryEnv, env, err)
	}
}
