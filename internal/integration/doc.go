// Package integration holds end-to-end tests of lazylint's integrations with
// outside tools, such as the pre-commit hook defined in .pre-commit-hooks.yaml
// at the repository root. It has no non-test code.
package integration
