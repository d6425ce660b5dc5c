// Command lazylint-vet runs lazylint's analyzers for Go code that calls
// CUDA through cgo under go vet:
//
//	go vet -vettool=$(which lazylint-vet) ./...
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/lazylint/lazylint/analyzers"
)

func main() { unitchecker.Main(analyzers.All...) }
