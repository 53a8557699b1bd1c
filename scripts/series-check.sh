#!/usr/bin/env bash
# series-check.sh: build XEN_BASE's series after every patch, for x86_64 and arm64 (ARCHES), with
# the configuration make check uses (defconfig + config/*.config; symbols a patch does not know
# yet are dropped by olddefconfig). Prints one line per patch and architecture, and fails when
# any build fails. Incremental: one work tree per architecture under BUILD_DIR/series-check/.
# CLANG=1: with clang, x86_64 only (in build/BASE-clang/).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

tree=$("$REPO_ROOT/scripts/prepare-tree.sh" x86_64)
mapfile -t commits < <(git -C "$tree" rev-list --reverse dyntrace-base..HEAD)
failed=0
for arch in ${ARCHES-x86_64 arm64}; do
    wt=$BUILD_DIR/series-check/$arch
    if [ ! -d "$wt/.git" ] && [ ! -f "$wt/.git" ]; then
        rm -rf "$wt"
        mkdir -p "$(dirname "$wt")"
        git -C "$tree" worktree add -q --detach "$wt" dyntrace-base
    fi
    makeargs=(-C "$wt/xen" XEN_TARGET_ARCH="$arch" PYTHON="$PYTHON")
    [ "$arch" = arm64 ] && makeargs+=(CROSS_COMPILE=aarch64-linux-gnu-)
    if [ "$CLANG" = 1 ]; then
        [ "$arch" = x86_64 ] || { log "CLANG=1: skipping $arch (the clang build is x86_64 only)"; continue; }
        makeargs+=(clang=y)
    fi
    i=0
    for c in "${commits[@]}"; do
        i=$((i + 1))
        git -C "$wt" checkout -q -f "$c"
        subject=$(git -C "$wt" log -1 --format=%s)
        cat "$REPO_ROOT/config/common.config" "$REPO_ROOT/config/$arch.config" >"$wt/fragments"
        start=$SECONDS
        if { make -s "${makeargs[@]}" KCONFIG_CONFIG="$wt/xen/.config.new" defconfig &&
             cat "$wt/fragments" >>"$wt/xen/.config.new" &&
             make -s "${makeargs[@]}" KCONFIG_CONFIG="$wt/xen/.config.new" olddefconfig &&
             { cmp -s "$wt/xen/.config.new" "$wt/xen/.config" ||
               cp "$wt/xen/.config.new" "$wt/xen/.config"; } &&
             make "${makeargs[@]}" -j"${JOBS:-$(nproc)}"; } >"$wt/build-$i.log" 2>&1; then
            tracer=$(grep -c '^CONFIG_LIVEPATCH_TRACER=y' "$wt/xen/.config" || true)
            printf 'ok   %s %2d/%d %-8s %4ss  %s%s\n' "$XEN_VARIANT" "$i" "${#commits[@]}" "$arch" \
                $((SECONDS - start)) "$subject" "$([ "$tracer" = 1 ] && echo "  [tracer on]")"
        else
            failed=1
            printf 'FAIL %s %2d/%d %-8s %4ss  %s (log: %s)\n' "$XEN_VARIANT" "$i" "${#commits[@]}" \
                "$arch" $((SECONDS - start)) "$subject" "$wt/build-$i.log"
            grep -E 'error' "$wt/build-$i.log" | head -5 >&2 || true
        fi
    done
done
exit $failed
