#!/usr/bin/env bash
# lazylint under Bazel against lazylint check, on a generated monorepo
# (bench/genmonorepo; bench/README.md, "Bazel"):
#   bench/bazel.sh [GROUPS]        (default 334 groups: 2,007 targets)
# Needs bazel on PATH (Debian's bazel-bootstrap) and GNU time. Leaves its
# folder (WORK, default a new one under /tmp) for a look; prints it.
set -euo pipefail

groups=${1:-334}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${WORK:-$(mktemp -d /tmp/lazylint-bazel.XXXXXX)}
echo "work folder: $work"
# lazylint as committed (REV, default HEAD), not the working tree.
rev=$(git -C "$repo" rev-parse --short "${REV:-HEAD}")
mkdir -p "$work/src"
git -C "$repo" archive "$rev" | tar -x -C "$work/src"
(cd "$work/src" && go build -o "$work/bin/lazylint" ./cmd/lazylint && go build -o "$work/bin/genmonorepo" ./bench/genmonorepo)
echo "lazylint $rev"
for tree in a b; do # b: a second checkout, in another folder
  "$work/bin/genmonorepo" -o "$work/$tree" -groups "$groups" -umbrella \
    -rules "$repo/bazel" -lazylint "$work/bin/lazylint"
done

aspect=(--aspects=//tools/lint:linters.bzl%lazylint --output_groups=rules_lint_human,rules_lint_machine)
bazel_in() { # bazel_in TREE ARGS...: one output base per checkout, one disk cache for both
  local tree=$1
  shift
  (cd "$work/$tree" && bazel --output_user_root="$work/bazel-root" "$@")
}
timed_build() { # timed_build LABEL TREE: prints wall time and what ran
  local label=$1 tree=$2 base="$work/run-${1//[^a-z]/-}"
  local log=$base.log exec=$base.exec.json
  /usr/bin/time -f "%e" -o "$base.time" \
    bash -c "cd '$work/$tree' && bazel --output_user_root='$work/bazel-root' build //... ${aspect[*]} \
      --disk_cache='$work/disk-cache' --execution_log_json_file='$exec' $strategy --color=no --curses=no" >"$log" 2>&1
  printf '%-24s %7ss  summarize %5s, check %5s (spawns; from the disk cache: %s)  %s\n' "$label" "$(cat "$base.time")" \
    "$(grep -c '"mnemonic": "LazylintSummarize"' "$exec")" "$(grep -c '"mnemonic": "LazylintCheck"' "$exec")" \
    "$(grep -c '"remoteCacheHit": true' "$exec")" "$(grep -E '^INFO: [0-9,]+ process' "$log" | tail -1)"
}

# Debian's linux-sandbox prints debugging lines for every action; the
# process-wrapper sandbox gives the actions the same inputs, quietly.
strategy=${STRATEGY:---spawn_strategy=processwrapper-sandbox}
echo "$(bazel_in a info release 2>/dev/null); load: $(cut -d' ' -f1-3 /proc/loadavg)"

# Server start, package loading and the aspect's analysis first, then the
# build proper.
for tree in a b; do
  /usr/bin/time -f "%e" -o "$work/analysis-$tree.time" bash -c "cd '$work/$tree' && bazel --output_user_root='$work/bazel-root' \
    build --nobuild //... ${aspect[*]} --disk_cache='$work/disk-cache' $strategy --color=no --curses=no" >/dev/null 2>&1
  echo "loading and analysis ($tree): $(cat "$work/analysis-$tree.time")s"
done
timed_build cold a
timed_build "no change" a
echo "// edited" >>"$work/a/pkgs/g0100/kern/scale.cu"
timed_build "edit kern/scale.cu" a
echo "// edited" >>"$work/a/util/clock/clock.h"
timed_build "edit util/clock/clock.h" a
timed_build "second checkout" b

# lazylint check of the same tree (the second checkout, unedited): three
# cold runs (empty cache), three warm ones. It exits 1: findings.
for run in cold cold cold warm warm warm; do
  if [ "$run" = cold ]; then rm -rf "$work/lazylint-cache"; fi
  (cd "$work/b" && LAZYLINT_CACHE_DIR="$work/lazylint-cache" /usr/bin/time -f "%e s wall, %U s user, %M KB peak RSS" \
    "$work/bin/lazylint" check --no-config --no-progress --format json -o "$work/check-$run.json" pkgs util gpu all) \
    2>&1 | tail -1 | sed "s/^/lazylint check $run: /" || true
done

# Findings: each target's SARIF (the second checkout's, from the disk
# cache) against lazylint check's JSON.
bazel_findings=$(find -L "$work/b/bazel-bin/" -name '*.AspectRulesLintLazylint.report' -exec grep -c '"ruleId"' {} + |
  awk -F: '{n += $NF} END {print n}')
echo "findings: bazel $bazel_findings, lazylint check $(grep -c '"rule": "LL' "$work/check-warm.json")"
for tree in a b; do bazel_in "$tree" shutdown; done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
