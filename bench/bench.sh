#!/usr/bin/env bash
# End-to-end benchmark: lazylint check, bare tree-sitter parsing and ripgrep
# over the same files, with MB/s, files/s and peak RSS.
#
#   bench/bench.sh            # on a generated 40 MB corpus (deterministic)
#   bench/bench.sh DIR...     # on folders of your own
#
# Needs /usr/bin/time (GNU time) and, for the rg column, ripgrep.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/lazylint" ./cmd/lazylint
go build -o "$work/parsebench" ./bench/parsebench
go build -o "$work/gencorpus" ./bench/gencorpus

if [[ $# -eq 0 ]]; then
  "$work/gencorpus" -out "$work/corpus" -mb "${BENCH_MB:-40}" >/dev/null
  set -- "$work/corpus"
fi

# The files every tool sees: lazylint's file endings, .gitignore ignored.
find "$@" -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.cpp' -o -name '*.cc' -o -name '*.cxx' \
  -o -name '*.c' -o -name '*.h' -o -name '*.hpp' -o -name '*.hh' -o -name '*.hxx' -o -name '*.inl' \) -print0 >"$work/files"
files=$(tr -cd '\0' <"$work/files" | wc -c)
bytes=$(xargs -0 cat <"$work/files" | wc -c)
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "corpus: $* ($files files, $mb MB), $(nproc) cores"

measure() { # name command...: runs the command 3 times, reports the best
  local name=$1; shift
  local best="" rss=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" >/dev/null 2>&1 || true
    read -r s kb < <(tail -n 1 "$work/time")
    if [[ -z "$best" ]] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$s; rss=$kb; fi
  done
  awk -v n="$name" -v s="$best" -v kb="$rss" -v b="$bytes" -v f="$files" \
    'BEGIN { printf "| %s | %.2f s | %.1f MB/s | %.0f files/s | %.0f MB |\n", n, s, b / 1e6 / s, f / s, kb / 1024 }'
}

echo
echo "| tool | wall | throughput | files/s | peak RSS |"
echo "| --- | --- | --- | --- | --- |"
measure "lazylint check --no-cache" "$work/lazylint" check --no-cache --format json "$@"
measure "lazylint check -j 1 --no-cache" "$work/lazylint" check -j 1 --no-cache --format json "$@"
# Cold: an empty cache folder every run. Warm: the folder a first run filled.
measure "lazylint check, cold cache" sh -c 'rm -rf "$0/cache"; LAZYLINT_CACHE_DIR="$0/cache" "$0/lazylint" check --format json "$@"' "$work" "$@"
LAZYLINT_CACHE_DIR="$work/cache" "$work/lazylint" check --format json "$@" >/dev/null 2>&1 || true
measure "lazylint check, warm cache" env LAZYLINT_CACHE_DIR="$work/cache" "$work/lazylint" check --format json "$@"
measure "bare tree-sitter parse (all files)" "$work/parsebench" "$@"
if command -v rg >/dev/null; then
  measure "rg (same files)" sh -c "xargs -0 rg -c -e cudaMalloc -e MemGetInfo <'$work/files'"
fi
"$work/lazylint" check --no-cache --format json "$@" 2>/dev/null | python3 -c \
  'import json,sys; s=json.load(sys.stdin)["stats"]; print("\nlazylint parsed %d of %d files (the rest contain nothing any rule looks for)" % (s["parsed"], s["files"]))' || true
