// Command lazylint finds CUDA lazy-loading hazards. See README.md.
package main

import (
	"os"

	"github.com/lazylint/lazylint/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
