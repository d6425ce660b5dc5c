// Package bazel holds the end-to-end test of lazylint's Bazel integration,
// the Starlark files beside it (lazylint.bzl, go_vet.bzl; README.md). It
// has no non-test Go code.
package bazel
