// Command genmonorepo writes a sample Bazel monorepo of CUDA and C++
// packages for lazylint's Bazel integration (bazel/): its test and its
// benchmark (bench/README.md, "Bazel"). Each group of packages holds
// hazards whose facts cross package boundaries, each with a safe twin:
//
//   - kern: a CUDA library (cuda_library) with two kernels, a launcher
//     defined in its .cu and one defined inline in its .cuh;
//   - warm: a header-only library that preloads kern's kernels (a preload
//     in a third package);
//   - app: timed.cu times kern's header launcher with util/clock's clock
//     helper in two identical functions; driver.cu calls the first with
//     nothing loaded (LL002) and the second after warm's preload (the
//     twin); main.cpp (a cc_binary) calls the driver;
//   - kern/bench: a cc_test, a child package of kern, that times kern's
//     .cu launcher cold (LL002) and after an untimed launch (the twin);
//   - mem: a cc_library that takes all free memory through gpu/api's
//     renaming macros (LL001) and, the twin, half of it.
//
// Six targets a group, plus util/clock, gpu/api, tests/ (lazylint_test
// targets) and, with -umbrella, all:all, a binary that depends on every
// app (the largest dependency closure). Names carry the group's number, so
// no two groups share a function. Every fact a finding rests on flows
// along deps, so a target's check sees it (bazel/README.md). With -rules,
// the workspace also gets stand-ins for the repositories Bazel 4.2 would
// download (tools/offline).
//
//	go run ./bench/genmonorepo -o /tmp/mono -groups 334 -umbrella \
//	    -rules $PWD/bazel -lazylint /tmp/lazylint
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	var o options
	flag.StringVar(&o.dir, "o", "", "folder to write the monorepo to (created; must be empty or absent)")
	flag.IntVar(&o.groups, "groups", 3, "number of groups of six packages")
	flag.BoolVar(&o.umbrella, "umbrella", false, "add all:all, a binary depending on every group's app")
	flag.StringVar(&o.rules, "rules", "", "lazylint's bazel/ folder, for WORKSPACE's local_repository (absolute; empty: no lint setup)")
	flag.StringVar(&o.lazylint, "lazylint", "", "a lazylint binary to copy to tools/lint/lazylint (empty: none)")
	flag.StringVar(&o.lazylintVet, "lazylint-vet", "", "a lazylint-vet binary to copy to tools/lint/lazylint-vet, with a cgo module and its go vet tests (empty: none)")
	flag.Parse()
	if o.dir == "" || o.groups < 1 {
		fmt.Fprintln(os.Stderr, "usage: genmonorepo -o DIR [-groups N] [-umbrella] [-rules DIR] [-lazylint BIN] [-lazylint-vet BIN]")
		os.Exit(2)
	}
	st, err := write(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genmonorepo:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d packages, %d targets, %d C/C++/CUDA files to %s\n", st.packages, st.targets, st.sources, o.dir)
}
