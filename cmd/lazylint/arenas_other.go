//go:build !linux || !cgo

package main

// boundMallocArenas does nothing where the C library is not known to be
// glibc (arenas_glibc.go).
func boundMallocArenas(int) {}
