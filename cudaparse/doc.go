// Package cudaparse builds the facts rules read from one parsed file:
// functions, calls, launches, kernels and their instantiations, loops,
// clocks and timed regions, def-use, device code, and the file's summary
// for the project step. Parsing itself (lexer, pre-pass, tree-sitter) is
// package syntax; what CUDA's APIs and libraries are is package
// knowledge; linking the summaries of a project is package link.
package cudaparse
