#!/usr/bin/env bash
# check.sh: everything `make check` runs. Installs what is missing, builds Xen and the dom0 image
# for each architecture, runs the host tests and every dom0 suite (one boot per suite), and ends
# with one line "N passed, N failed" over all of it. Exits non-zero on any failure or missing
# result. ARCHES (default "x86_64 arm64") and SUITES (default: tests/suites.ARCH) narrow it.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$REPO_ROOT/scripts/lib/tap.sh"

results=$BUILD_DIR/results
rm -rf "$results"
mkdir -p "$results"
started=$SECONDS
stage() { log "== $* ($((SECONDS - started))s)"; }

stage "host packages"
"$REPO_ROOT/scripts/install-host-deps.sh"

# Host tests: each tests/host/test-* prints TAP for its own checks.
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

for arch in ${ARCHES-x86_64 arm64}; do
    stage "build $arch"
    if ! "$REPO_ROOT/scripts/build-xen.sh" "$arch" >/dev/null ||
        ! "$REPO_ROOT/scripts/make-initramfs.sh" "$arch" >/dev/null; then
        echo "not ok $arch/build: building Xen or the dom0 image failed" | tee "$results/$arch-build.tap"
        continue
    fi
    echo "ok $arch/build" >"$results/$arch-build.tap"
    grep -v -e '^#' -e '^[[:space:]]*$' "$REPO_ROOT/tests/suites.$arch" >"$results/.suites.$arch"
    while read -r suite smp vcpus; do
        if [ -n "${SUITES:-}" ] && ! echo " $SUITES " | grep -q " $suite "; then
            continue
        fi
        stage "$arch suite $suite (smp ${smp:-2})"
        SMP=${smp:-2} DOM0_VCPUS=${vcpus:-${smp:-2}} \
            "$REPO_ROOT/tests/run-dom0-suite.sh" "$arch" "$suite" </dev/null || true
    done <"$results/.suites.$arch"
done

stage "done"
summarize "$results"
