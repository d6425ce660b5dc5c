// Package bench holds lazylint's benchmarks. Run them with
//
//	go test ./bench -bench . -benchtime 3x
//
// and the end-to-end comparison with bare tree-sitter and ripgrep with
// bench/bench.sh.
package bench

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/internal/benchcorpus"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

var (
	corpusOnce sync.Once
	corpusDir  string
	corpusErr  error
)

// benchCorpus writes a 20 MB generated corpus once per test binary.
func benchCorpus(b *testing.B) string {
	corpusOnce.Do(func() {
		corpusDir, corpusErr = os.MkdirTemp("", "lazylint-bench-")
		if corpusErr == nil {
			_, corpusErr = benchcorpus.Write(corpusDir, 20, 1)
		}
	})
	if corpusErr != nil {
		b.Fatal(corpusErr)
	}
	return corpusDir
}

// BenchmarkCheck runs the whole engine over the corpus: walk, read,
// prefilter, parse what needs it, run every rule.
func BenchmarkCheck(b *testing.B) {
	dir := benchCorpus(b)
	var size int64
	for b.Loop() {
		res := engine.Run(engine.Options{Paths: []string{dir}, Rules: rules.All})
		if len(res.Errors) > 0 {
			b.Fatal(res.Errors[0])
		}
		size = res.Stats.Bytes
	}
	b.SetBytes(size)
}

// kernelFiles returns the contents of the corpus's .cu files (all of
// which need a parse).
func kernelFiles(b *testing.B) ([][]byte, int64) {
	dir := benchCorpus(b)
	paths, _ := filepath.Glob(filepath.Join(dir, "kernels", "*.cu"))
	var out [][]byte
	var n int64
	for _, p := range paths[:min(len(paths), 300)] {
		src, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, src)
		n += int64(len(src))
	}
	return out, n
}

func newParser(b *testing.B) *cudaparse.Parser {
	p, err := cudaparse.NewParser()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(p.Close)
	return p
}

// BenchmarkParseBare is tree-sitter alone on one goroutine: the baseline.
func BenchmarkParseBare(b *testing.B) {
	files, n := kernelFiles(b)
	p := newParser(b)
	b.SetBytes(n)
	for b.Loop() {
		for _, src := range files {
			if err := p.ParseBare(src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseBareNeutralized is tree-sitter alone on text the pre-pass
// has already neutralized: the cost of parsing alone, without the error
// recovery raw CUDA syntax causes.
func BenchmarkParseBareNeutralized(b *testing.B) {
	files, n := kernelFiles(b)
	neutral := make([][]byte, len(files))
	for i, src := range files {
		neutral[i], _ = syntax.Neutralize(src)
	}
	p := newParser(b)
	b.SetBytes(n)
	for b.Loop() {
		for _, src := range neutral {
			if err := p.ParseBare(src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseAndRules is what lazylint does to a file that needs a parse,
// on one goroutine: pre-pass, parse, flatten, facts, every rule (the
// prefilter is bypassed: every file is parsed).
func BenchmarkParseAndRules(b *testing.B) {
	files, n := kernelFiles(b)
	p := newParser(b)
	findings := 0
	b.SetBytes(n)
	for b.Loop() {
		for _, src := range files {
			f, err := p.Parse("bench.cu", src)
			if err != nil {
				b.Fatal(err)
			}
			for _, r := range rules.All {
				r.Run(rule.NewPass(r, f, nil, nil, func(rule.Finding) { findings++ }))
			}
		}
	}
}

// BenchmarkNeutralize is the pre-pass alone on one goroutine.
func BenchmarkNeutralize(b *testing.B) {
	files, n := kernelFiles(b)
	b.SetBytes(n)
	for b.Loop() {
		for _, src := range files {
			syntax.Neutralize(src)
		}
	}
}

// BenchmarkPrefilters asks every rule's prefilter about every file of the
// corpus, as a run does before deciding what to parse or look up.
func BenchmarkPrefilters(b *testing.B) {
	dir := benchCorpus(b)
	var files [][]byte
	var n int64
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		src, err := os.ReadFile(p)
		files = append(files, src)
		n += int64(len(src))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(n)
	var text rule.Text
	for b.Loop() {
		for _, src := range files {
			text.Reset(src)
			for _, r := range rules.All {
				r.MayFire(&text)
			}
		}
	}
}
