#!/usr/bin/env bash
# Step 2 of the GitHub Action (action.yml): install lazylint with go install
# (it needs Go and a C compiler: cgo builds tree-sitter's grammar, 30 s to
# 3 min cold), unless the binary cache step restored this pinned version.
#   in:  LAZYLINT_VERSION (a tag, a commit, latest, a branch, or the path of
#        a lazylint checkout), LAZYLINT_BIN_DIR, LAZYLINT_PINNED;
#        GITHUB_OUTPUT, GITHUB_PATH (set by the runner)
#   out: binary-hash (keys the results cache: another binary's entries are
#        never used), version; LAZYLINT_BIN_DIR on PATH
set -euo pipefail
version="${LAZYLINT_VERSION:-latest}"
bin_dir="${LAZYLINT_BIN_DIR:?LAZYLINT_BIN_DIR is not set}"
bin="$bin_dir/lazylint"
mkdir -p "$bin_dir"
if [[ -d "$version" ]]; then
  echo "building lazylint from the checkout $version"
  (cd "$version" && GOBIN="$bin_dir" go install ./cmd/lazylint)
elif [[ "${LAZYLINT_PINNED:-false}" == true && -x "$bin" ]]; then
  echo "using the cached $bin for $version"
else
  if ! command -v go >/dev/null 2>&1; then
    echo "::error title=lazylint::go is not on PATH: installing lazylint needs Go 1.26 (input go-version) and a C compiler" >&2
    exit 2
  fi
  echo "go install github.com/lazylint/lazylint/cmd/lazylint@$version"
  GOBIN="$bin_dir" go install "github.com/lazylint/lazylint/cmd/lazylint@$version"
fi
"$bin" version
hash="$(sha256sum "$bin" | cut -c1-16)"
{
  echo "binary-hash=$hash"
  echo "version=$("$bin" version | awk '{print $2}')"
} >>"$GITHUB_OUTPUT"
echo "$bin_dir" >>"$GITHUB_PATH"
