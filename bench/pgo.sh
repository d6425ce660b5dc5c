#!/usr/bin/env bash
# Write cmd/lazylint/default.pgo, the CPU profile the Go toolchain builds
# lazylint with (profile-guided optimization: inlining and devirtualization
# of the hot calls; `go build` and `go install` use the main package's
# default.pgo by themselves). The profile is of cold checks of the given
# trees, each checked as one project, twice.
#
#   bench/pgo.sh TREE...
#
# Rebuild the binary first (a profile of old code still helps, less).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/lazylint" ./cmd/lazylint)
n=0
for tree in "$@"; do
	for _ in 1 2; do
		n=$((n + 1))
		(cd "$tree" && "$tmp/lazylint" check --no-cache --no-config --exit-zero --format json --cpuprofile "$tmp/$n.prof" . >/dev/null)
	done
done
go tool pprof -proto "$tmp"/*.prof >"$root/cmd/lazylint/default.pgo"
echo "cmd/lazylint/default.pgo: $n profiles of $# trees"
