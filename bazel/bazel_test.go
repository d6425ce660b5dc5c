package bazel_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/repotest"
)

// The sample monorepo's size for the test: three groups of six packages
// and the umbrella binary.
const groups = 3

// TestBazelAgreesWithCheck builds the lint output groups of a generated
// monorepo (bench/genmonorepo) with the aspect, and compares the SARIF
// reports of all its targets with `lazylint check` of the same tree,
// finding for finding. Then the lint tests, the validation action and the
// go vet tests. It needs bazel on PATH (Debian's bazel-bootstrap, 4.2, is
// what it was written with) and is skipped without it: CI may not have it.
func TestBazelAgreesWithCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Bazel")
	}
	if _, err := exec.LookPath("bazel"); err != nil {
		t.Skip("bazel is not on PATH")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	lazylint := goBuild(t, root, "./cmd/lazylint", filepath.Join(tmp, "bin", "lazylint"))
	vet := goBuild(t, root, "./cmd/lazylint-vet", filepath.Join(tmp, "bin", "lazylint-vet"))
	gen := goBuild(t, root, "./bench/genmonorepo", filepath.Join(tmp, "bin", "genmonorepo"))
	tree := filepath.Join(tmp, "mono")
	run(t, "", gen, "-o", tree, "-groups", fmt.Sprint(groups), "-umbrella",
		"-rules", filepath.Join(root, "bazel"), "-lazylint", lazylint, "-lazylint-vet", vet)

	bz := newBazel(t, tree, filepath.Join(tmp, "bazel-root"))
	bz.ok(t, "build", "//...", "--aspects=//tools/lint:linters.bzl%lazylint", "--output_groups=rules_lint_human,rules_lint_machine")
	got, reports := bazelFindings(t, tree)

	cmd := exec.Command(lazylint, "check", "--no-config", "--no-progress", "--format", "sarif", "-o", filepath.Join(tmp, "tree.sarif"), "pkgs", "util", "gpu", "all")
	cmd.Dir = tree
	cmd.Env = append(os.Environ(), "LAZYLINT_CACHE_DIR="+filepath.Join(tmp, "cache"))
	if out, err := cmd.CombinedOutput(); exitCode(err) != 1 {
		t.Fatalf("lazylint check of the tree: %v (want exit 1)\n%s", err, out)
	}
	want := sarifFindings(t, filepath.Join(tmp, "tree.sarif"))

	if !slices.Equal(got, want) {
		t.Errorf("the Bazel run's findings differ from lazylint check's\nbazel (%d):\n%s\ncheck (%d):\n%s",
			len(got), strings.Join(got, "\n"), len(want), strings.Join(want, "\n"))
	}
	// Three hazards a group, each in its own target; no twin.
	if len(want) != 3*groups {
		t.Errorf("lazylint check found %d findings, want %d:\n%s", len(want), 3*groups, strings.Join(want, "\n"))
	}
	// A report for each target with sources: a group's six, util/clock,
	// gpu/api and all:all.
	if n := len(reports); n != 6*groups+3 {
		t.Errorf("%d SARIF reports, want one for each of %d targets with sources", n, 6*groups+3)
	}
	for _, r := range reports {
		data, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, abs := range []string{tmp, "/tmp/", "/execroot/", "/sandbox/"} {
			if bytes.Contains(data, []byte(abs)) {
				t.Errorf("%s names an absolute path (%s)", r, abs)
			}
		}
	}

	t.Run("lint tests", func(t *testing.T) {
		bz.ok(t, "test", "//tests/...")
	})
	t.Run("validation", func(t *testing.T) {
		// Bazel 4.2 runs validation actions only when asked; later
		// versions by default (--run_validations).
		strict := []string{"--aspects=//tools/lint:linters.bzl%lazylint_strict", "--output_groups=rules_lint_human", "--experimental_run_validations"}
		bz.ok(t, append([]string{"build", "//pkgs/g0000/warm"}, strict...)...)
		out := bz.fails(t, append([]string{"build", "//pkgs/g0000/app:timed"}, strict...)...)
		if !strings.Contains(out, "[LL002]") {
			t.Errorf("the failing validation does not show the finding:\n%s", out)
		}
	})
	t.Run("patches", func(t *testing.T) {
		// A finding with a fix: a timed first launch written as <<<>>>.
		writeFile(t, filepath.Join(tree, "fix", "BUILD"), `load("//tools/cuda:defs.bzl", "cuda_library")

cuda_library(
    name = "direct",
    srcs = ["direct.cu"],
)
`)
		writeFile(t, filepath.Join(tree, "fix", "direct.cu"), `#include <chrono>

__global__ void relu(float *p, int n) {}

double bench_relu(float *p, int n) {
  auto t0 = std::chrono::steady_clock::now();
  relu<<<(n + 255) / 256, 256>>>(p, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}
`)
		bz.ok(t, "build", "//fix:direct", "--aspects=//tools/lint:linters.bzl%lazylint_patches", "--output_groups=rules_lint_patch")
		patch, err := os.ReadFile(filepath.Join(tree, "bazel-bin", "fix", "direct.AspectRulesLintLazylint.patch"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(patch, []byte("+++ b/fix/direct.cu")) || !bytes.Contains(patch, []byte("+  { cudaFuncAttributes")) {
			t.Fatalf("the patch does not preload relu in fix/direct.cu:\n%s", patch)
		}
		if _, err := exec.LookPath("patch"); err == nil {
			cmd := exec.Command("patch", "-p1", "--dry-run")
			cmd.Dir, cmd.Stdin = tree, bytes.NewReader(patch)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("patch -p1 at the workspace's root: %v\n%s", err, out)
			}
		}
	})
	t.Run("callers are not seen", func(t *testing.T) {
		// The documented limit (bazel/README.md): a library's check does
		// not see its dependents. Its timed function's only caller, in a
		// binary of the parent folder (lazylint takes a source file of a
		// folder, its parent or a child for one of the same program),
		// preloads the kernel first: lazylint check of the tree finds
		// nothing, the library's check finds the timed launch.
		writeFile(t, filepath.Join(tree, "rev", "lib", "BUILD"), `load("//tools/cuda:defs.bzl", "cuda_library")

cuda_library(
    name = "lib",
    srcs = ["timed.cu"],
    hdrs = ["timed.h"],
    visibility = ["//visibility:public"],
    deps = ["//pkgs/g0000/kern"],
)
`)
		writeFile(t, filepath.Join(tree, "rev", "lib", "timed.h"), "#pragma once\n\ndouble time_bias_rev(float *x, int n);\n")
		writeFile(t, filepath.Join(tree, "rev", "lib", "timed.cu"), `#include <chrono>

#include "pkgs/g0000/kern/scale.cuh"
#include "rev/lib/timed.h"

double time_bias_rev(float *x, int n) {
  auto t0 = std::chrono::steady_clock::now();
  launch_bias_g0000(x, 1.0f, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}
`)
		writeFile(t, filepath.Join(tree, "rev", "BUILD"), `cc_binary(
    name = "main",
    srcs = ["main.cpp"],
    deps = [
        "//pkgs/g0000/warm",
        "//rev/lib",
    ],
)
`)
		writeFile(t, filepath.Join(tree, "rev", "main.cpp"), `#include "pkgs/g0000/warm/warm.cuh"
#include "rev/lib/timed.h"

int main() {
  warm_g0000();
  time_bias_rev(nullptr, 1);
  return 0;
}
`)
		bz.ok(t, "build", "//rev/...", "--aspects=//tools/lint:linters.bzl%lazylint", "--output_groups=rules_lint_machine")
		lib := sarifFindings(t, filepath.Join(tree, "bazel-bin", "rev", "lib", "lib.AspectRulesLintLazylint.report"))
		bin := sarifFindings(t, filepath.Join(tree, "bazel-bin", "rev", "main.AspectRulesLintLazylint.report"))
		if len(lib) != 1 || !strings.Contains(lib[0], "rev/lib/timed.cu:8:3 LL002") || len(bin) != 0 {
			t.Errorf("the library's check: %q (want the timed launch, line 8), the binary's: %q (want none)", lib, bin)
		}
		cmd := exec.Command(lazylint, "check", "--no-config", "--no-cache", "--no-progress", "--format", "concise", "rev", "pkgs/g0000")
		cmd.Dir = tree
		out, err := cmd.CombinedOutput()
		if err == nil || strings.Contains(string(out), "rev/lib/timed.cu") {
			t.Errorf("lazylint check of the tree: want the findings of pkgs/g0000 and none in rev/ (%v):\n%s", err, out)
		}
	})
	t.Run("go vet", func(t *testing.T) {
		if _, err := exec.LookPath("gcc"); err != nil {
			t.Skip("cgo needs a C compiler")
		}
		bz.ok(t, "test", "//gocgo/...", "--test_env=PATH", "--test_env=GOCACHE="+goEnv(t, "GOCACHE"))
	})
}

// bazelFindings reads the SARIF reports (rules_lint_machine) of every
// target under bazel-bin.
func bazelFindings(t *testing.T, tree string) (findings, reports []string) {
	t.Helper()
	bin, err := filepath.EvalSymlinks(filepath.Join(tree, "bazel-bin"))
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(bin, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".AspectRulesLintLazylint.report") {
			return err
		}
		reports = append(reports, p)
		findings = append(findings, sarifFindings(t, p)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(findings)
	return findings, reports
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

func (l sarifLocation) String() string {
	p := l.PhysicalLocation
	return fmt.Sprintf("%s:%d:%d", p.ArtifactLocation.URI, p.Region.StartLine, p.Region.StartColumn)
}

// sarifFindings returns a SARIF report's results, one line each: place,
// rule, message and related places, sorted.
func sarifFindings(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				RuleID  string `json:"ruleId"`
				Message struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations        []sarifLocation `json:"locations"`
				RelatedLocations []sarifLocation `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, run := range doc.Runs {
		for _, r := range run.Results {
			var b strings.Builder
			for _, l := range r.Locations {
				b.WriteString(l.String())
			}
			fmt.Fprintf(&b, " %s %s", r.RuleID, r.Message.Text)
			for _, l := range r.RelatedLocations {
				b.WriteString(" [" + l.String() + "]")
			}
			out = append(out, b.String())
		}
	}
	slices.Sort(out)
	return out
}

// bazel runs Bazel in a workspace with its own output root, shut down at
// the end of the test.
type bazel struct{ dir, outer string }

func newBazel(t *testing.T, dir, outputRoot string) *bazel {
	b := &bazel{dir: dir, outer: outputRoot}
	t.Cleanup(func() {
		cmd := exec.Command("bazel", "--output_user_root="+outputRoot, "shutdown")
		cmd.Dir = dir
		_ = cmd.Run()
	})
	return b
}

func (b *bazel) run(args ...string) (string, error) {
	all := append([]string{"--output_user_root=" + b.outer, "--max_idle_secs=60"}, args...)
	all = append(all, "--color=no", "--curses=no", "--noshow_progress")
	cmd := exec.Command("bazel", all...)
	cmd.Dir = b.dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (b *bazel) ok(t *testing.T, args ...string) {
	t.Helper()
	if out, err := b.run(args...); err != nil {
		t.Fatalf("bazel %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func (b *bazel) fails(t *testing.T, args ...string) string {
	t.Helper()
	out, err := b.run(args...)
	if err == nil {
		t.Fatalf("bazel %s succeeded, want a failure\n%s", strings.Join(args, " "), out)
	}
	return out
}

// repoRoot is the root of the lazylint module, the folder above this one.
func repoRoot(t *testing.T) string { return repotest.Root(t) }

func goBuild(t *testing.T, root, pkg, out string) string {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var e *exec.ExitError
	if errors.As(err, &e) {
		return e.ExitCode()
	}
	return -1
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
