// Command gencorpus writes the deterministic benchmark corpus (see package
// bench/corpus).
//
//	go run ./bench/gencorpus -out /tmp/corpus -mb 40
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/lazylint/lazylint/internal/benchcorpus"
)

func main() {
	out := flag.String("out", "", "folder to write (created)")
	mb := flag.Int("mb", 40, "approximate size in MB")
	seed := flag.Uint64("seed", 1, "random seed: the same seed gives the same corpus")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gencorpus -out DIR [-mb N] [-seed S]")
		os.Exit(2)
	}
	n, err := benchcorpus.Write(*out, *mb, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %.1f MB to %s\n", float64(n)/1e6, *out)
}
