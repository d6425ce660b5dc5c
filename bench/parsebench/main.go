// Command parsebench parses every source file under the given folders with
// bare tree-sitter (no pre-pass, no facts) on one goroutine per core, and
// prints MB/s: the baseline `lazylint check` is compared with.
//
//	go run ./bench/parsebench DIR...
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lazylint/lazylint/cudaparse"
)

func main() {
	var paths []string
	for _, root := range os.Args[1:] {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && cudaparse.IsSource(p) {
				paths = append(paths, p)
			}
			return nil
		})
	}
	start := time.Now()
	var bytes atomic.Int64
	var wg sync.WaitGroup
	next := make(chan string)
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := cudaparse.NewParser()
			if err != nil {
				panic(err)
			}
			defer p.Close()
			for path := range next {
				src, err := os.ReadFile(path)
				if err != nil {
					continue
				}
				bytes.Add(int64(len(src)))
				_ = p.ParseBare(src)
			}
		}()
	}
	for _, p := range paths {
		next <- p
	}
	close(next)
	wg.Wait()
	d := time.Since(start)
	fmt.Printf("bare tree-sitter: %d files, %.1f MB in %.2fs: %.1f MB/s, %.0f files/s\n",
		len(paths), float64(bytes.Load())/1e6, d.Seconds(), float64(bytes.Load())/1e6/d.Seconds(), float64(len(paths))/d.Seconds())
}
