#!/usr/bin/env bash
# Compare lazylint binaries on one tree, their runs alternated so that a
# shared machine's load falls on all of them alike: the whole tree as one
# project, no cache (5 runs: wall, user and sys CPU, peak RSS); each
# top-level folder checked on its own (2 series: the sum of walls); and a
# warm cache (3 runs, after one run that fills it).
#
#   bench/compare.sh TREE BINARY...
#
# Needs GNU time (/usr/bin/time) and bc. Build the binaries to compare
# from their commits first (git worktree add --detach DIR COMMIT; go build).
set -euo pipefail
tree=$1
shift
bins=()
for b in "$@"; do bins+=("$(realpath "$b")"); done
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
cd "$tree"
name() { basename "$1"; }
for _ in 1 2 3 4 5; do
	for b in "${bins[@]}"; do
		/usr/bin/time -f "cold $(name "$b") wall %e s, user %U s, sys %S s, peak RSS %M KB" \
			"$b" check --no-cache --no-config --exit-zero --format json . 2>&1 >/dev/null | tail -n 1
	done
done
for _ in 1 2; do
	for b in "${bins[@]}"; do
		start=$(date +%s.%N)
		for p in */; do "$b" check --no-cache --no-config --exit-zero --format json "$p" >/dev/null 2>&1; done
		echo "per-folder $(name "$b") sum of walls $(echo "$(date +%s.%N) - $start" | bc) s"
	done
done
for b in "${bins[@]}"; do
	LAZYLINT_CACHE_DIR="$cache/$(name "$b")" "$b" check --no-config --exit-zero --format json . >/dev/null 2>&1
done
for _ in 1 2 3; do
	for b in "${bins[@]}"; do
		LAZYLINT_CACHE_DIR="$cache/$(name "$b")" /usr/bin/time -f "warm $(name "$b") wall %e s, user %U s, peak RSS %M KB" \
			"$b" check --no-config --exit-zero --format json . 2>&1 >/dev/null | tail -n 1
	done
done
