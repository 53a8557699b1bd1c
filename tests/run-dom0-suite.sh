#!/usr/bin/env bash
# run-dom0-suite.sh ARCH SUITE: boot once, run the dom0 suite tests/dom0/SUITE, collect its TAP
# from the serial log and record the results in RESULTS_DIR/BUILD-ARCH-SUITE.tap (BUILD: XEN_BASE,
# or XEN_BASE-clang with CLANG=1). Every test of the suite that did not report (crash, timeout,
# missing line) counts as a failure. The tracer suite also checks the boot log: every patch site
# the compiler left was converted at boot (boot-sites). The record suite's capture is checked on
# the host with real clients (tests/viewers/check-exports.sh).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib/common.sh"
. "$REPO_ROOT/scripts/lib/tap.sh"

arch=${1:?usage: run-dom0-suite.sh ARCH SUITE}
suite=${2:?usage: run-dom0-suite.sh ARCH SUITE}
results=$RESULTS_DIR
mkdir -p "$results"
out=$results/$XEN_VARIANT-$arch-$suite.tap
log_file=$BUILD_DIR/$arch/logs/$suite.log
expected=$(find "$REPO_ROOT/tests/dom0/$suite" -maxdepth 1 -name '*.sh' | wc -l)

# The record suite hands a capture (about 1 MB of base64) to the host through the serial log.
# Xen's serial transmitter is asynchronous by default and a dom0 console write has no flow
# control: once its 32 KiB buffer is full, characters are dropped until half of it has drained
# (__serial_putc() in drivers/char/serial.c). CI once lost part of the capture that way.
# sync_console makes every write wait for the UART instead.
[ "$suite" != record ] || export XEN_ARGS="${XEN_ARGS:-} sync_console"

# dom0's own Linux, with several vCPUs under QEMU's multi-threaded TCG, sometimes dies of an int3
# of its own text patching (a static key flipped by text_poke_bp(), e.g. in sched_clock_cpu()
# at boot): "Oops: int3" with a PV kernel RIP, Xen itself unharmed. The pristine Xen, with none of
# our code, does it too (docs/design.md, "How the contract is checked"). Such a boot is run again, at most
# twice, and says so; any other crash, and a Xen one always, fails the suite as it is
# (dom0_int3, scripts/lib/tap.sh).
# The suites of CET shadow stacks boot under bochs, whose CPU has them (scripts/boot.sh).
case "$suite" in cet | cet-*) export EMULATOR=bochs ;; esac
# The flask suite boots with flask=enforcing and Xen's default policy, built from the tree here.
if [ "$suite" = flask ]; then
    XSM_POLICY=$("$REPO_ROOT/scripts/build-flask-policy.sh" "$arch" | tail -n1)
    export XSM_POLICY
fi

retries=()
for attempt in 1 2 3; do
    verdict=0
    LOG=$log_file "$REPO_ROOT/scripts/boot.sh" "$arch" "$suite" || verdict=$?
    [ "$verdict" = 2 ] && [ "$attempt" -lt 3 ] && dom0_int3 "$log_file" || break
    mv "$log_file" "$log_file.int3-$attempt"
    retries+=("# $XEN_VARIANT/$arch/$suite: boot $attempt lost to dom0 Linux's own int3 ($(grep -m1 'RIP: e030:' "$log_file.int3-$attempt" | sed 's/.*RIP: e030://')), booted again; log kept as $(basename "$log_file").int3-$attempt")
    log "${retries[-1]#\# }"
done
if [ "$suite" = cet-control ]; then
    # The negative control passes only by the #CP its test announces, which Xen reports by a
    # panic (tests/dom0/cet-control/).
    cp_line=$(sed -n '/DYNTRACE: a #CP is due/,$p' "$log_file" | grep -m1 'CONTROL-FLOW PROTECTION FAULT: #CP' || true)
    if [ "$verdict" = 2 ] && [ -n "$cp_line" ]; then
        echo "ok 1 - $XEN_VARIANT/$arch/cet-control/01-cp-without-shadow-copy: ${cp_line#*) }"
    else
        echo "not ok 1 - $XEN_VARIANT/$arch/cet-control/01-cp-without-shadow-copy: no #CP after the announcement (boot verdict $verdict)"
        tail -n 30 "$log_file" | sed 's/^/# /'
    fi >"$out"
else
    {
        collect_tap "$XEN_VARIANT/$arch" "$suite" "$log_file" "$expected" "$verdict"
        for r in "${retries[@]}"; do echo "$r"; done
    } >"$out"
fi
[ "$suite" != tracer ] || boot_sites_tap "$XEN_VARIANT/$arch/$suite/boot-sites" "$log_file" >>"$out"
# The record suite's capture, exported on the host and opened with trace-cmd and speedscope.
[ "$suite" != record ] || "$REPO_ROOT/tests/viewers/check-exports.sh" "$arch" "$log_file" >>"$out"
tap_failure_details "$log_file" "$suite" >&2
grep -E '^(not )?ok ' "$out"
! grep -q '^not ok' "$out"
