// Command parsequality measures how well cudaparse understands real CUDA
// code: the share of files with an ERROR node and of bytes inside ERROR
// nodes, without and with the pre-pass.
//
//	go run ./bench/parsequality [-ext .cu,.cuh] [-worst 20] DIR...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/lazylint/lazylint/cudaparse"
)

type result struct {
	path                string
	firstError          string
	size                int
	errRaw, errPre      int // ERROR nodes
	bytesRaw, bytesPre  int // bytes inside ERROR nodes
	failedRaw, failedPr bool
	lost                []string // hazard vocabulary inside ERROR nodes: "path:line: word"
}

// hazardWords are the calls and spellings the rules build their facts from
// (allocations and memory queries, launches, clocks and timers, module
// loads, spin-wait loads and releases, the loading-mode variable). A
// mention inside an ERROR node is a fact a rule may miss: -lost lists them.
var hazardWords = regexp.MustCompile(`\b(cudaMalloc\w*|cuMemAlloc\w*|cuMemCreate|cudaMemGetInfo|cuMemGetInfo|cudaEventRecord|cudaEventElapsedTime|cudaLaunchKernel\w*|cuLaunchKernel\w*|clock64|clock_gettime|steady_clock|high_resolution_clock|system_clock|cuModuleLoad\w*|cuLibraryLoad\w*|cudaFuncGetAttributes|cuFuncLoad|CUDA_MODULE_LOADING|__managed__|cudaMallocManaged|volatile|atomicExch|atomicCAS|ld_acquire|st_release)\b|<<<`)

func main() {
	exts := flag.String("ext", ".cu,.cuh", "comma-separated file endings to measure")
	worst := flag.Int("worst", 0, "list the N files with the most bytes in ERROR nodes after the pre-pass")
	show := flag.Bool("show", false, "print the line of the first ERROR node of each file that has one")
	lost := flag.Bool("lost", false, "list each mention of the rules' vocabulary (allocations, launches, clocks, module loads, spin-wait accesses) inside an ERROR node")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: parsequality [-ext .cu,.cuh] [-worst N] DIR...")
		os.Exit(2)
	}
	want := map[string]bool{}
	for _, e := range strings.Split(*exts, ",") {
		want[strings.TrimSpace(e)] = true
	}
	var paths []string
	for _, root := range flag.Args() {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && want[strings.ToLower(filepath.Ext(p))] {
				paths = append(paths, p)
			}
			return nil
		})
	}
	sort.Strings(paths)
	results := make([]result, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raw, _ := cudaparse.NewParser()
			pre, _ := cudaparse.NewParser()
			defer raw.Close()
			defer pre.Close()
			raw.NoPrepass = true
			for i := range next {
				results[i] = measure(raw, pre, paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()

	var files, bytes, filesErrRaw, filesErrPre, bytesErrRaw, bytesErrPre, failed int
	for _, r := range results {
		files++
		bytes += r.size
		if r.errRaw > 0 {
			filesErrRaw++
		}
		if r.errPre > 0 {
			filesErrPre++
		}
		if r.failedPr || r.failedRaw {
			failed++
		}
		bytesErrRaw += r.bytesRaw
		bytesErrPre += r.bytesPre
	}
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	fmt.Printf("files: %d (%.1f MB), parse failures: %d\n", files, float64(bytes)/1e6, failed)
	fmt.Printf("| pre-pass | files with an ERROR node | bytes inside ERROR nodes |\n|---|---|---|\n")
	fmt.Printf("| without | %d (%.1f%%) | %d (%.2f%%) |\n", filesErrRaw, pct(filesErrRaw, files), bytesErrRaw, pct(bytesErrRaw, bytes))
	fmt.Printf("| with | %d (%.1f%%) | %d (%.2f%%) |\n", filesErrPre, pct(filesErrPre, files), bytesErrPre, pct(bytesErrPre, bytes))
	if *show {
		for _, r := range results {
			if r.firstError != "" {
				fmt.Println(r.firstError)
			}
		}
	}
	if *lost {
		n := 0
		for _, r := range results {
			for _, l := range r.lost {
				fmt.Println("lost:", l)
				n++
			}
		}
		fmt.Printf("hazard vocabulary inside ERROR nodes: %d mention(s)\n", n)
	}
	if *worst > 0 {
		sort.Slice(results, func(a, b int) bool { return results[a].errPre > results[b].errPre })
		for _, r := range results[:min(*worst, len(results))] {
			if r.errPre > 0 {
				fmt.Printf("%6d errors %8d bytes  %s\n", r.errPre, r.bytesPre, r.path)
			}
		}
	}
}

func measure(raw, pre *cudaparse.Parser, path string) result {
	r := result{path: path}
	src, err := os.ReadFile(path)
	if err != nil {
		return r
	}
	r.size = len(src)
	if f, err := raw.Parse(path, src); err == nil {
		r.errRaw, r.bytesRaw = f.ErrorCount(), f.ErrorBytes()
	} else {
		r.failedRaw = true
	}
	if f, err := pre.Parse(path, src); err == nil {
		r.errPre, r.bytesPre = f.ErrorCount(), f.ErrorBytes()
		if rs := f.ErrorRanges(); len(rs) > 0 {
			pos := f.Position(rs[0].Start)
			r.firstError = fmt.Sprintf("%s:%d: %s", path, pos.Line, strings.TrimSpace(string(f.Lines.LineText(pos.Line))))
		}
		for _, rg := range f.ErrorRanges() {
			for _, m := range hazardWords.FindAllIndex(src[rg.Start:rg.End], -1) {
				pos := f.Position(rg.Start + m[0])
				if line := f.Lines.LineText(pos.Line); bytes.Contains(line[:min(pos.Column-1, len(line))], []byte("//")) {
					continue // in a comment
				}
				r.lost = append(r.lost, fmt.Sprintf("%s:%d: %s", path, pos.Line, src[rg.Start+m[0]:rg.Start+m[1]]))
			}
		}
	} else {
		r.failedPr = true
	}
	return r
}
