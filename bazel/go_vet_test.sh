#!/usr/bin/env bash
# The test of go_vet.bzl, run from the test's runfiles folder:
#   go_vet_test.sh VETTOOL LAZYLINT MODULE EXPECT -- VET-FLAGS... -- PACKAGES...
# VETTOOL, LAZYLINT (may be empty) and MODULE are runfiles paths; EXPECT is
# the comma-separated rule IDs go vet must report, empty for none.
set -euo pipefail

vettool=$PWD/$1 lazylint=$2 module=$3 expect=$4
shift 5 # the four and --
flags=()
while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
  flags+=("$1")
  shift
done
shift
packages=("$@")

tmp=${TEST_TMPDIR:-$(mktemp -d)}
mkdir -p "$tmp/module"
cp -RL "$module/." "$tmp/module/"
export GOCACHE=${GOCACHE:-$tmp/gocache} GOPATH=${GOPATH:-$tmp/gopath} HOME=${HOME:-$tmp}
export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=1
if [ -n "$lazylint" ]; then
  "$PWD/$lazylint" cgo-headers "$tmp/cuda-stubs" >/dev/null 2>"$tmp/cgo-headers.err" ||
    { cat "$tmp/cgo-headers.err"; exit 1; }
  export CGO_CFLAGS="-I$tmp/cuda-stubs ${CGO_CFLAGS:-}"
fi

cd "$tmp/module"
status=0
out=$(go vet -vettool="$vettool" "${flags[@]}" "${packages[@]}" 2>&1) || status=$?
found=$(grep -oE '^[^ :]+\.go:[0-9]+:[0-9]+: LL[0-9]{3}' <<<"$out" | grep -oE 'LL[0-9]{3}$' | sort -u | paste -sd, - || true)
if [ "$found" != "$expect" ]; then
  echo "go vet reported rules [$found], expected [$expect] (exit $status):"
  echo "$out"
  exit 1
fi
if [ -z "$expect" ] && [ "$status" != 0 ]; then
  echo "go vet failed (exit $status):"
  echo "$out"
  exit 1
fi
echo "go vet: rules [$found], as expected"
