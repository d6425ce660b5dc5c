package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/lazylint/lazylint/rules"

	"github.com/spf13/cobra"

	"github.com/lazylint/lazylint/internal/lsp"
	"github.com/lazylint/lazylint/internal/version"
)

func newLSPCommand() *cobra.Command {
	var debounce time.Duration
	var stdio bool
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server on stdin/stdout",
		Long: `lsp runs lazylint as a Language Server (LSP) on stdin and stdout, for
editors: it checks the C, C++, CUDA and cgo Go files they open as they are
edited, offers the suggested fixes and suppression comments as quick fixes,
and shows a rule's documentation on hover. Logs go to stderr.

Exit codes (as LSP asks): 0 after shutdown and exit, 1 otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			stream := &stdioStream{in: cmd.InOrStdin(), out: cmd.OutOrStdout()}
			err := lsp.Serve(ctx, stream, lsp.Config{Options: configuredOptions, Rules: rules.All, Version: version.Version, Debounce: debounce, Log: cmd.ErrOrStderr()})
			if err != nil {
				// An exit without shutdown (lsp.ErrExitWithoutShutdown) or
				// a client gone before shutdown.
				fmt.Fprintln(cmd.ErrOrStderr(), "lazylint lsp:", err)
				return exitError{1}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.DurationVar(&debounce, "debounce", lsp.DefaultDebounce, "how long a document must stay unchanged before it is checked again")
	// Clients built on vscode-languageclient pass --stdio; stdio is the
	// only transport.
	f.BoolVar(&stdio, "stdio", true, "talk over stdin and stdout (the only transport)")
	_ = f.MarkHidden("debounce")
	_ = f.MarkHidden("stdio")
	return cmd
}

// stdioStream joins stdin and stdout into the server's stream.
type stdioStream struct {
	in  io.Reader
	out io.Writer
}

func (s *stdioStream) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s *stdioStream) Write(p []byte) (int, error) { return s.out.Write(p) }

// Close closes both sides when they can be closed (a blocked read of a
// terminal or pipe is not woken by it; the process exits anyway).
func (s *stdioStream) Close() error {
	var errs []error
	if c, ok := s.in.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	if c, ok := s.out.(io.Closer); ok {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
