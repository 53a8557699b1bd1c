#!/usr/bin/env bash
# series.sh BASE: the entries of patches/series that apply to BASE, one per line:
#   NAME PATCH-FILE [NEW-FILE ...]
# patches/series line format (blank lines and '#' comments ignored):
#   NAME [only=BASE[,BASE...]] [: NEW-FILE ...]
# NAME is a file of patches/ in mail form (git format-patch); patches/BASE/NAME, when present,
# replaces it on BASE (the same change where that base's context differs). The NEW-FILEs, paths
# under xen/ of this repository, are added whole by that entry's commit.
set -euo pipefail
. "$(dirname "$0")/common.sh"

base=${1:?usage: series.sh BASE}
check_base "$base"
dir=$REPO_ROOT/patches
# (read without -r: a line ending in a backslash continues on the next.)
while read line; do
    line=${line%%#*}
    [ -n "${line// /}" ] || continue
    head=${line%%:*}
    files=""
    [ "$head" != "$line" ] && files=${line#*:}
    # shellcheck disable=SC2086
    set -- $head
    name=$1
    only=""
    [ "${2:-}" ] && case "$2" in only=*) only=${2#only=} ;; *) die "series: bad word '$2' in: $line" ;; esac
    if [ -n "$only" ] && ! echo ",$only," | grep -q ",$base,"; then
        continue
    fi
    pf=$dir/$name
    [ -f "$dir/$base/$name" ] && pf=$dir/$base/$name
    [ -f "$pf" ] || die "series names $name, which does not exist"
    # shellcheck disable=SC2086
    echo "$name $pf" $files
done <"$dir/series"
