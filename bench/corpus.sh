#!/usr/bin/env bash
# Export the corpus of docs/accuracy.md (bench/corpus.tsv) and check it.
#
#   bench/corpus.sh export GITDIRS OUT [LIST]   write OUT/owner+name/ for
#       every project of LIST (default bench/corpus.tsv; lines of
#       owner/name, a tab and the commit): the files at the pinned commit whose endings lazylint
#       reads (C, C++, CUDA, the includable endings, Go). GITDIRS holds a git
#       directory per project, as GITDIRS/owner+name/repo or
#       GITDIRS/owner+name (a clone or a bare mirror holding the commit).
#       Blobs a snapshot lacks are skipped and counted, not fatal.
#   bench/corpus.sh check BINARY OUT TSV  check every project of OUT as its
#       own project, as a user checks a repository, and write one line per
#       finding (project, path:line, rule, message) to TSV, sorted.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
endings='\.(cu|cuh|cpp|cc|cxx|c|h|hpp|hh|hxx|inl|inc|impl|ipp|tcc|cuinl|cuinc|go)$'

export_corpus() {
	local gitdirs=$1 out=$2 list=${3:-$here/corpus.tsv}
	mkdir -p "$out"
	grep -v '^#' "$list" | while IFS=$'\t' read -r repo commit _; do
		local name=${repo/\//+} git
		git=$gitdirs/$name/repo
		[ -d "$git" ] || git=$gitdirs/$name
		local dest=$out/$name missing=0 n=0
		rm -rf "$dest" && mkdir -p "$dest"
		while IFS=$'\t' read -r meta path; do
			local blob=${meta##* }
			mkdir -p "$dest/$(dirname "$path")"
			if git -C "$git" cat-file blob "$blob" >"$dest/$path" 2>/dev/null; then
				n=$((n + 1))
			else
				rm -f "$dest/$path"
				missing=$((missing + 1))
			fi
		done < <(git -C "$git" ls-tree -r --full-tree "$commit" | grep -E "$endings" | grep -v '^120000' || true)
		echo "$repo $commit: $n files, $missing missing from the snapshot"
	done
}

check_corpus() {
	local bin out tsv
	bin=$(realpath "$1") out=$2 tsv=$3
	: >"$tsv.tmp"
	for dir in "$out"/*/; do
		local name
		name=$(basename "$dir")
		(cd "$dir" && "$bin" check --no-cache --no-config --exit-zero --format json .) |
			python3 -c '
import json, sys
name = sys.argv[1]
for f in json.load(sys.stdin).get("findings") or []:
    print("\t".join([name, "%s:%d" % (f["path"], f["line"]), f["rule"], f["message"]]))
' "$name" >>"$tsv.tmp"
	done
	LC_ALL=C sort "$tsv.tmp" >"$tsv" && rm "$tsv.tmp"
	wc -l <"$tsv"
}

case ${1:-} in
export) export_corpus "$2" "$3" "${4:-}" ;;
check) check_corpus "$2" "$3" "$4" ;;
*) sed -n '2,15p' "$0" >&2; exit 2 ;;
esac
