// Package syntax turns a C, C++ or CUDA file's text into a syntax tree:
// the lexer every scan of the project shares (Lex, WithTokens, the Skip
// helpers), the offset-preserving pre-pass that neutralizes CUDA syntax
// for the C++ grammar (Neutralize; what it rewrote is in Rewrites), and
// tree-sitter, parsed and flattened into RawNodes in one cgo call
// (TreeParser). It knows no CUDA API and no rule: the facts of a file
// are package cudaparse's, built over this tree.
package syntax
