#!/usr/bin/env bash
# series.sh BASE: the entries of patches/series that apply to BASE, one per line:
#   NAME PATCH-FILE SERIES DEFINE [NEW-FILE ...]
# SERIES is the number of the mailed series the entry belongs to; DEFINE the symbol the entry
# turns on in our new files, or "-" (see below).
# patches/series line format (blank lines and '#' comments ignored):
#   series N COVER-LETTER           the entries that follow form series N, mailed with
#                                   patches/COVER-LETTER (N = 1, 2, ... in order)
#   NAME [only=BASE[,BASE...]] [define=SYMBOL] [: NEW-FILE ...]
#   base-symbol SYMBOL BASE[,BASE...]
#                                   SYMBOL is defined on those bases only, from the first entry:
#                                   our files keep what an older base needs apart from the code
#                                   the staging series mails (e.g. sort()'s older callback)
# NAME is a file of patches/ in mail form (git format-patch); patches/BASE/NAME, when present,
# replaces it on BASE (the same change where that base's context differs). The NEW-FILEs, paths
# under xen/ and docs/designs/ of this repository (the same paths in Xen's tree), are added whole
# by that entry's commit.
# define=SYMBOL: our new files hold the entry's additions to files an earlier entry added between
# '#ifdef SYMBOL' and its '#endif' (what it replaces in the '#else' branch); the
# prepared tree has them resolved by unifdef, entry by entry, so the entry's commit shows them as
# its diff and no symbol reaches Xen (scripts/prepare-tree.sh).
# series.sh --defines: every define= SYMBOL of patches/series, as -D options (for host builds of
# the files, which are the whole series, as staging has it: no base-symbol).
# series.sh --stage-args BASE NAME: unifdef's options for our files as entry NAME commits them on
# BASE: -D for the define= symbols of NAME and the entries before it, -U for the later ones, and
# each base-symbol, -D where BASE is among its bases, else -U (scripts/prepare-tree.sh, and
# tests/host/test-series-stages, which passes staging).
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir=$REPO_ROOT/patches
if [ "${1:-}" = --defines ]; then
    sed 's/#.*//' "$dir/series" | grep -o 'define=[A-Za-z0-9_]*' | sed 's/^define=/-D/' | tr '\n' ' '
    echo
    exit 0
fi
if [ "${1:-}" = --stage-args ]; then
    check_base "${2:?usage: series.sh --stage-args BASE NAME}"
    grep -q "^${3:?usage: series.sh --stage-args BASE NAME}\b" "$dir/series" ||
        die "series: no entry $3"
    sed 's/#.*//' "$dir/series" | awk -v base="$2" -v name="$3" '
        $1 == "base-symbol" {
            n = split($3, b, ","); d = 0
            for (i = 1; i <= n; i++) if (b[i] == base) d = 1
            printf "%s%s ", d ? "-D" : "-U", $2
            next }
        $1 ~ /^[0-9][0-9][0-9][0-9]-/ { entry = $1 }
        /define=/ { match($0, /define=[A-Za-z0-9_]*/)
                    printf "%s%s ", past ? "-U" : "-D", substr($0, RSTART + 7, RLENGTH - 7) }
        $1 == name { past = 1 }'
    echo
    exit 0
fi
base=${1:?usage: series.sh BASE | --defines | --stage-args BASE NAME}
check_base "$base"
series=0
# (read without -r: a line ending in a backslash continues on the next.)
while read line; do
    line=${line%%#*}
    [ -n "${line// /}" ] || continue
    head=${line%%:*}
    files=""
    [ "$head" != "$line" ] && files=${line#*:}
    # shellcheck disable=SC2086
    set -- $head
    [ "$1" != base-symbol ] || continue
    if [ "$1" = series ]; then
        [ "${2:-}" = $((series + 1)) ] && [ -f "$dir/${3:-}" ] ||
            die "series: bad line (want 'series $((series + 1)) COVER-LETTER'): $line"
        series=$2
        continue
    fi
    [ "$series" -gt 0 ] || die "series: $1 comes before the first 'series 1 ...' line"
    name=$1
    shift
    only="" define=-
    for w in "$@"; do
        case "$w" in
        only=*) only=${w#only=} ;;
        define=*) define=${w#define=} ;;
        *) die "series: bad word '$w' in: $line" ;;
        esac
    done
    if [ -n "$only" ] && ! echo ",$only," | grep -q ",$base,"; then
        continue
    fi
    pf=$dir/$name
    [ -f "$dir/$base/$name" ] && pf=$dir/$base/$name
    [ -f "$pf" ] || die "series names $name, which does not exist"
    # shellcheck disable=SC2086
    echo "$name $pf $series $define" $files
done <"$dir/series"
