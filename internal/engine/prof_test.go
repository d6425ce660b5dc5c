package engine

import (
	"fmt"
	"os"
	"testing"

	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/rules"
)

func TestProfRun(t *testing.T) {
	dir := os.Getenv("PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	opts := Options{Paths: []string{dir}, Rules: rules.All, BaseDir: dir, NoProject: os.Getenv("NOPROJ") != ""}
	if cd := os.Getenv("PROF_CACHE"); cd != "" {
		c, err := cache.Open(cd)
		if err != nil {
			t.Fatal(err)
		}
		opts.Cache = c
	}
	res := Run(opts)
	fmt.Printf("%+v findings=%d\n", res.Stats, len(res.Findings))
}

func TestProfSummaries(t *testing.T) {
	dir := os.Getenv("PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	res := Run(Options{Paths: []string{dir}, Rules: rules.All, BaseDir: dir})
	p := res.Project
	steps, before, fns, maxSteps := 0, 0, 0, 0
	for _, name := range p.Names() {
		for _, d := range p.Definitions(name) {
			fns++
			steps += len(d.Summary.Steps)
			maxSteps = max(maxSteps, len(d.Summary.Steps))
			for _, s := range d.Summary.Steps {
				before += len(s.Before)
			}
		}
	}
	fmt.Println("functions", fns, "steps", steps, "before", before, "max steps", maxSteps)
}
