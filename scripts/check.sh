#!/usr/bin/env bash
# check.sh: everything `make check` runs. Installs what is missing, runs the host tests, then for
# each Xen base of tests/suites (4.20, 4.17, staging): checks that `make patches` output applies
# with git am onto the pristine tree, builds Xen and the dom0 image for each architecture and runs
# that base's dom0 suites (one boot per suite). Ends with one line "N passed, N failed, N skipped"
# over all of it; exits non-zero on any failure or missing result. A base whose source is not at
# hand (4.20 and staging need XEN_TARBALL or XEN_SRC) is reported as skipped, with what to pass.
# BASES, ARCHES and SUITES (space-separated) narrow it.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$REPO_ROOT/scripts/lib/tap.sh"

results=$RESULTS_DIR
rm -rf "$results"
mkdir -p "$results"
started=$SECONDS
stage() { log "== $* ($((SECONDS - started))s)"; }
wanted() { [ -z "$1" ] || echo " $1 " | grep -q " $2 "; }

stage "host packages"
"$REPO_ROOT/scripts/install-host-deps.sh"

# Host tests: each tests/host/test-* prints TAP for its own checks.
if wanted "${SUITES:-}" host; then
    stage "host tests"
    for t in "$REPO_ROOT"/tests/host/test-*; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        name=${name%.*}
        if "$t" >"$results/host-$name.out" 2>&1; then rc=0; else rc=$?; fi
        {
            echo "# host $name (exit $rc)"
            sed -nE "s#^(not ok|ok) [0-9]+ - #\1 host/$name/#p" "$results/host-$name.out"
            if [ "$rc" -ne 0 ] && ! grep -q '^not ok' "$results/host-$name.out"; then
                echo "not ok host/$name: exited $rc"
            fi
        } >"$results/host-$name.tap"
        grep -E '^(not )?ok' "$results/host-$name.tap" || true
    done
fi

grep -v -e '^#' -e '^[[:space:]]*$' "$REPO_ROOT/tests/suites" >"$results/.suites"
for base in $ALL_BASES; do
    wanted "${BASES:-}" "$base" || continue
    if ! XEN_BASE=$base base_available "$base"; then
        echo "ok $base # SKIP no $base source at hand: pass XEN_TARBALL=<${BASE_DESCRIPTION[$base]}> or XEN_SRC=<tree> (see README)" |
            tee "$results/$base.tap"
        continue
    fi
    export XEN_BASE=$base BUILD_DIR=$BUILD_ROOT/$base
    stage "$base: the series applies with git am"
    if "$REPO_ROOT/scripts/patches.sh" check >"$results/$base-patches.out" 2>&1; then
        echo "ok $base/patches: make patches output applies with git am" | tee "$results/$base-patches.tap"
    else
        tail -5 "$results/$base-patches.out"
        echo "not ok $base/patches: make patches output does not apply with git am" | tee "$results/$base-patches.tap"
    fi
    for arch in ${ARCHES-x86_64 arm64}; do
        awk -v b="$base" -v a="$arch" '$1 == b && $2 == a' "$results/.suites" >"$results/.suites.$base.$arch"
        [ -s "$results/.suites.$base.$arch" ] || continue
        stage "$base: build $arch"
        if ! "$REPO_ROOT/scripts/build-xen.sh" "$arch" >/dev/null ||
            ! "$REPO_ROOT/scripts/make-initramfs.sh" "$arch" >/dev/null; then
            echo "not ok $base/$arch/build: building Xen or the dom0 image failed" |
                tee "$results/$base-$arch-build.tap"
            continue
        fi
        echo "ok $base/$arch/build" >"$results/$base-$arch-build.tap"
        while read -r _ _ suite smp vcpus; do
            wanted "${SUITES:-}" "$suite" || continue
            stage "$base: $arch suite $suite (smp ${smp:-2})"
            SMP=${smp:-2} DOM0_VCPUS=${vcpus:-${smp:-2}} \
                "$REPO_ROOT/tests/run-dom0-suite.sh" "$arch" "$suite" </dev/null || true
        done <"$results/.suites.$base.$arch"
    done
done

stage "done"
summarize "$results"
