#!/usr/bin/env bash
# Step 5 of the GitHub Action (action.yml), after the SARIF upload: fail
# the job by lazylint check's exit code (0 clean or below fail-on, 1
# findings at or above fail-on, 2 a usage error or a file that could not be
# read or parsed).
#   in: LAZYLINT_EXIT_CODE
set -euo pipefail
code="${LAZYLINT_EXIT_CODE:-}"
case "$code" in
  0) echo "lazylint: no findings at or above fail-on" ;;
  1) echo "::error title=lazylint::findings at or above fail-on (see the code scanning alerts or the step summary)" ;;
  "") echo "::error title=lazylint::lazylint check did not run"; code=2 ;;
  *) echo "::error title=lazylint::lazylint check exited $code (a usage error, or a file it could not read or parse: see the check step's log)" ;;
esac
exit "$code"
