#!/usr/bin/env bash
# Step 1 of the GitHub Action (action.yml): where the lazylint binary and
# the cache of results live, and whether the version names one fixed build
# (a tag or a commit), whose binary can be cached.
#   in:  LAZYLINT_VERSION; HOME, GITHUB_OUTPUT (set by the runner)
#   out: bin-dir, cache-dir, pinned (true/false), version-key
set -euo pipefail
version="${LAZYLINT_VERSION:-latest}"
root="${LAZYLINT_ACTION_HOME:-$HOME/.lazylint-action}"
pinned=false
if [[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+].*)?$ || "$version" =~ ^[0-9a-f]{40}$ ]]; then
  pinned=true
fi
# The cache key may hold no slash or space: a path or branch becomes dashes.
key="$(printf '%s' "$version" | tr -c 'A-Za-z0-9._-' '-')"
{
  echo "bin-dir=$root/bin"
  echo "cache-dir=$root/cache"
  echo "pinned=$pinned"
  echo "version-key=$key"
} >>"$GITHUB_OUTPUT"
echo "lazylint $version: binary in $root/bin (cacheable: $pinned), results cache in $root/cache"
