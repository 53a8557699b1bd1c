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
# capture), FUZZ_SECONDS and FUZZ_SEED (the HypFS fuzz test's duration and seed), EMULATOR
# (qemu, the default, or bochs: x86_64 only, one CPU with CET, Xen's shadow stacks and IBT on;
# booted by GRUB from an ISO, as bochs boots no multiboot kernel itself), XSM_POLICY (a FLASK
# policy: Xen boots with xsm=flask flask=enforcing and it as its XSM boot module).
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
# A FLASK policy: Xen finds it among the boot modules by its magic (x86's multiboot modules) or by
# its device tree node's compatible "xen,xsm-policy" (Arm).
policy=${XSM_POLICY:-}
if [ -n "$policy" ]; then
    [ -s "$policy" ] || die "XSM_POLICY=$policy: no such policy"
    [ "${EMULATOR:-qemu}" = qemu ] || die "XSM_POLICY: QEMU boots only"
    XEN_ARGS="${XEN_ARGS:-} xsm=flask flask=enforcing"
fi
case "$arch" in
x86_64)
    qemu=(qemu-system-x86_64 -accel tcg -cpu qemu64 -m 2048
        -kernel "$xen"
        -append "console=com1 com1=115200 loglvl=all guest_loglvl=all noreboot dom0_mem=1024M,max:1024M dom0_max_vcpus=$vcpus ${XEN_ARGS:-}"
        # -initrd splits modules on commas: the dom0 command line must not contain one.
        -initrd "$kernel earlyprintk=xen $dom0_args,$initrd${policy:+,$policy}")
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
if [ -n "$policy" ] && [ "$arch" = arm64 ]; then
    # QEMU's guest-loader marks a module as kernel or ramdisk only: the policy's node is added to
    # the device tree QEMU generates for this very machine (dumped first), which Xen then gets
    # instead; QEMU's generic loader puts the policy in place.
    dtb_dir=$dir/xsm-$suite
    rm -rf "$dtb_dir"
    mkdir -p "$dtb_dir"
    "${qemu[@]}" -machine dumpdtb="$dtb_dir/qemu.dtb" >"$dtb_dir/dumpdtb.log" 2>&1 ||
        { cat "$dtb_dir/dumpdtb.log" >&2; die "QEMU did not dump its device tree"; }
    dtc -q -I dtb -O dts -o "$dtb_dir/boot.dts" "$dtb_dir/qemu.dtb"
    printf '/ {
	chosen {
		xsm-policy@58000000 {
			compatible = "xen,xsm-policy", "multiboot,module";
			reg = <0x0 0x58000000 0x0 %d>;
		};
	};
};
'         "$(stat -c %s "$policy")" >>"$dtb_dir/boot.dts"
    dtc -q -I dts -O dtb -o "$dtb_dir/boot.dtb" "$dtb_dir/boot.dts"
    qemu+=(-dtb "$dtb_dir/boot.dtb" -device "loader,file=$policy,addr=0x58000000,force-raw=on")
fi
[ "${ICOUNT:-0}" = 1 ] && qemu+=(-icount shift=0,sleep=off)


if [ "$suite" = shell ]; then
    log "booting $arch with an interactive dom0 shell ('poweroff -f' in dom0, or Ctrl-a x, ends it)"
    exec "${qemu[@]}" -serial mon:stdio
fi
qemu+=(-monitor none -serial stdio)

if [ "${EMULATOR:-qemu}" = bochs ]; then
    # bochs 2.7's "tigerlake" is its one CPU model with CET (shadow stacks and IBT), which Xen
    # turns on for itself (cet=shstk: Xen would not, by default, on a CPU it sees virtualised).
    # One CPU: bochs runs on one host thread. GRUB loads Xen by multiboot from an ISO (bochs
    # loads no kernel itself; GRUB's multiboot2 path faulted there).
    [ "$arch" = x86_64 ] || die "EMULATOR=bochs: x86_64 only"
    [ "$suite" != shell ] || die "EMULATOR=bochs: no interactive shell"
    iso_dir=$dir/bochs-$suite
    rm -rf "$iso_dir"
    mkdir -p "$iso_dir/iso/boot/grub"
    cp "$xen" "$iso_dir/iso/boot/xen"
    cp "$kernel" "$iso_dir/iso/boot/vmlinuz"
    cp "$initrd" "$iso_dir/iso/boot/initrd"
    # conring_size: the tests read Xen's boot messages with xl dmesg; nmi=dom0: an NMI of
    # unknown reason (tests/dom0/cet/06-nmi.sh) goes to dom0, as in a debug build.
    cat >"$iso_dir/iso/boot/grub/grub.cfg" <<EOF
set timeout=0
set default=0
serial --unit=0 --speed=115200
terminal_input serial
terminal_output serial
menuentry "xen" {
  multiboot /boot/xen console=com1 com1=115200 loglvl=all guest_loglvl=all noreboot dom0_mem=512M,max:512M dom0_max_vcpus=1 cet=shstk bootscrub=0 ucode=no conring_size=1M nmi=dom0 ${XEN_ARGS:-}
  module /boot/vmlinuz earlyprintk=xen $dom0_args
  module /boot/initrd
}
EOF
    grub-mkrescue -o "$iso_dir/xen.iso" "$iso_dir/iso" >"$iso_dir/mkrescue.log" 2>&1 ||
        { cat "$iso_dir/mkrescue.log" >&2; die "grub-mkrescue failed"; }
    # clock sync=none: guest time follows the instructions run (ips), whatever the host's load.
    # rfb: the one display Debian's bochs has built in that needs no terminal (nothing connects).
    # sound dummy: with ALSA's default driver and no sound card, bochs 2.7's mixer thread aborts
    # ("buffer overflow detected") a second after it starts, on a host without /dev/snd.
    cat >"$iso_dir/bochsrc" <<EOF
memory: guest=1536, host=1536
cpu: model=tigerlake, count=1, ips=200000000, reset_on_triple_fault=0
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0-master: type=cdrom, path=$iso_dir/xen.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$log_file
display_library: rfb, options="timeout=0"
log: $iso_dir/bochs.log
clock: sync=none, time0=local
mouse: enabled=0
sound: driver=dummy
EOF
    # bochs is built with its debugger: "c" continues from its first prompt.
    echo c >"$iso_dir/cmds"
    qemu=(bochs -q -f "$iso_dir/bochsrc" -rc "$iso_dir/cmds")
    smp=1 vcpus=1
fi

# Patterns that mean the machine is lost.
crash_re='Panic on CPU|Kernel panic|FATAL TRAP|Xen BUG at|Assertion .* failed at|Xen call trace|Manual reset required|Reboot in five seconds|BUG: kernel NULL|Oops:'
end_marker="DYNTRACE: suite $suite end"

: >"$log_file"
log "booting $arch under ${EMULATOR:-qemu} (smp=$smp, dom0 vcpus=$vcpus${ICOUNT:+, icount}) suite=$suite, log $log_file"
if [ "${EMULATOR:-qemu}" = bochs ]; then
    # bochs writes the serial port to the log itself; its own output goes beside it.
    timeout --kill-after=10 "$timeout" "${qemu[@]}" </dev/null >"$iso_dir/bochs.out" 2>&1 &
else
    timeout --kill-after=10 "$timeout" "${qemu[@]}" </dev/null >"$log_file" 2>&1 &
fi
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
