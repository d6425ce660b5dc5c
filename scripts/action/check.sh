#!/usr/bin/env bash
# Step 3 of the GitHub Action (action.yml): lazylint check with a SARIF
# report. It always succeeds when lazylint ran, so that the report is
# uploaded; finish.sh then fails the job by the exit code it records.
#   in:  LAZYLINT_BIN_DIR, LAZYLINT_PATHS (space-separated), LAZYLINT_FAIL_ON
#        (info, warning, error or never), LAZYLINT_ARGS (space-separated),
#        LAZYLINT_SARIF, LAZYLINT_CACHE_DIR; GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
#   out: exit-code, sarif-file
set -euo pipefail
bin="${LAZYLINT_BIN_DIR:?LAZYLINT_BIN_DIR is not set}/lazylint"
sarif="${LAZYLINT_SARIF:-lazylint.sarif}"
read -r -a paths <<<"${LAZYLINT_PATHS:-.}"
read -r -a extra <<<"${LAZYLINT_ARGS:-}"
[[ ${#paths[@]} -gt 0 ]] || paths=(.)
case "${LAZYLINT_FAIL_ON:-warning}" in
  info | warning | error) fail=(--fail-on "${LAZYLINT_FAIL_ON:-warning}") ;;
  never) fail=(--exit-zero) ;;
  *)
    echo "::error title=lazylint::fail-on: want info, warning, error or never, not \"$LAZYLINT_FAIL_ON\"" >&2
    exit 2
    ;;
esac
export LAZYLINT_CACHE_DIR="${LAZYLINT_CACHE_DIR:-}"
[[ -n "$LAZYLINT_CACHE_DIR" ]] || unset LAZYLINT_CACHE_DIR
set +e
"$bin" check "${paths[@]}" --format sarif --output "$sarif" --statistics --no-progress "${fail[@]}" "${extra[@]}"
code=$?
set -e
echo "lazylint check exited $code"
{
  echo "exit-code=$code"
  if [[ -s "$sarif" ]]; then echo "sarif-file=$sarif"; fi
} >>"$GITHUB_OUTPUT"
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  "$bin" check "${paths[@]}" --format concise --no-progress --exit-zero "${extra[@]}" 2>/dev/null |
    { echo '### lazylint'; echo '```'; head -n 200; echo '```'; } >>"$GITHUB_STEP_SUMMARY" || true
fi
