#!/usr/bin/env bash
# Builds lazylint's release binaries with cgo (tree-sitter is C) and checks
# each with `lazylint version`.
#
#   scripts/release.sh                  # linux/amd64 and linux/arm64 into dist/
#   scripts/release.sh --host           # only this machine's platform (CI)
#   VERSION=0.2.0 scripts/release.sh    # override internal/version.Version
#   DIST=out scripts/release.sh         # another output folder
#
# A platform other than the host's needs a cross C compiler: for linux/arm64
# on Debian, `apt-get install gcc-aarch64-linux-gnu` (CC_linux_arm64 names
# another). When it is missing the script says so, skips that platform and
# exits 3 after building the others. A cross-built binary runs under
# qemu-aarch64 (Debian's qemu-user) when installed; otherwise `file` checks
# its architecture.
#
# Each binary is stripped (-s -w), built with -trimpath, and written with a
# SHA-256 line to dist/SHA256SUMS. The Go build cache is reused.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

DIST="${DIST:-dist}"
PLATFORMS=(linux/amd64 linux/arm64)
if [[ "${1:-}" == "--host" ]]; then
  PLATFORMS=("$(go env GOOS)/$(go env GOARCH)")
elif [[ $# -gt 0 ]]; then
  PLATFORMS=("$@")
fi

VERSION="${VERSION:-$(sed -n 's/^var Version = "\(.*\)"$/\1/p' internal/version/version.go)}"
if [[ -z "$VERSION" ]]; then
  echo "release.sh: cannot read the version from internal/version/version.go" >&2
  exit 2
fi
LDFLAGS="-s -w -X github.com/lazylint/lazylint/internal/version.Version=$VERSION"
HOST="$(go env GOOS)/$(go env GOARCH)"
mkdir -p "$DIST"
: >"$DIST/SHA256SUMS"

cross_cc() { # platform -> C compiler, or empty
  local p="$1" var="CC_${1//\//_}"
  if [[ -n "${!var:-}" ]]; then echo "${!var}"; return; fi
  case "$p" in
    "$HOST") echo "${CC:-cc}" ;;
    linux/arm64) echo aarch64-linux-gnu-gcc ;;
    linux/amd64) echo x86_64-linux-gnu-gcc ;;
  esac
}

missing=()
for p in "${PLATFORMS[@]}"; do
  goos="${p%/*}" goarch="${p#*/}"
  cc="$(cross_cc "$p")"
  if [[ -z "$cc" ]] || ! command -v "$cc" >/dev/null 2>&1; then
    echo "!!! $p: no C compiler '${cc:-?}' for cgo; skipped." >&2
    [[ "$p" == linux/arm64 ]] && echo "    On Debian/Ubuntu: apt-get install gcc-aarch64-linux-gnu (or set CC_linux_arm64)." >&2
    missing+=("$p")
    continue
  fi
  out="$DIST/lazylint_${VERSION}_${goos}_${goarch}"
  mkdir -p "$out"
  echo "==> $p (CC=$cc)"
  for cmd in lazylint lazylint-vet; do
    CGO_ENABLED=1 GOOS="$goos" GOARCH="$goarch" CC="$cc" \
      go build -trimpath -ldflags "$LDFLAGS" -o "$out/$cmd" "./cmd/$cmd"
  done
  cp README.md CHANGELOG.md "$out/"
  # Check: the binary runs and names the version.
  bin="$out/lazylint"
  if [[ "$p" == "$HOST" ]]; then
    line="$("$bin" version)"
  elif [[ "$goarch" == arm64 ]] && command -v qemu-aarch64 >/dev/null 2>&1 && [[ -d /usr/aarch64-linux-gnu ]]; then
    line="$(qemu-aarch64 -L /usr/aarch64-linux-gnu "$bin" version)"
  else
    line="$(file -b "$bin")"
    echo "    (cannot run $p here; file says: $line)"
    want="ARM aarch64"; [[ "$goarch" == amd64 ]] && want="x86-64"
    if [[ "$line" != *"$want"* ]]; then
      echo "!!! $bin is not a $p binary: $line" >&2
      exit 1
    fi
    line="lazylint $VERSION (not run)"
  fi
  echo "    $line"
  if [[ "$line" != "lazylint $VERSION"* ]]; then
    echo "!!! $bin version says '$line', want lazylint $VERSION" >&2
    exit 1
  fi
  (cd "$DIST" && sha256sum "${out#"$DIST"/}/lazylint" "${out#"$DIST"/}/lazylint-vet") >>"$DIST/SHA256SUMS"
done

echo "==> $DIST/SHA256SUMS"
cat "$DIST/SHA256SUMS"
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "!!! not built: ${missing[*]} (no cross C compiler; see above)" >&2
  exit 3
fi
