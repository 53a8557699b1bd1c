#!/usr/bin/env bash
# bench.sh [ARCH]: the benchmarks (make bench). Builds the pristine baseline Xen and ours, boots
# each under QEMU with -icount shift=0 (guest time = guest instructions), 1 pCPU and 1 dom0 vCPU,
# runs the dom0 suites bench-baseline and bench, twice, and prints one markdown table per run and
# a last summary line. Figures, never verdicts: it fails only when a run did not produce them.
# RUNS (default 2). Each measurement is 100000 hypercalls (tests/dom0/bench/lib-bench.inc).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:-x86_64}
[ "$arch" = x86_64 ] || die "the tracer is benchmarked on x86_64 only (arm64: not ported yet)"
runs=${RUNS:-2}
"$REPO_ROOT/scripts/install-host-deps.sh"
"$REPO_ROOT/scripts/build-xen.sh" "$arch" >/dev/null
BASELINE=1 "$REPO_ROOT/scripts/build-xen.sh" "$arch" >/dev/null
"$REPO_ROOT/scripts/make-initramfs.sh" "$arch" >/dev/null

dir=$BUILD_DIR/$arch
logs=$dir/logs
mkdir -p "$logs"
for run in $(seq 1 "$runs"); do
    for suite in bench-baseline bench; do
        image=$dir/out/xen
        [ "$suite" = bench-baseline ] && image=$dir/baseline/out/xen
        log "run $run: $suite"
        rc=0
        LOG=$logs/$suite-$run.log XEN_IMAGE=$image ICOUNT=1 SMP=1 DOM0_VCPUS=1 TIMEOUT=1800 \
            "$REPO_ROOT/scripts/boot.sh" "$arch" "$suite" </dev/null || rc=$?
        [ "$rc" -eq 0 ] || die "run $run of $suite failed (verdict $rc, log $logs/$suite-$run.log)"
        if tr -d '\r' <"$logs/$suite-$run.log" | grep -q '^not ok '; then
            tr -d '\r' <"$logs/$suite-$run.log" | grep -E '^(# FAIL|not ok)' >&2
            die "a benchmark step failed in run $run of $suite"
        fi
    done
done

"$PYTHON" "$REPO_ROOT/scripts/lib/bench-report.py" "$arch" "$runs" "$logs" \
    "$dir/baseline/out/xen-syms" "$dir/out/xen-syms"
