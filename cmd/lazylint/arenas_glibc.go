//go:build linux && cgo

package main

/*
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static int lazylint_bound_arenas(int n) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
	return mallopt(M_ARENA_MAX, n);
#else
	(void)n;
	return 0;
#endif
}
*/
import "C"

// boundMallocArenas caps glibc's malloc arenas at n. Tree-sitter parses
// in C memory, from whichever threads the workers' goroutines run on, and
// glibc gives threads arenas of their own up to eight per CPU, each
// keeping what it freed: eight copies of the 38-project corpus checked as
// one project peaked at 323-332 MB of RSS with the default, 313-315 with
// as many arenas as CPUs (two here) and 310-311 with one, which would
// make a many-core machine's workers queue on its lock (bench/README.md).
func boundMallocArenas(n int) { C.lazylint_bound_arenas(C.int(n)) }
