#!/usr/bin/env bash
# check.sh: everything `make check` runs. Installs what is missing, runs the host tests, then for
# each Xen base of tests/suites (4.20, 4.17, staging): checks that `make patches` output applies
# with git am onto the pristine tree, builds Xen and the dom0 image for each architecture and runs
# that base's dom0 suites (one boot per suite). Ends with one line "N passed, N failed, N skipped"
# over all of it; exits non-zero on any failure or missing result. A base whose source is not at
# hand (4.20 and staging need XEN_TARBALL or XEN_SRC) is reported as skipped, with what to pass.
# A line of tests/suites whose base is spelled BASE+clang runs on that base built with clang
# (CLANG=1, build/BASE-clang/; results named BASE-clang/ARCH/SUITE/...).
# BASES, ARCHES and SUITES (space-separated) narrow it: BASES=4.20 takes 4.20's lines of both
# compilers, BASES=4.20+clang only the clang ones (without the git am check, which is per base).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$REPO_ROOT/scripts/lib/tap.sh"

results=$RESULTS_DIR
rm -rf "$results"
mkdir -p "$results"
started=$SECONDS
stage() { log "== $* ($((SECONDS - started))s)"; }
wanted() { [ -z "$1" ] || echo " $1 " | grep -qF " $2 "; }

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
while read -r b _; do
    case " $ALL_BASES " in *" ${b%+clang} "*) ;; *) die "tests/suites: unknown base '$b'" ;; esac
done <"$results/.suites"
# BASES selects by the first column of tests/suites: "4.20" selects 4.20's lines with either
# compiler, "4.20+clang" only the clang ones.
wanted_build() { wanted "${BASES:-}" "$1" || wanted "${BASES:-}" "${1%+clang}"; }
for base in $ALL_BASES; do
    wanted_build "$base" || wanted_build "$base+clang" || continue
    if ! XEN_BASE=$base base_available "$base"; then
        echo "ok $base # SKIP no $base source at hand: pass XEN_TARBALL=<${BASE_DESCRIPTION[$base]}> or XEN_SRC=<tree> (see README)" |
            tee "$results/$base.tap"
        continue
    fi
    export XEN_BASE=$base
    if wanted "${BASES:-}" "$base"; then
        stage "$base: the series applies with git am"
        if CLANG=0 BUILD_DIR=$BUILD_ROOT/$base "$REPO_ROOT/scripts/patches.sh" check >"$results/$base-patches.out" 2>&1; then
            echo "ok $base/patches: make patches output applies with git am" | tee "$results/$base-patches.tap"
        else
            tail -5 "$results/$base-patches.out"
            echo "not ok $base/patches: make patches output does not apply with git am" | tee "$results/$base-patches.tap"
        fi
    fi
    # One build per compiler: BASE (gcc) in build/BASE, BASE+clang (CLANG=1) in build/BASE-clang.
    for spelled in "$base" "$base+clang"; do
        wanted_build "$spelled" || continue
        if [ "$spelled" = "$base" ]; then CLANG=0 name=$base; else CLANG=1 name=$base-clang; fi
        export CLANG BUILD_DIR=$BUILD_ROOT/$name
        for arch in ${ARCHES-x86_64 arm64}; do
            awk -v b="$spelled" -v a="$arch" '$1 == b && $2 == a' "$results/.suites" >"$results/.suites.$name.$arch"
            [ -s "$results/.suites.$name.$arch" ] || continue
            stage "$spelled: build $arch"
            if ! "$REPO_ROOT/scripts/build-xen.sh" "$arch" >/dev/null ||
                ! "$REPO_ROOT/scripts/make-initramfs.sh" "$arch" >/dev/null; then
                echo "not ok $name/$arch/build: building Xen or the dom0 image failed" |
                    tee "$results/$name-$arch-build.tap"
                continue
            fi
            echo "ok $name/$arch/build" >"$results/$name-$arch-build.tap"
            while read -r _ _ suite smp vcpus; do
                wanted "${SUITES:-}" "$suite" || continue
                stage "$spelled: $arch suite $suite (smp ${smp:-2})"
                SMP=${smp:-2} DOM0_VCPUS=${vcpus:-${smp:-2}} \
                    "$REPO_ROOT/tests/run-dom0-suite.sh" "$arch" "$suite" </dev/null || true
            done <"$results/.suites.$name.$arch"
        done
    done
done

stage "done"
summarize "$results"
