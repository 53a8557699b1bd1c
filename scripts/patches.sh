#!/usr/bin/env bash
# patches.sh [check]: the patch series of XEN_BASE as they would be mailed, in mailing order: for
# each series N of patches/series, git format-patch of the prepared tree's commits of that series
# (every line of our hypervisor code is in one of them), with its cover letter (the text of the
# series' COVER-LETTER file, its size and its base), written to build/patches-out/BASE/N/. Prints
# the list of series and patches with the lines each adds and removes. With "check", also apply
# the written series with git am, one after the other, onto the pristine tree and require each
# result to be exactly the prepared tree at that series' end (tag dyntrace-series-N), and Xen's
# tools build to make the dom0 command the last series adds (scripts/build-tool-in-tree.sh).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

tree=$("$REPO_ROOT/scripts/prepare-tree.sh" x86_64)
out=$BUILD_ROOT/patches-out/$XEN_VARIANT
rm -rf "$out"
mkdir -p "$out"
# The RFC this answers: "[RFC 0/5] Introduce dynamic tracer using Livepatch", 1,478 lines added.
rfc_lines=1478
mapfile -t covers < <(sed 's/#.*//' "$REPO_ROOT/patches/series" | awk '$1 == "series" { print $2, $3 }')
prev=dyntrace-base
for sc in "${covers[@]}"; do
    read -r n cover_text <<<"$sc"
    git -C "$tree" rev-parse -q --verify "refs/tags/dyntrace-series-$n" >/dev/null || break
    range=$prev..dyntrace-series-$n
    mkdir -p "$out/$n"
    git -C "$tree" format-patch -q --cover-letter --thread=shallow --no-signature \
        --subject-prefix="PATCH" -o "$out/$n" "$range"
    added=$(git -C "$tree" diff --numstat "$range" | awk '{ a += $1 } END { print a + 0 }')
    xen_added=$(git -C "$tree" diff --numstat "$range" -- xen | awk '{ a += $1 } END { print a + 0 }')
    size="This series adds $added lines, $xen_added of them to the hypervisor (xen/)"
    [ "$n" != 1 ] || size="$size; the RFC added $rfc_lines"
    # The cover letter: our subject and text in place of format-patch's placeholders, the size
    # and the base.
    "$PYTHON" - "$out/$n/0000-cover-letter.patch" "$REPO_ROOT/patches/$cover_text" "$XEN_BASE" \
        "${BASE_DESCRIPTION[$XEN_BASE]}" "$size" <<'PY'
import sys
cover, text, base, desc, size = sys.argv[1:]
subject, _, blurb = open(text).read().partition('\n\n')
s = open(cover).read()
s = s.replace('*** SUBJECT HERE ***', subject.strip())
blurb = blurb.rstrip('\n') + '\n\n%s.\n\nThis series is against %s (%s).\n' % (size, base, desc)
s = s.replace('*** BLURB HERE ***', blurb)
open(cover, 'w').write(s)
PY
    echo "series $n: $(sed -n 's/^Subject: //p' "$out/$n/0000-cover-letter.patch" | head -1)"
    echo "  $size"
    git -C "$tree" log --reverse --format='%H %s' "$range" | while read -r c subject; do
        printf '  %5s+ %5s-  %s\n' $(git -C "$tree" diff --numstat "$c^" "$c" |
            awk '{ a += $1; d += $2 } END { print a + 0, d + 0 }') "$subject"
    done
    prev=dyntrace-series-$n
done

if [ "${1:-}" = check ]; then
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    git -C "$tree" worktree add -q --detach "$scratch/am" dyntrace-base
    for d in "$out"/*/; do
        n=$(basename "$d")
        mapfile -t series < <(ls "$d"*.patch | grep -v '/0000-cover-letter.patch$')
        git -C "$scratch/am" -c user.name=check -c user.email=check@invalid am -q "${series[@]}"
        got=$(git -C "$scratch/am" rev-parse 'HEAD^{tree}')
        want=$(git -C "$tree" rev-parse "dyntrace-series-$n^{tree}")
        [ "$got" = "$want" ] || {
            git -C "$tree" worktree remove --force "$scratch/am"
            die "git am of series $n gives tree $got, the prepared tree has $want"
        }
        log "$XEN_VARIANT: series $n's ${#series[@]} patches apply with git am and give the prepared tree"
    done
    # The last series puts the dom0 command in Xen's tools: Xen's tools build must make it.
    if [ -f "$scratch/am/tools/misc/xen-dyntrace/Makefile" ]; then
        "$REPO_ROOT/scripts/build-tool-in-tree.sh" "$scratch/am" >/dev/null
        log "$XEN_VARIANT: Xen's tools build makes tools/misc/xen-dyntrace (against the tree's libxenhypfs)"
    fi
    git -C "$tree" worktree remove --force "$scratch/am"
    [ "$(git -C "$tree" rev-parse "HEAD^{tree}")" = "$want" ] ||
        die "the prepared tree's last commit is not the last series' end"
fi
