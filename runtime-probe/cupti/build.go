// Package cupti builds and reads the injection library of `lazylint probe
// trace`: C source (inject.c) that the driver loads at cuInit through
// CUDA_INJECTION64_PATH, which records module loads, launches, lazy loads
// and kernel times through CUPTI as JSON lines, one file per process.
//
// The library is built on the machine that runs the program, with its C
// compiler against its toolkit's CUPTI, once per toolkit (cached).
package cupti

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

//go:embed csrc/inject.c
var source []byte

// Errors that mean tracing cannot be done here; `probe run` still works.
var (
	ErrNoCUPTI    = errors.New("no CUPTI found (cupti.h and libcupti.so of a CUDA toolkit); set CUDA_HOME to the toolkit")
	ErrNoCompiler = errors.New("no C compiler found (set CC, or install gcc)")
)

// Toolkit is where CUPTI's header and library are.
type Toolkit struct {
	Home    string `json:"home"`
	Include string `json:"include"` // holds cupti.h
	LibDir  string `json:"lib_dir"` // holds libcupti.so
}

// FindToolkit looks for CUPTI under $CUDA_HOME, $CUDA_PATH, the folder
// above nvcc's and /usr/local/cuda. CUDA 13 keeps both under
// targets/x86_64-linux (extras/CUPTI has only docs and samples there);
// older toolkits under extras/CUPTI.
func FindToolkit() (Toolkit, error) {
	var homes []string
	for _, v := range []string{"CUDA_HOME", "CUDA_PATH"} {
		if h := os.Getenv(v); h != "" {
			homes = append(homes, h)
		}
	}
	if nvcc, err := exec.LookPath("nvcc"); err == nil {
		if resolved, err := filepath.EvalSymlinks(nvcc); err == nil {
			nvcc = resolved
		}
		homes = append(homes, filepath.Dir(filepath.Dir(nvcc)))
	}
	homes = append(homes, "/usr/local/cuda")
	for _, h := range homes {
		for _, sub := range [][2]string{
			{"targets/x86_64-linux/include", "targets/x86_64-linux/lib"},
			{"targets/sbsa-linux/include", "targets/sbsa-linux/lib"},
			{"extras/CUPTI/include", "extras/CUPTI/lib64"},
			{"include", "lib64"},
		} {
			inc, lib := filepath.Join(h, sub[0]), filepath.Join(h, sub[1])
			if fileExists(filepath.Join(inc, "cupti.h")) && hasCUPTILib(lib) {
				return Toolkit{Home: h, Include: inc, LibDir: lib}, nil
			}
		}
	}
	return Toolkit{}, ErrNoCUPTI
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func hasCUPTILib(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "libcupti.so*"))
	return len(m) > 0
}

// compiler returns $CC, gcc or cc, whichever is found first.
func compiler() (string, error) {
	for _, c := range []string{os.Getenv("CC"), "gcc", "cc"} {
		if c == "" {
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", ErrNoCompiler
}

// Build returns the injection library for tk, building it into
// cacheDir/lazylint/cupti-HASH/ unless a build for the same source,
// header and library is there. The hash covers inject.c, cupti.h's size
// and time, and the library folder, so a new toolkit gets a new build.
func Build(ctx context.Context, tk Toolkit, cacheDir string) (string, error) {
	cc, err := compiler()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(source)
	if st, err := os.Stat(filepath.Join(tk.Include, "cupti.h")); err == nil {
		fmt.Fprintf(h, "%d %d", st.Size(), st.ModTime().UnixNano())
	}
	fmt.Fprint(h, tk.LibDir, cc)
	dir := filepath.Join(cacheDir, "lazylint", "cupti-"+hex.EncodeToString(h.Sum(nil))[:16])
	lib := filepath.Join(dir, "inject.so")
	if fileExists(lib) {
		return lib, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	src := filepath.Join(dir, "inject.c")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return "", err
	}
	tmp := lib + ".tmp" + fmt.Sprint(os.Getpid())
	cmd := exec.CommandContext(ctx, cc, "-O2", "-shared", "-fPIC", "-o", tmp, src,
		"-I"+tk.Include, "-L"+tk.LibDir, "-lcupti", "-lcuda", "-lpthread", "-Wl,-rpath,"+tk.LibDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building the injection library with %s: %w: %s", cc, err, strings.TrimSpace(firstLines(stderr.String(), 20)))
	}
	if err := os.Rename(tmp, lib); err != nil {
		return "", err
	}
	return lib, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
