package driver_test

import (
	"encoding/binary"
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

// elfImage builds a little-endian ELF64 file for machine with the given
// sections (in order), enough for debug/elf to read.
func elfImage(machine uint16, names []string, data [][]byte) []byte {
	le := binary.LittleEndian
	var body []byte
	offs := make([]int, len(names))
	for i, d := range data {
		offs[i] = 64 + len(body)
		body = append(body, d...)
	}
	shstr := []byte{0}
	nameOff := make([]int, len(names)+1)
	for i, n := range append(append([]string{}, names...), ".shstrtab") {
		nameOff[i] = len(shstr)
		shstr = append(shstr, n...)
		shstr = append(shstr, 0)
	}
	shstrOff := 64 + len(body)
	body = append(body, shstr...)
	for len(body)%8 != 0 {
		body = append(body, 0)
	}
	shoff := 64 + len(body)
	hdr := make([]byte, 64)
	copy(hdr, "\x7fELF\x02\x01\x01")
	le.PutUint16(hdr[16:], 2) // ET_EXEC
	le.PutUint16(hdr[18:], machine)
	le.PutUint32(hdr[20:], 1)
	le.PutUint64(hdr[40:], uint64(shoff))
	le.PutUint16(hdr[52:], 64)
	le.PutUint16(hdr[58:], 64)
	le.PutUint16(hdr[60:], uint16(len(names)+2))
	le.PutUint16(hdr[62:], uint16(len(names)+1))
	sh := func(name, typ, off, size int) []byte {
		b := make([]byte, 64)
		le.PutUint32(b[0:], uint32(name))
		le.PutUint32(b[4:], uint32(typ))
		le.PutUint64(b[24:], uint64(off))
		le.PutUint64(b[32:], uint64(size))
		le.PutUint64(b[48:], 1)
		return b
	}
	out := append(append([]byte(nil), hdr...), body...)
	out = append(out, make([]byte, 64)...) // null section
	for i := range names {
		out = append(out, sh(nameOff[i], 1, offs[i], len(data[i]))...)
	}
	out = append(out, sh(nameOff[len(names)], 3, shstrOff, len(shstr))...)
	return out
}

// fatbinContainer is a fatbin header (16 bytes) and its payload.
func fatbinContainer(payload string) []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint32(b, 0xBA55ED50)
	binary.LittleEndian.PutUint16(b[4:], 1)
	binary.LittleEndian.PutUint16(b[6:], 16)
	binary.LittleEndian.PutUint64(b[8:], uint64(len(payload)))
	return append(b, payload...)
}

func TestDetectFormat(t *testing.T) {
	const emX8664, emCUDA = 62, 190
	for _, tc := range []struct {
		name    string
		image   []byte
		want    string
		wantErr string
	}{
		{"cubin", elfImage(emCUDA, []string{".text._Z4spinPVi"}, [][]byte{{0}}), driver.FormatCubin, ""},
		// Issue 15: a host executable was called a cubin with 0 kernels.
		{"host executable with device code", elfImage(emX8664, []string{".text", ".nv_fatbin"}, [][]byte{{0xc3}, fatbinContainer("payload!")}), "", "embeds device code in .nv_fatbin"},
		{"host executable without device code", elfImage(emX8664, []string{".text"}, [][]byte{{0xc3}}), "", "without device code"},
		{"truncated ELF", []byte("\x7fELF\x02\x01\x01"), "", "cannot be read"},
		{"fatbin", []byte("\x50\xed\x55\xba\x01\x00"), driver.FormatFatbin, ""},
		{"ptx", []byte("//\n.version 8.0\n.target sm_90\n"), driver.FormatPTX, ""},
		{"text", []byte("hello"), "", "not a cubin"},
		{"empty", nil, "", "not a cubin"},
	} {
		got, err := driver.DetectFormat(tc.image)
		if got != tc.want || (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: DetectFormat = %q, %v; want %q, error with %q", tc.name, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestHostFatbins(t *testing.T) {
	first, second := fatbinContainer("first"), fatbinContainer("second!!")
	sec := append(append(append([]byte{}, first...), 0, 0, 0, 0, 0, 0, 0, 0), second...) // padding between
	fbs, err := driver.HostFatbins(elfImage(62, []string{".nv_fatbin"}, [][]byte{sec}))
	if err != nil || len(fbs) != 2 || string(fbs[0]) != string(first) || string(fbs[1]) != string(second) {
		t.Fatalf("HostFatbins = %q, %v", fbs, err)
	}
	if _, err := driver.HostFatbins(elfImage(62, []string{".text"}, [][]byte{{0}})); !errors.Is(err, driver.ErrNotCUDA) {
		t.Errorf("no .nv_fatbin: err = %v, want ErrNotCUDA", err)
	}
	if _, err := driver.HostFatbins(elfImage(62, []string{".nv_fatbin"}, [][]byte{fatbinContainer("x")[:12]})); err == nil {
		t.Error("truncated container: want an error")
	}
}

func TestKnownLoadingValue(t *testing.T) {
	// The blanks around Lazy are the case under test: the driver trims.
	cases := map[string]bool{"LAZY": true, "eager": true, "AUTO": false, "": false, "1": false}
	cases[" "+"Lazy"+" "] = true
	for v, want := range cases {
		if got := driver.KnownLoadingValue(v); got != want {
			t.Errorf("KnownLoadingValue(%q) = %v, want %v", v, got, want)
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
