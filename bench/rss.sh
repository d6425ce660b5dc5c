#!/usr/bin/env bash
# Peak RSS of lazylint check against the size of the tree: generated
# corpora of growing size (same generator, same seed), no cache. Memory
# should stay flat: files are read, checked and dropped one by one.
#
#   bench/rss.sh [MB...]      # default: 19 38 75 150
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/lazylint" ./cmd/lazylint
go build -o "$work/gencorpus" ./bench/gencorpus
[[ $# -gt 0 ]] || set -- 19 38 75 150
echo "| corpus | files | parsed | wall | peak RSS |"
echo "| --- | --- | --- | --- | --- |"
for mb in "$@"; do
  rm -rf "$work/corpus"
  "$work/gencorpus" -out "$work/corpus" -mb "$mb" >/dev/null
  /usr/bin/time -f "%e %M" -o "$work/time" "$work/lazylint" check --no-cache --format json "$work/corpus" >"$work/out.json" 2>/dev/null || true
  read -r s kb < <(tail -n 1 "$work/time")
  python3 - "$work/out.json" "$mb" "$s" "$kb" <<'PY'
import json, sys
st = json.load(open(sys.argv[1]))["stats"]
print("| %s MB | %d | %d | %.2f s | %.0f MB |" % (sys.argv[2], st["files"], st["parsed"], float(sys.argv[3]), int(sys.argv[4]) / 1024))
PY
done
