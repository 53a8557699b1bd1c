#!/usr/bin/env bash
# patches.sh [check]: the patch series of XEN_BASE as it would be mailed: git format-patch of the
# prepared tree's commits (every line of our hypervisor code is in one of them), with the cover
# letter of patches/cover-letter.txt, written to build/patches-out/BASE/. With "check", also
# apply the written series with git am onto the pristine tree and require the result to be
# exactly the prepared tree.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

tree=$("$REPO_ROOT/scripts/prepare-tree.sh" x86_64)
out=$BUILD_ROOT/patches-out/$XEN_BASE
rm -rf "$out"
mkdir -p "$out"
git -C "$tree" format-patch -q --cover-letter --thread=shallow --no-signature \
    --subject-prefix="PATCH" -o "$out" dyntrace-base..HEAD
cover=$(ls "$out"/0000-cover-letter.patch)

# The cover letter: our subject and text in place of format-patch's placeholders, and the base.
python3 - "$cover" "$REPO_ROOT/patches/cover-letter.txt" "$XEN_BASE" "${BASE_DESCRIPTION[$XEN_BASE]}" <<'PY'
import sys
cover, text, base, desc = sys.argv[1:]
subject, _, blurb = open(text).read().partition('\n\n')
s = open(cover).read()
s = s.replace('*** SUBJECT HERE ***', subject.strip())
blurb = blurb.rstrip('\n') + '\n\nThis series is against %s (%s).\n' % (base, desc)
s = s.replace('*** BLURB HERE ***', blurb)
open(cover, 'w').write(s)
PY

if [ "${1:-}" = check ]; then
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    git -C "$tree" worktree add -q --detach "$scratch/am" dyntrace-base
    mapfile -t series < <(ls "$out"/*.patch | grep -v '/0000-cover-letter.patch$')
    git -C "$scratch/am" -c user.name=check -c user.email=check@invalid am -q "${series[@]}"
    got=$(git -C "$scratch/am" rev-parse 'HEAD^{tree}')
    want=$(git -C "$tree" rev-parse 'HEAD^{tree}')
    git -C "$tree" worktree remove --force "$scratch/am"
    [ "$got" = "$want" ] || die "git am of the series gives tree $got, the prepared tree is $want"
    log "$XEN_BASE: the $(ls "$out" | grep -vc 0000-cover-letter) patches apply with git am and give the prepared tree"
fi
ls "$out"
