#!/usr/bin/env bash
# boot.sh ARCH SUITE: boot our Xen with the test dom0 under QEMU (TCG) and run one dom0 test
# suite (SUITE=shell: an interactive dom0 shell on this terminal).
#
# Environment: SMP (pCPUs, default 2: the host's core count; more emulated CPUs than host cores
# starves Xen's rendezvous), DOM0_VCPUS (default SMP), TIMEOUT (seconds, hard limit on the QEMU
# process), ICOUNT=1 (deterministic guest time: 1 instruction = 1 ns), LOG (serial log path),
# XEN_IMAGE (the hypervisor to boot instead of BUILD_DIR/ARCH/out/xen), STRESS_SECONDS (how long
# the dom0 stress tests run), GRAPH_SECONDS (stress/02's function_graph run), CONCURRENCY_SECONDS
# (concurrency/01's readers and clearer, concurrency/05's resizes), RECORD_SECONDS (record/01's
# capture), FUZZ_SECONDS and FUZZ_SEED (the HypFS fuzz test's duration and seed).
#
# The verdict comes from markers in the serial log, never from QEMU's exit status:
#   0  the suite ran to its end marker      2  Xen or dom0 crashed (log tail shown)
#   3  timeout or QEMU ended without the end marker
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/tap.sh"

arch=${1:?usage: boot.sh ARCH SUITE}
suite=${2:?usage: boot.sh ARCH SUITE}
check_arch "$arch"
smp=${SMP:-2}
vcpus=${DOM0_VCPUS:-$smp}
timeout=${TIMEOUT:-$((900 + ${STRESS_SECONDS:-0} + ${GRAPH_SECONDS:-0} + ${FUZZ_SECONDS:-0}))}
dir=$BUILD_DIR/$arch
xen=${XEN_IMAGE:-$dir/out/xen}
initrd=$dir/initramfs.cpio.gz
kernel=$dir/vmlinuz
for f in "$xen" "$initrd" "$kernel"; do [ -f "$f" ] || die "$f missing: build first"; done
mkdir -p "$dir/logs"
log_file=${LOG:-$dir/logs/$suite.log}

dom0_args="console=hvc0 dyntrace_suite=$suite"
# The stress tests run for STRESS_SECONDS (dom0 sees it as $dyntrace_stress_seconds).
[ -n "${STRESS_SECONDS:-}" ] && dom0_args="$dom0_args dyntrace_stress_seconds=$STRESS_SECONDS"
[ -n "${GRAPH_SECONDS:-}" ] && dom0_args="$dom0_args dyntrace_graph_seconds=$GRAPH_SECONDS"
[ -n "${CONCURRENCY_SECONDS:-}" ] && dom0_args="$dom0_args dyntrace_concurrency_seconds=$CONCURRENCY_SECONDS"
[ -n "${FUZZ_SECONDS:-}" ] && dom0_args="$dom0_args dyntrace_fuzz_seconds=$FUZZ_SECONDS"
[ -n "${FUZZ_SEED:-}" ] && dom0_args="$dom0_args dyntrace_fuzz_seed=$FUZZ_SEED"
# A build of the first N series only (SERIES=N): the tests of later series skip (needs_series).
[ -n "${SERIES:-}" ] && dom0_args="$dom0_args dyntrace_series=$SERIES"
# The record suite's capture lasts RECORD_SECONDS (default 60; $dyntrace_record_seconds in dom0).
[ -n "${RECORD_SECONDS:-}" ] && dom0_args="$dom0_args dyntrace_record_seconds=$RECORD_SECONDS"
case "$arch" in
x86_64)
    qemu=(qemu-system-x86_64 -accel tcg -cpu qemu64 -m 2048
        -kernel "$xen"
        -append "console=com1 com1=115200 loglvl=all guest_loglvl=all noreboot dom0_mem=1024M,max:1024M dom0_max_vcpus=$vcpus ${XEN_ARGS:-}"
        # -initrd splits modules on commas: the dom0 command line must not contain one.
        -initrd "$kernel earlyprintk=xen $dom0_args,$initrd")
    ;;
arm64)
    qemu=(qemu-system-aarch64 -machine virt,virtualization=on,gic-version=3 -cpu cortex-a57 -m 2048
        -kernel "$xen"
        -append "dom0_mem=512M dom0_max_vcpus=$vcpus console=dtuart dtuart=/pl011@9000000 loglvl=all guest_loglvl=all noreboot ${XEN_ARGS:-}"
        -device "guest-loader,addr=0x49000000,kernel=$kernel,bootargs=earlycon=xenboot rdinit=/init $dom0_args"
        -device "guest-loader,addr=0x50000000,initrd=$initrd")
    ;;
esac
qemu+=(-smp "$smp" -display none -no-reboot)
[ "${ICOUNT:-0}" = 1 ] && qemu+=(-icount shift=0,sleep=off)

if [ "$suite" = shell ]; then
    log "booting $arch with an interactive dom0 shell ('poweroff -f' in dom0, or Ctrl-a x, ends it)"
    exec "${qemu[@]}" -serial mon:stdio
fi
qemu+=(-monitor none -serial stdio)

# Patterns that mean the machine is lost.
crash_re='Panic on CPU|Kernel panic|FATAL TRAP|Xen BUG at|Assertion .* failed at|Xen call trace|Manual reset required|Reboot in five seconds|BUG: kernel NULL|Oops:'
end_marker="DYNTRACE: suite $suite end"

: >"$log_file"
log "booting $arch (smp=$smp, dom0 vcpus=$vcpus${ICOUNT:+, icount}) suite=$suite, log $log_file"
timeout --kill-after=10 "$timeout" "${qemu[@]}" </dev/null >"$log_file" 2>&1 &
qpid=$!
verdict=3
start=$SECONDS
while :; do
    if grep -q "$end_marker" "$log_file"; then
        verdict=0
        # Give dom0 a moment to power off, then stop QEMU if it lingers.
        for _ in $(seq 1 20); do kill -0 "$qpid" 2>/dev/null || break; sleep 0.5; done
        break
    fi
    if log_without_test_warns "$log_file" | grep -Eq "$crash_re"; then
        sleep 2 # let the crash dump reach the log
        verdict=2
        break
    fi
    kill -0 "$qpid" 2>/dev/null || break
    sleep 1
done
kill "$qpid" 2>/dev/null || true
pkill -P "$qpid" 2>/dev/null || true
wait "$qpid" 2>/dev/null || true
tr -d '\r' <"$log_file" >"$log_file.tmp" && mv "$log_file.tmp" "$log_file"
secs=$((SECONDS - start))
case $verdict in
0) log "suite $suite finished on $arch in ${secs}s" ;;
2)
    log "CRASH on $arch after ${secs}s; log tail:"
    log_without_test_warns "$log_file" | grep -nE "$crash_re" | head -5 >&2
    tail -n 60 "$log_file" >&2
    ;;
3)
    log "no end marker on $arch after ${secs}s (timeout ${timeout}s or QEMU exited); log tail:"
    tail -n 40 "$log_file" >&2
    ;;
esac
exit $verdict
