// Package cgoheaders holds minimal CUDA headers (cuda.h, cuda_runtime.h,
// cuda_runtime_api.h, nvml.h) that lazylint writes with `lazylint
// cgo-headers DIR`, so that go vet and golangci-lint, which type-check a cgo
// package before any analyzer runs, work on machines without the CUDA
// toolkit (CGO_CFLAGS=-IDIR). They are lazylint's own declarations, written
// from NVIDIA's public API reference, for type-checking only.
package cgoheaders

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

//go:embed include/*.h
var files embed.FS

// Names lists the headers, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, "include")
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// Write writes every header into dir (created if missing) and returns the
// paths written. An existing header of the same name is replaced.
func Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, name := range Names() {
		data, err := files.ReadFile("include/" + name)
		if err != nil {
			return written, err
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return written, fmt.Errorf("write %s: %w", path, err)
		}
		written = append(written, path)
	}
	return written, nil
}
