package engine

import (
	"sync"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// worker is what one goroutine of the pool keeps from job to job: a
// parser (tree-sitter's are not safe for concurrent use; created on
// first need) and the prefilters' view of a text (its index reused).
type worker struct {
	parser *cudaparse.Parser
	text   rule.Text
}

// onPool calls do for each k in [0, n) on at most max(1, workers)
// goroutines, each with a worker of its own, and returns when all are
// done. It is the engine's one worker pool: every phase that
// works file by file runs on it. do is called for each k exactly once,
// in no set order; what it writes must be its own (index k) or locked.
func onPool(n, workers int, do func(w *worker, k int)) {
	if n == 0 {
		return
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(max(1, workers), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w worker
			defer func() {
				if w.parser != nil {
					w.parser.Close()
				}
			}()
			for k := range jobs {
				do(&w, k)
			}
		}()
	}
	for k := range n {
		jobs <- k
	}
	close(jobs)
	wg.Wait()
}
