#!/usr/bin/env bash
# Time and peak RSS of lazylint check on one large generated .cu file
# (bench/genbigcu) against its size: what a parse costs per byte.
#
#   bench/bigfile.sh [MIB...]     # default: 1 2 4 8 16
#   LAZYLINT_FLAGS=" " bench/bigfile.sh 3.9 15.9    # the default limits
#   LAZYLINT_BIN=/tmp/old/lazylint bench/bigfile.sh  # another build
#
# Each size is checked with --no-cache and no parse limits (unless
# LAZYLINT_FLAGS says otherwise), so that the file is parsed whole. The
# generator ends the file at the first block past the size: "4" is a
# little over 4 MiB.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n "${LAZYLINT_BIN:-}" ]]; then
  cp "$LAZYLINT_BIN" "$work/lazylint"
else
  go build -o "$work/lazylint" ./cmd/lazylint
fi
go build -o "$work/genbigcu" ./bench/genbigcu
[[ $# -gt 0 ]] || set -- 1 2 4 8 16
flags=${LAZYLINT_FLAGS:---max-parse-mib 0 --parse-limit 10m}
echo "| file | wall | peak RSS | RSS / size | findings | errors |"
echo "| --- | --- | --- | --- | --- | --- |"
for mib in "$@"; do
  "$work/genbigcu" -out "$work/big.cu" -mib "$mib"
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "$work/time" "$work/lazylint" check --no-cache --no-progress --format json $flags "$work/big.cu" >"$work/out.json" 2>"$work/err" || true
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")
  kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
  python3 - "$work/out.json" "$work/big.cu" "$wall" "$kb" <<'PY'
import json, os, sys
size = os.path.getsize(sys.argv[2])
try:
    rep = json.load(open(sys.argv[1]))
    nf, ne = len(rep.get("findings") or []), len(rep.get("errors") or [])
except Exception:
    nf, ne = "?", "?"
w = sys.argv[3].split(":")
wall = float(w[-1]) + 60 * float(w[-2]) + (3600 * float(w[-3]) if len(w) > 2 else 0)
rss = int(sys.argv[4]) * 1024
print("| %.1f MiB | %.2f s | %.0f MB | %.1fx | %s | %s |" % (size / 2**20, wall, rss / 1e6, rss / size, nf, ne))
PY
done
