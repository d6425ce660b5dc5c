#!/usr/bin/env bash
# The actions of lazylint.bzl. Runs in the action's working folder (the
# execution root); every path it is given is relative to it.
#
#   lazylint_action.sh summarize LAZYLINT -- SUMMARIZE-FLAGS... FILE
#   lazylint_action.sh check LAZYLINT TEXT TEXT_CODE SARIF SARIF_CODE PATCH -- CHECK-FLAGS... LISTS
#   lazylint_action.sh validate TEXT_CODE TEXT OK
#
# PATCH is "-" for none, else the file for the suggested fixes (--diff).
# LISTS is a file of lines context=PATH (a file of the project: the
# target's and its dependencies' sources, and the configuration),
# check=PATH (a file to check) and summaries=DIR (a summarize output).
set -euo pipefail

# lazylint looks an entry up in every --summaries folder in turn: with
# many folders and many files to check, one merged copy is faster. On 2,340
# folders (bench/README.md, "Bazel"): checking one file, 0.5 s with the
# folders and 0.4 s merged, plus 0.4-0.6 s to merge; checking 2,340 files,
# 22.2 s and 1.3 s. So: merge when both are large.
MERGE_FOLDERS=${LAZYLINT_MERGE_FOLDERS:-16}
MERGE_FILES=${LAZYLINT_MERGE_FILES:-32}

summarize() {
  local lazylint=$1
  shift 2 # LAZYLINT --
  local log
  log=$(mktemp "${TMPDIR:-/tmp}/lazylint-summarize.XXXXXX")
  # A file that cannot be summarized (unreadable, over the parse limits)
  # leaves its folder empty: the check reads it itself and reports why.
  if ! "$lazylint" summarize "$@" >/dev/null 2>"$log"; then
    cat "$log" >&2
  fi
  rm -f "$log"
}

check() {
  local lazylint=$1 text=$2 text_code=$3 sarif=$4 sarif_code=$5 patch=$6
  shift 7 # the six and --
  local flags=("${@:1:$#-1}") lists=${*: -1}
  local root=$PWD
  case $lazylint in /*) ;; *) lazylint=$root/$lazylint ;; esac
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/lazylint-check.XXXXXX") # global: the trap runs after return
  trap 'rm -rf "$scratch"' EXIT

  # The project folder: the listed files at their workspace paths, copied
  # (the execution root may hold symlinked folders, which lazylint does not
  # follow, or files that are not inputs).
  local checked=() summaries=() line
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
    context=*) printf '%s\0' "${line#context=}" ;;
    check=*) checked+=("${line#check=}") ;;
    summaries=*) summaries+=("$root/${line#summaries=}") ;;
    esac
  done <"$lists" >"$scratch/context"
  mkdir "$scratch/project"
  tar -chf - --null -T "$scratch/context" | tar -xf - -C "$scratch/project"

  local from=() dir
  if [ "${#summaries[@]}" -gt "$MERGE_FOLDERS" ] && [ "${#checked[@]}" -ge "$MERGE_FILES" ]; then
    # Entries are named by their content's key: the same name in two
    # folders is the same entry, and copying one over the other is safe.
    mkdir "$scratch/summaries"
    printf '%s/.\0' "${summaries[@]}" |
      xargs -0 sh -c 'exec cp -RL "$@" "$0"' "$scratch/summaries/"
    from=(--summaries "$scratch/summaries")
  else
    for dir in "${summaries[@]}"; do
      from+=(--summaries "$dir")
    done
  fi

  # Both reports come from one project step: the second run reads the
  # first one's results from the action's own cache.
  export LAZYLINT_CACHE_DIR="$scratch/cache"
  local code=0 sarif_status=0
  (cd "$scratch/project" && "$lazylint" check --no-progress --color never --project . \
    "${from[@]}" "${flags[@]}" --format text --output "$scratch/text" "${checked[@]}") \
    2>"$scratch/stderr" || code=$?
  (cd "$scratch/project" && "$lazylint" check --no-progress --color never --project . \
    "${from[@]}" "${flags[@]}" --format sarif --output "$scratch/sarif" "${checked[@]}") \
    2>/dev/null || sarif_status=$?
  if [ "$patch" != - ]; then
    # A unified diff with a/ and b/ before workspace paths: patch -p1 at
    # the workspace's root applies it. It exits 1 when there is one.
    (cd "$scratch/project" && "$lazylint" check --no-progress --color never --project . \
      "${from[@]}" "${flags[@]}" --diff "${checked[@]}") >"$root/$patch" 2>/dev/null || true
  fi
  if [ ! -f "$scratch/text" ] || [ ! -f "$scratch/sarif" ]; then
    echo "lazylint check wrote no report (exit $code):" >&2
    cat "$scratch/stderr" >&2
    exit 1
  fi

  # No absolute path leaves the action: the scratch folder is named in
  # messages on stderr and as SARIF's %SRCROOT%, whose URI the reader
  # supplies (a checkout's root) when the run does not.
  local project="$scratch/project/"
  {
    cat "$scratch/text"
    sed "s|${project//|/\\|}||g" "$scratch/stderr"
  } >"$root/$text"
  sed '/^      "originalUriBaseIds": {$/,/^      },$/d' "$scratch/sarif" >"$root/$sarif"
  if grep -q "$scratch" "$root/$sarif"; then
    echo "lazylint_action.sh: the SARIF report still names $scratch" >&2
    exit 1
  fi
  echo "$code" >"$root/$text_code"
  echo "$sarif_status" >"$root/$sarif_code"
}

validate() {
  local code
  code=$(cat "$1")
  if [ "$code" != 0 ]; then
    echo "lazylint exited $code:" >&2
    cat "$2" >&2
    exit 1
  fi
  : >"$3"
}

mode=$1
shift
case $mode in
summarize | check | validate) "$mode" "$@" ;;
*)
  echo "lazylint_action.sh: unknown mode $mode" >&2
  exit 2
  ;;
esac
