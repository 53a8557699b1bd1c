#!/usr/bin/env bash
# check.sh: everything `make check` runs. Installs what is missing, then runs, for each Xen base of
# tests/suites (4.20, 4.17, staging): the check that `make patches` output applies with git am
# onto the pristine tree, the build of Xen and the dom0 image for each architecture, and that
# build's dom0 suites (one boot per suite); and the host tests. Ends with one line
# "N passed, N failed, N skipped" over all of it; exits non-zero on any failure or missing result.
# A base whose source is not at hand (4.20 and staging need XEN_TARBALL or XEN_SRC) is reported as
# skipped, with what to pass.
# A line of tests/suites whose base is spelled BASE+clang runs on that base built with clang
# (CLANG=1, build/BASE-clang/; results named BASE-clang/ARCH/SUITE/...); BASE+seriesN on that
# base with the first N mailed series only (SERIES=N, build/BASE-seriesN/); BASE+flask on that base
# built with XSM and FLASK (FLASK=1, build/BASE-flask/); 4.20+deb on the system make deb's
# packages were installed into with apt (DEB=1, build/4.20-deb/, made by tests/packages/).
# BASES, ARCHES and SUITES (space-separated) narrow it: BASES=4.20 takes 4.20's lines of both
# compilers, BASES=staging+clang only the clang ones (without the git am check, which is per base).
#
# Two kinds of work share the machine (tests/README.md, "The CI budget"): boots share the cores
# (CHECK_CORES), a boot taking as many as it has pCPUs, each as soon as its build is done and its
# cores are free, in tests/suites' order; builds run one at a
# time in a lane of their own, in tests/suites' order of first use, beside the boots but in the
# idle scheduling class (SCHED_IDLE), so that they take only the CPU time a boot leaves; the host
# tests too. Each job's output goes to RESULTS_DIR/jobs/ and is printed whole when it ends.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$REPO_ROOT/scripts/lib/tap.sh"

results=$RESULTS_DIR
rm -rf "$results"
mkdir -p "$results/jobs"
started=$SECONDS
stage() { log "== $* ($((SECONDS - started))s)"; }
wanted() { [ -z "$1" ] || echo " $1 " | grep -qF " $2 "; }
# The cores the boots share: a boot takes one per pCPU (all of them if it has more), so that no
# guest's vCPUs outnumber the cores left to it (they spin in Xen's rendezvous and locks: two
# 2-pCPU boots at once on 2 cores ran about tenfold slower); two 1-pCPU boots run side by side.
cores=${CHECK_CORES:-$(nproc)}
case "$cores" in '' | *[!0-9]* | 0) die "CHECK_CORES=$cores: a number of cores, 1 or more" ;; esac
# Suites that run with nothing beside them: record's 60 s capture of '*' must lose nothing, and
# on arm64 its dom0 reader fell behind (50269 of 2.2 million records lost) beside an idle-class
# build.
alone=${CHECK_ALONE-record}
# Work beside the boots: the idle scheduling class, where the kernel has it.
background() { chrt --idle -p 0 "$BASHPID" >/dev/null 2>&1 || true; }

stage "host packages"
"$REPO_ROOT/scripts/install-host-deps.sh"

# Host tests: each tests/host/test-* prints TAP for its own checks.
host_tests() {
    local t name rc
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
}

grep -v -e '^#' -e '^[[:space:]]*$' "$REPO_ROOT/tests/suites" >"$results/.suites"
while read -r b _; do
    case " $ALL_BASES " in *" ${b%%+*} "*) ;; *) die "tests/suites: unknown base '$b'" ;; esac
    case "${b#"${b%%+*}"}" in '' | +clang | +flask | +deb | +series[1-9]) ;; *) die "tests/suites: unknown variant '$b'" ;; esac
done <"$results/.suites"
# BASES selects by the first column of tests/suites: "4.20" selects 4.20's lines with either
# compiler, "staging+clang" only the clang ones.
wanted_build() { wanted "${BASES:-}" "$1" || wanted "${BASES:-}" "${1%%+*}"; }
# variant_of SPELLED: sets base, clang (0/1), flask (0/1), series (N or empty) and variant (the
# build's name: BASE, BASE-clang, BASE-flask or BASE-seriesN) of a base as tests/suites spells it.
variant_of() {
    base=${1%%+*} clang=0 flask=0 deb=0 series=
    case "$1" in
    *+clang) clang=1 variant=$base-clang ;;
    *+flask) flask=1 variant=$base-flask ;;
    *+deb) deb=1 variant=$base-deb ;;
    *+series*) series=${1##*+series} variant=$base-series$series ;;
    *) variant=$base ;;
    esac
}
arches=${ARCHES-x86_64 arm64}

# The plan: .builds holds "VARIANT ARCH SPELLED" in order of first use, .boots "VARIANT ARCH SUITE
# PCPUS VCPUS" in tests/suites' order (which is also the order boots start in, among those ready).
: >"$results/.builds"
: >"$results/.boots"
while read -r spelled arch suite smp vcpus; do
    variant_of "$spelled"
    wanted_build "$spelled" || continue
    case " $arches " in *" $arch "*) ;; *) continue ;; esac
    wanted "${SUITES:-}" "$suite" || continue
    if ! XEN_BASE=$base base_available "$base"; then
        [ -e "$results/$base.tap" ] ||
            echo "ok $base # SKIP no $base source at hand: pass XEN_TARBALL=<${BASE_DESCRIPTION[$base]}> or XEN_SRC=<tree> (see README)" |
            tee "$results/$base.tap"
        continue
    fi
    grep -qx "$variant $arch $spelled" "$results/.builds" || echo "$variant $arch $spelled" >>"$results/.builds"
    echo "$variant $arch $suite ${smp:-2} ${vcpus:-${smp:-2}}" >>"$results/.boots"
done <"$results/.suites"

# am_check BASE: once per wanted BASE, does `make patches` output apply with git am?
am_check() {
    local base=$1
    wanted "${BASES:-}" "$base" && [ ! -e "$results/$base-patches.tap" ] || return 0
    stage "$base: the series applies with git am"
    if XEN_BASE=$base CLANG=0 SERIES= BUILD_DIR=$BUILD_ROOT/$base "$REPO_ROOT/scripts/patches.sh" check \
        >"$results/$base-patches.out" 2>&1; then
        echo "ok $base/patches: make patches output applies with git am" | tee "$results/$base-patches.tap"
    else
        tail -5 "$results/$base-patches.out"
        echo "not ok $base/patches: make patches output does not apply with git am" | tee "$results/$base-patches.tap"
    fi
}

# built VARIANT ARCH ok|failed: the marker the scheduler polls, whole or absent (renamed into
# place: a poll could otherwise read it empty).
built() {
    echo "$3" >"$results/jobs/.built-$1-$2"
    mv "$results/jobs/.built-$1-$2" "$results/jobs/built-$1-$2"
}

# packages_job: once 4.20 is built for both architectures, make deb's Debian 13 packages are
# checked (tests/packages/: lintian, apt install into a debootstrapped Debian 13 root), in the
# lane, before its next build: so the suites that run alone also run without it. When a
# 4.20+deb boot is planned, it also makes that boot's image from the root (BOOT_BUILD_DIR).
packages_job() {
    local boot_dir rc
    [ ! -e "$results/packages.tap" ] && { wanted "${SUITES:-}" packages || wanted "${SUITES:-}" installed; } &&
        { wanted_build 4.20 || wanted_build 4.20+deb; } &&
        [ -e "$results/jobs/built-4.20-x86_64" ] && [ -e "$results/jobs/built-4.20-arm64" ] || return 0
    stage "4.20: the Debian 13 packages (make deb)"
    if [ "$(cat "$results/jobs/built-4.20-x86_64" "$results/jobs/built-4.20-arm64")" = "ok
ok" ]; then
        boot_dir=
        grep -q '^4.20-deb x86_64 ' "$results/.builds" && boot_dir=$BUILD_ROOT/4.20-deb
        rm -rf "$BUILD_ROOT/4.20-deb"
        rc=0
        BUILD_DIR=$BUILD_ROOT/4.20 BOOT_BUILD_DIR=$boot_dir "$REPO_ROOT/tests/packages/check-packages.sh" </dev/null \
            >"$results/jobs/packages.out" 2>&1 || rc=$?
        sed -nE 's/^(not )?ok [0-9]+ - /\1ok 4.20\//p' "$results/jobs/packages.out" >"$results/packages.tap"
        [ "$rc" = 0 ] || echo "not ok 4.20/packages: tests/packages/check-packages.sh exited $rc" >>"$results/packages.tap"
        grep -q '^not ok' "$results/packages.tap" && cat "$results/jobs/packages.out"
    else
        echo "not ok 4.20/packages: 4.20 did not build for both architectures" >"$results/packages.tap"
    fi
    cat "$results/packages.tap"
    stage "4.20: the Debian 13 packages done"
}

# The build lane: for each base, the git am check before its first build; then each build, which
# leaves jobs/built-VARIANT-ARCH holding "ok" or "failed" for the boots waiting on it.
build_lane() {
    local variant arch spelled base clang flask deb series out
    background
    while read -r variant arch spelled; do
        variant_of "$spelled"
        am_check "$base"
        if [ "$deb" = 1 ]; then
            # Not built: the image of the installed packages' system (packages_job), made in
            # this run or not at all (never an earlier run's).
            packages_job
            if [ ! -e "$results/packages.tap" ]; then
                rm -rf "${BUILD_ROOT:?}/$variant"
                echo "ok $variant/$arch/build # SKIP the installed packages' boot needs 4.20 built for x86_64 and arm64 in the same run (the packages job)" |
                    tee "$results/$variant-$arch-build.tap"
                built "$variant" "$arch" failed
            elif [ "$arch" = x86_64 ] && grep -q '^ok 4.20/packages/boot-image-amd64' "$results/packages.tap"; then
                built "$variant" "$arch" ok
            else
                echo "not ok $variant/$arch/build: no image of the installed packages (4.20/packages above; x86_64 only)" |
                    tee "$results/$variant-$arch-build.tap"
                built "$variant" "$arch" failed
            fi
            continue
        fi
        stage "$spelled: build $arch"
        out=$results/jobs/build-$variant-$arch.out
        if (
            export XEN_BASE=$base CLANG=$clang FLASK=$flask SERIES=$series BUILD_DIR=$BUILD_ROOT/$variant
            "$REPO_ROOT/scripts/build-xen.sh" "$arch" && "$REPO_ROOT/scripts/make-initramfs.sh" "$arch"
        ) </dev/null >"$out" 2>&1; then
            echo "ok $variant/$arch/build" >"$results/$variant-$arch-build.tap"
            built "$variant" "$arch" ok
            stage "$spelled: build $arch done"
        else
            tail -n 30 "$out"
            echo "not ok $variant/$arch/build: building Xen or the dom0 image failed (see $out)" |
                tee "$results/$variant-$arch-build.tap"
            built "$variant" "$arch" failed
        fi
        packages_job
    done <"$results/.builds"
    # A base that is wanted but has no build left (SUITES narrowed them all away) still gets
    # its git am check.
    for base in $ALL_BASES; do
        XEN_BASE=$base base_available "$base" && am_check "$base"
    done
}

# make check's lengths of the timed dom0 tests (each test's own default is longer; see
# tests/README.md): the stress suite's hotplug run, its function_graph run, the HypFS fuzz test,
# concurrency/01's readers and clearer and concurrency/05's resizes, record/01's capture.
export STRESS_SECONDS=${STRESS_SECONDS:-30} GRAPH_SECONDS=${GRAPH_SECONDS:-15} FUZZ_SECONDS=${FUZZ_SECONDS:-15}
export CONCURRENCY_SECONDS=${CONCURRENCY_SECONDS:-15} RECORD_SECONDS=${RECORD_SECONDS:-30}

# boot VARIANT ARCH SUITE PCPUS VCPUS: one boot, its output in jobs/.
boot() {
    local variant=$1 arch=$2 suite=$3 base=${1%%-*} clang=0 flask=0 deb=0 series=
    case "$variant" in
    *-clang) clang=1 ;;
    *-flask) flask=1 ;;
    *-deb) deb=1 ;;
    *-series*) series=${variant##*-series} ;;
    esac
    XEN_BASE=$base CLANG=$clang FLASK=$flask DEB=$deb SERIES=$series BUILD_DIR=$BUILD_ROOT/$variant SMP=$4 DOM0_VCPUS=$5 \
        "$REPO_ROOT/tests/run-dom0-suite.sh" "$arch" "$suite" </dev/null
}

build_lane &
lane=$!
declare -A running=() # boots: pid -> job name
declare -A began=()   # pid -> start time
declare -A beside=()  # the host tests: pid -> job name (no boot slot)
if wanted "${SUITES:-}" host; then
    stage "host tests"
    (background && host_tests) >"$results/jobs/host.out" 2>&1 &
    beside[$!]=host
    began[$!]=$SECONDS
fi
declare -A taken=()   # boots: pid -> cores
mapfile -t pending <"$results/.boots"
while [ ${#pending[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ] || [ ${#beside[@]} -gt 0 ]; do
    # Start what is ready, in order, while its cores are free; a ready boot that waits for cores
    # holds back the boots after it (order is kept among the ready ones).
    left=()
    used=0
    for pid in "${!taken[@]}"; do used=$((used + taken[$pid])); done
    waiting=
    for job in "${pending[@]}"; do
        read -r variant arch suite smp vcpus <<<"$job"
        marker=$results/jobs/built-$variant-$arch
        need=$((smp < cores ? smp : cores))
        # A suite of CHECK_ALONE, or with more than 2 pCPUs, takes every core: nothing beside it.
        { [ "$smp" -gt 2 ] || [[ " $alone " == *" $suite "* ]]; } && need=$cores
        # A boot with more than 2 pCPUs, or of a suite of CHECK_ALONE, waits for the build lane
        # to end.
        if [ -n "$waiting" ] || { [ ! -e "$marker" ] && kill -0 "$lane" 2>/dev/null; } ||
            { { [ "$smp" -gt 2 ] || [[ " $alone " == *" $suite "* ]]; } && kill -0 "$lane" 2>/dev/null; }; then
            left+=("$job")
            continue
        fi
        if [ -e "$marker" ] && [ "$(cat "$marker")" = ok ] && [ ${#running[@]} -gt 0 ] &&
            [ $((used + need)) -gt "$cores" ]; then
            waiting=1
            left+=("$job")
            continue
        fi
        # Its build failed (already counted), or the lane ended without it.
        if [ ! -e "$marker" ]; then
            echo "not ok $variant/$arch/$suite: the build lane ended before building $variant for $arch" |
                tee "$results/$variant-$arch-$suite.tap"
            continue
        fi
        [ "$(cat "$marker")" = ok ] || continue
        name=$variant-$arch-$suite
        stage "$variant: $arch suite $suite (smp $smp)"
        boot "$variant" "$arch" "$suite" "$smp" "$vcpus" >"$results/jobs/$name.out" 2>&1 &
        running[$!]=$name
        began[$!]=$SECONDS
        taken[$!]=$need
        used=$((used + need))
    done
    pending=("${left[@]}")
    sleep 2
    # Print each job that ended, whole.
    for pid in "${!running[@]}" "${!beside[@]}"; do
        kill -0 "$pid" 2>/dev/null && continue
        wait "$pid" || true
        name=${running[$pid]:-${beside[$pid]:-}}
        stage "$name ended after $((SECONDS - ${began[$pid]}))s"
        cat "$results/jobs/$name.out"
        unset "running[$pid]" "beside[$pid]" "began[$pid]" "taken[$pid]"
    done
done
wait "$lane" || true

stage "done"
summarize "$results"
