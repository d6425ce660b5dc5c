#!/usr/bin/env bash
# How a check's cost grows with the tree: a corpus replicated N times
# (hard links, so no disk is used) checked as one project, no cache. Time
# should grow with N, peak RSS as little as possible.
#
#   bench/scale.sh CORPUS [N...]             # default N: 1 2 4 8
#   LAZYLINT=path/to/binary bench/scale.sh CORPUS 1 2
#
# Prints: copies, files, findings, wall, user+sys CPU, peak RSS. The CPU
# time is the figure to compare on a shared machine: wall time there
# depends on what else runs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
corpus=$(cd "$1" && pwd)
shift
[[ $# -gt 0 ]] || set -- 1 2 4 8
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${LAZYLINT:-}
if [[ -z "$bin" ]]; then
  bin="$work/lazylint"
  go build -o "$bin" ./cmd/lazylint
fi
echo "| copies | files | findings | wall | CPU (user+sys) | peak RSS |"
echo "| --- | --- | --- | --- | --- | --- |"
for n in "$@"; do
  tree="$work/x$n"
  mkdir -p "$tree"
  for k in $(seq 1 "$n"); do cp -al "$corpus" "$tree/c$k"; done
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" check --no-cache --no-config --exit-zero --format json "$tree" >"$work/out.json" 2>/dev/null
  read -r wall user sys kb < <(tail -n 1 "$work/time")
  python3 - "$work/out.json" "$n" "$wall" "$user" "$sys" "$kb" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, wall, user, sys_, kb = sys.argv[2:]
print("| %s | %d | %d | %.1f s | %.1f s | %.0f MB |" % (n, d["stats"]["files"], len(d["findings"]), float(wall), float(user) + float(sys_), int(kb) / 1024))
PY
  rm -rf "$tree"
done
