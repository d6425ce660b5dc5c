package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/internal/cgoheaders"
)

func newCgoHeadersCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "cgo-headers DIR",
		Short: "Write minimal CUDA headers so go vet and golangci-lint can type-check cgo code without CUDA",
		Long: `cgo-headers writes minimal cuda.h, cuda_runtime.h, cuda_runtime_api.h and
nvml.h into DIR. go vet -vettool=lazylint-vet and the golangci-lint plugin
type-check a cgo package before any analyzer runs, so on a machine without the
CUDA toolkit they stop at "cuda.h: No such file or directory". With
CGO_CFLAGS=-IDIR they find these instead:

  lazylint cgo-headers /tmp/cuda-stubs
  CGO_CFLAGS=-I/tmp/cuda-stubs go vet -vettool=$(which lazylint-vet) ./...

The headers declare the types, constants and functions lazylint's analyzers
know (with the real headers' _v2 names); they are for type-checking only,
never for building a program.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			written, err := cgoheaders.Write(args[0])
			if err != nil {
				return err
			}
			for _, p := range written {
				fmt.Fprintln(cmd.OutOrStdout(), p)
			}
			abs, err := filepath.Abs(args[0])
			if err != nil {
				abs = args[0]
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "for type-checking only; use with CGO_CFLAGS=-I%s\n", abs)
			return nil
		},
	}
}
