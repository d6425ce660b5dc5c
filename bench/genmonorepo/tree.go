package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type options struct {
	dir                          string
	groups                       int
	umbrella                     bool
	rules, lazylint, lazylintVet string
}

type stats struct{ packages, targets, sources int }

// tree collects the files to write, by slash path under the root.
type tree struct {
	files map[string]string
	st    stats
}

func (t *tree) add(path, text string) {
	t.files[path] = text
	switch filepath.Ext(path) {
	case ".cu", ".cuh", ".cpp", ".h":
		t.st.sources++
	case "":
		if filepath.Base(path) == "BUILD" {
			t.st.packages++
		}
	}
}

// pkg adds a package's BUILD file and counts its targets.
func (t *tree) pkg(dir, build string, targets int) {
	t.add(dir+"/BUILD", build)
	t.st.targets += targets
}

// group returns the text with NNNN replaced by the group's number.
func group(text string, g int) string {
	return strings.ReplaceAll(text, "NNNN", fmt.Sprintf("%04d", g))
}

func write(o options) (stats, error) {
	if entries, err := os.ReadDir(o.dir); err == nil && len(entries) > 0 {
		return stats{}, fmt.Errorf("%s is not empty", o.dir)
	}
	t := &tree{files: map[string]string{}}
	t.shared(o)
	for g := range o.groups {
		t.group(g)
	}
	if o.umbrella {
		t.umbrella(o.groups)
	}
	if o.lazylintVet != "" {
		t.goModule()
	}
	paths := make([]string, 0, len(t.files))
	for p := range t.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(o.dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return stats{}, err
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(t.files[p]), mode); err != nil {
			return stats{}, err
		}
	}
	for src, dst := range map[string]string{o.lazylint: "tools/lint/lazylint", o.lazylintVet: "tools/lint/lazylint-vet"} {
		if src == "" {
			continue
		}
		if err := copyExecutable(src, filepath.Join(o.dir, filepath.FromSlash(dst))); err != nil {
			return stats{}, err
		}
	}
	return t.st, nil
}

// shared adds the workspace, the tools and the packages every group uses.
func (t *tree) shared(o options) {
	ws := "workspace(name = \"monorepo\")\n"
	if o.rules != "" {
		ws += fmt.Sprintf("\nlocal_repository(\n    name = \"lazylint_bazel\",\n    path = %q,\n)\n", o.rules)
	}
	if o.rules != "" {
		// Bazel 4.2 downloads rules_cc (its C++ toolchain loads it) and,
		// for test rules, remote_coverage_tools: stand-ins, for machines
		// that cannot (Debian's bazel-bootstrap offline).
		ws += offlineRepos
		t.add(".bazelignore", "tools/offline\n")
		t.add("tools/offline/coverage/noop.sh", "#!/bin/sh\nexit 0\n")
		t.add("tools/offline/rules_cc/WORKSPACE", "workspace(name = \"rules_cc\")\n")
		t.add("tools/offline/rules_cc/BUILD", "")
		t.add("tools/offline/rules_cc/cc/BUILD", "")
		t.add("tools/offline/rules_cc/cc/defs.bzl", nativeDefs("rules_cc", "cc_binary", "cc_import", "cc_library", "cc_test",
			"cc_toolchain", "cc_toolchain_suite", "fdo_prefetch_hints", "fdo_profile", "objc_import", "objc_library"))
		t.add("tools/offline/rules_java/WORKSPACE", "workspace(name = \"rules_java\")\n")
		t.add("tools/offline/rules_java/BUILD", "")
		t.add("tools/offline/rules_java/java/BUILD", "")
		t.add("tools/offline/rules_java/java/defs.bzl", nativeDefs("rules_java", "java_binary", "java_import", "java_library",
			"java_lite_proto_library", "java_package_configuration", "java_plugin", "java_proto_library", "java_runtime",
			"java_test", "java_toolchain"))
	}
	t.add("WORKSPACE", ws)
	t.add("tools/cuda/BUILD", "")
	t.add("tools/cuda/defs.bzl", cudaDefs)
	if o.rules != "" {
		t.add("tools/lint/BUILD", lintBuild)
		t.add("tools/lint/linters.bzl", linters)
		t.pkg("tests", testsBuild, 2)
	}
	t.pkg("util/clock", "cc_library(\n    name = \"clock\",\n    hdrs = [\"clock.h\"],\n    visibility = [\"//visibility:public\"],\n)\n", 1)
	t.add("util/clock/clock.h", clockH)
	t.pkg("gpu/api", "cc_library(\n    name = \"api\",\n    hdrs = [\"gpu_api.h\"],\n    visibility = [\"//visibility:public\"],\n)\n", 1)
	t.add("gpu/api/gpu_api.h", gpuAPIH)
}

// group adds group g's six packages (see the package comment).
func (t *tree) group(g int) {
	base := group("pkgs/gNNNN/", g)
	t.pkg(base+"kern", group(kernBuild, g), 1)
	t.add(base+"kern/scale.cuh", group(scaleCuh, g))
	t.add(base+"kern/scale.h", group(scaleH, g))
	t.add(base+"kern/scale.cu", group(scaleCu, g))
	t.pkg(base+"kern/bench", group(benchBuild, g), 1)
	t.add(base+"kern/bench/bench.cpp", group(benchCpp, g))
	t.pkg(base+"warm", group(warmBuild, g), 1)
	t.add(base+"warm/warm.cuh", group(warmCuh, g))
	t.pkg(base+"app", group(appBuild, g), 2)
	t.add(base+"app/timed.h", group(timedH, g))
	t.add(base+"app/timed.cu", group(timedCu, g))
	t.add(base+"app/driver.cu", group(driverCu, g))
	t.add(base+"app/main.cpp", group(mainCpp, g))
	t.pkg(base+"mem", group(memBuild, g), 1)
	t.add(base+"mem/arena.h", group(arenaH, g))
	t.add(base+"mem/arena.cpp", group(arenaCpp, g))
}

// umbrella adds all:all, a binary that runs every group's timings.
func (t *tree) umbrella(groups int) {
	var deps, includes, calls strings.Builder
	for g := range groups {
		fmt.Fprintf(&deps, "        \"//pkgs/g%04d/app:timed\",\n", g)
		fmt.Fprintf(&includes, "#include \"pkgs/g%04d/app/timed.h\"\n", g)
		fmt.Fprintf(&calls, "  std::printf(\"%04d %%.3f %%.3f\\n\", run_cold_g%04d(x, n), run_warm_g%04d(x, n));\n", g, g, g)
	}
	t.pkg("all", "cc_binary(\n    name = \"all\",\n    srcs = [\"main.cpp\"],\n    deps = [\n"+deps.String()+"    ],\n)\n", 1)
	t.add("all/main.cpp", "// Every group's timings in one program.\n#include <cstdio>\n#include <cuda_runtime.h>\n\n"+
		includes.String()+"\nint main() {\n  const int n = 1 << 20;\n  float *x = nullptr;\n  cudaMalloc(&x, n * sizeof(float));\n"+
		calls.String()+"  cudaFree(x);\n  return 0;\n}\n")
}

// goModule adds a cgo module and the go vet tests of bazel/go_vet.bzl.
func (t *tree) goModule() {
	t.add("gocgo/go.mod", "module example.com/gocgo\n\ngo 1.22\n")
	t.add("gocgo/arena/arena.go", goArena)
	t.add("gocgo/mode/mode.go", goMode)
	t.pkg("gocgo", goBuild, 3)
}

// nativeDefs is a stand-in for a rule set's defs.bzl that defines the
// built-in rules of the names.
func nativeDefs(repo string, names ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\"\"\"A stand-in for %s's defs.bzl, for Bazel 4.2 without a network: the built-in rules.\"\"\"\n", repo)
	for _, n := range names {
		fmt.Fprintf(&b, "\ndef %s(**kwargs):\n    native.%s(**kwargs)\n", n, n)
	}
	return b.String()
}

func copyExecutable(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}
