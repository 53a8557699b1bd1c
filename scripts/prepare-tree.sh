#!/usr/bin/env bash
# prepare-tree.sh ARCH: make BUILD_DIR/ARCH/xen (BUILD_DIR is per XEN_BASE) a git repository whose
# first commit is the pristine Xen tree of XEN_BASE (tag dyntrace-base), followed by one commit per
# entry of patches/series: the entry's patch (edits to files Xen already has; patches/BASE/NAME
# replaces patches/NAME on that base) plus the new files the entry names, taken whole from this
# repository's xen/, docs/designs/ and tools/misc/ (the same paths in Xen's tree; not
# tools/misc/xen-dyntrace/GNUmakefile and xen-dyntrace.bash-completion, this repository's own build and
# packaging of the command). Every file
# there must belong to exactly one entry, so the
# commits hold every line of our hypervisor code; `make patches` is git format-patch of them.
# Our files are committed as unifdef resolves them at that entry: the symbols of the entries so
# far defined, the later ones undefined (define= in patches/series), so that an entry's additions
# to a file an earlier entry added are in its own commit. The last commit of series N is tagged
# dyntrace-series-N. A base-symbol of patches/series is defined on its bases only, for every
# entry: what an older base needs stays out of the staging series (scripts/lib/series.sh
# --stage-args gives unifdef's options). SERIES=N prepares the tree of the first N series only
# (its own build directory, BASE-seriesN).
# Author, e-mail and date of each commit are its patch's (From:, Date:), so commit ids are stable.
#
# Re-preparing is incremental: the commits are rebuilt in a private index, then the work tree is
# moved to them with 'git reset --hard', which rewrites only the files whose content changed, so
# the next make rebuilds only what depends on them.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: prepare-tree.sh ARCH}
check_arch "$arch"
tree=$BUILD_DIR/$arch/xen

g() { git -C "$tree" -c core.autocrlf=false -c advice.detachedHead=false "$@"; }

if [ -n "${XEN_SRC:-}" ]; then
    src=$(cd "$XEN_SRC" && pwd)
    [ -f "$src/xen/Makefile" ] || die "XEN_SRC=$XEN_SRC does not look like a Xen tree"
    origin="XEN_SRC tree"
else
    src=$("$REPO_ROOT/scripts/fetch-xen-source.sh")
    origin=${BASE_DESCRIPTION[$XEN_BASE]}
fi

# A tree prepared from another source is started afresh.
if [ -d "$tree/.git" ] && [ "$(cat "$tree/.git/dyntrace-origin" 2>/dev/null)" != "$src" ]; then
    log "$tree was prepared from another source: starting afresh"
    rm -rf "$tree"
fi

if [ ! -d "$tree/.git" ]; then
    log "importing the pristine tree ($origin) into $tree"
    rm -rf "$tree.tmp"
    mkdir -p "$tree.tmp"
    tar -C "$src" --exclude=.git --exclude=.unpacked -cf - . | tar -C "$tree.tmp" -xf -
    git -C "$tree.tmp" init -q -b dyntrace
    git -C "$tree.tmp" add -A -f
    GIT_AUTHOR_NAME="Xen upstream" GIT_AUTHOR_EMAIL=pristine@xen-dyntrace.invalid \
        GIT_COMMITTER_NAME="Xen upstream" GIT_COMMITTER_EMAIL=pristine@xen-dyntrace.invalid \
        GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
        git -C "$tree.tmp" commit -q -m "Pristine base: $origin"
    git -C "$tree.tmp" tag dyntrace-base
    echo "$src" >"$tree.tmp/.git/dyntrace-origin"
    mv "$tree.tmp" "$tree"
fi

# Build the commit chain in a private index.
export GIT_INDEX_FILE=$tree/.git/dyntrace-index
rm -f "$GIT_INDEX_FILE"
g read-tree dyntrace-base
head=$(g rev-parse dyntrace-base)

commit_index() { # message-file: commit the index, with the current patch's identity
    local t
    t=$(g write-tree)
    [ "$t" != "$(g rev-parse "$head^{tree}")" ] || die "series entry $p changes nothing on $XEN_BASE"
    head=$(GIT_AUTHOR_NAME=$a_name GIT_AUTHOR_EMAIL=$a_email GIT_AUTHOR_DATE=$a_date \
        GIT_COMMITTER_NAME=$a_name GIT_COMMITTER_EMAIL=$a_email GIT_COMMITTER_DATE=$a_date \
        g commit-tree "$t" -p "$head" -F "$1")
}

msg=$(mktemp)
trap 'rm -f "$msg" "$msg".*' EXIT

claimed=()
stage_args=()

# stage FILE: FILE of this repository as unifdef resolves it at the current entry (stage_args).
stage() {
    case "$1" in
    *.c | *.h | *.S) ;;
    *) cat "$REPO_ROOT/$1"; return ;;
    esac
    [ ${#stage_args[@]} -gt 0 ] || { cat "$REPO_ROOT/$1"; return; }
    # (A region taken out at the end leaves no blank line there.)
    { unifdef -x 2 -B "${stage_args[@]}" "$REPO_ROOT/$1" || die "unifdef failed on $1"; } |
        awk '{ l[NR] = $0 } END { n = NR; while (n > 0 && l[n] == "") n--; for (i = 1; i <= n; i++) print l[i] }'
}

# Our new files, each to be claimed by one series entry.
(
    cd "$REPO_ROOT"
    unset GIT_INDEX_FILE
    # tools/misc: the files git tracks (a build or install with O= or DESTDIR= there leaves
    # others, not ours to mail).
    { git ls-files -co --exclude-standard -- xen docs/designs && git ls-files -- tools/misc; } \
        2>/dev/null || find xen docs/designs tools/misc -type f
) | grep -vx -e 'tools/misc/xen-dyntrace/GNUmakefile' -e 'tools/misc/xen-dyntrace/xen-dyntrace.bash-completion' |
    sort -u >"$msg.unclaimed"

"$REPO_ROOT/scripts/lib/series.sh" "$XEN_BASE" >"$msg.list"
last_series=0
while read -r p pf series define files; do
    if [ "$series" != "$last_series" ]; then
        [ "$last_series" = 0 ] || g update-ref "refs/tags/dyntrace-series-$last_series" "$head"
        [ -n "${SERIES:-}" ] && [ "$series" -gt "$SERIES" ] && break
        last_series=$series
    fi
    read -r -a stage_args <<<"$("$REPO_ROOT/scripts/lib/series.sh" --stage-args "$XEN_BASE" "$p")"
    # Commit message and identity: the patch's Subject, body, From: and Date:.
    (cd "$tree" && git mailinfo "$msg.body" "$msg.diff" <"$pf" >"$msg.info") ||
        die "$pf is not a patch in mail form"
    a_name=$(sed -n 's/^Author: //p' "$msg.info")
    a_email=$(sed -n 's/^Email: //p' "$msg.info")
    a_date=$(sed -n 's/^Date: //p' "$msg.info")
    [ -n "$a_name" ] && [ -n "$a_email" ] && [ -n "$a_date" ] || die "$pf lacks From: or Date:"
    { sed -n 's/^Subject: //p' "$msg.info"; echo; cat "$msg.body"; } >"$msg"
    if [ -s "$msg.diff" ]; then
        g apply --cached --whitespace=nowarn "$pf" || die "patch $p does not apply on $XEN_BASE"
    fi
    for f in $files; do
        grep -qxF "$f" "$msg.unclaimed" || die "series: $f (in $p) is not an unclaimed file of xen/, docs/designs/ or tools/misc/"
        sed -i "\#^$f\$#d" "$msg.unclaimed"
        claimed+=("$f")
    done
    # Every file added so far, as it stands at this entry (an earlier entry's file changes only
    # where this entry's symbol says).
    for f in "${claimed[@]}"; do
        mode=100644
        [ -x "$REPO_ROOT/$f" ] && mode=100755
        obj=$(stage "$f" | g hash-object -w --stdin)
        [ "$(g ls-files -s -- "$f" | cut -d' ' -f2)" = "$obj" ] && continue
        printf '%s %s\t%s\n' "$mode" "$obj" "$f" | g update-index --add --index-info
    done
    commit_index "$msg"
done <"$msg.list"
[ "$last_series" = 0 ] || g update-ref "refs/tags/dyntrace-series-$last_series" "$head"
[ -n "${SERIES:-}" ] || [ ! -s "$msg.unclaimed" ] ||
    die "files of ours in no series entry: $(head -5 "$msg.unclaimed" | tr '\n' ' ')"

unset GIT_INDEX_FILE
rm -f "$tree/.git/dyntrace-index"
if [ "$(g rev-parse HEAD)" != "$head" ] || [ -n "$(g status --porcelain --untracked-files=no)" ]; then
    log "moving $tree to $(g rev-parse --short "$head")"
    g reset -q --hard "$head"
fi
echo "$tree"
