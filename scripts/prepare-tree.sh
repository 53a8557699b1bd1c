#!/usr/bin/env bash
# prepare-tree.sh ARCH: make BUILD_DIR/ARCH/xen, a git repository whose first commit is the
# pristine Xen tree (Debian's 4.17 source, or $XEN_SRC), followed by one commit adding our new
# files (this repository's xen/ directory) and one commit per patch of patches/series.
#
# Re-preparing is incremental: the commits are rebuilt in a private index, then the work tree is
# moved to them with 'git reset --hard', which rewrites only the files whose content changed, so
# the next make rebuilds only what depends on them.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: prepare-tree.sh ARCH}
check_arch "$arch"
tree=$BUILD_DIR/$arch/xen

export GIT_AUTHOR_NAME="xen-dyntrace" GIT_AUTHOR_EMAIL="xen-dyntrace@localhost"
export GIT_COMMITTER_NAME="xen-dyntrace" GIT_COMMITTER_EMAIL="xen-dyntrace@localhost"
# Fixed dates: the same inputs give the same commit ids.
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
g() { git -C "$tree" -c core.autocrlf=false -c advice.detachedHead=false "$@"; }

if [ -n "${XEN_SRC:-}" ]; then
    src=$(cd "$XEN_SRC" && pwd)
    [ -f "$src/xen/Makefile" ] || die "XEN_SRC=$XEN_SRC does not look like a Xen tree"
    origin="XEN_SRC tree"
else
    src=$("$REPO_ROOT/scripts/fetch-xen-source.sh")
    origin="Debian source package xen $XEN_DEB_VERSION"
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

commit_index() { # message-file
    local t
    t=$(g write-tree)
    if [ "$t" != "$(g rev-parse "$head^{tree}")" ]; then
        head=$(g commit-tree "$t" -p "$head" -F "$1")
    fi
}

msg=$(mktemp)
trap 'rm -f "$msg" "$msg".*' EXIT

(
    cd "$REPO_ROOT"
    git ls-files -co --exclude-standard -- xen 2>/dev/null || find xen -type f
) | sort -u | while read -r f; do
    [ -f "$REPO_ROOT/$f" ] || continue
    mode=100644
    [ -x "$REPO_ROOT/$f" ] && mode=100755
    printf '%s %s\t%s\n' "$mode" "$(g hash-object -w "$REPO_ROOT/$f")" "$f"
done | g update-index --add --index-info
cat >"$msg" <<'MSG'
xen-dyntrace: add the tracer's new files

The hypervisor sources of xen-dyntrace that do not exist in Xen: see the
xen/ directory of the xen-dyntrace repository.
MSG
commit_index "$msg"

{ grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$REPO_ROOT/patches/series" || true; } |
    while read -r p _; do echo "$p"; done >"$msg.list"
while read -r p; do
    pf=$REPO_ROOT/patches/$p
    [ -f "$pf" ] || die "patches/series names $p, which does not exist"
    g apply --cached --whitespace=nowarn "$pf" || die "patch $p does not apply"
    # Commit message: the patch's Subject and body.
    (cd "$tree" && git mailinfo "$msg.body" "$msg.diff" <"$pf" >"$msg.info") || true
    { sed -n 's/^Subject: //p' "$msg.info"; echo; cat "$msg.body" 2>/dev/null; } >"$msg"
    [ -s "$msg" ] || echo "$p" >"$msg"
    commit_index "$msg"
done <"$msg.list"

unset GIT_INDEX_FILE
rm -f "$tree/.git/dyntrace-index"
if [ "$(g rev-parse HEAD)" != "$head" ] || [ -n "$(g status --porcelain --untracked-files=no)" ]; then
    log "moving $tree to $(g rev-parse --short "$head")"
    g reset -q --hard "$head"
fi
echo "$tree"
