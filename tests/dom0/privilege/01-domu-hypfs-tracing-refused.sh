# HypFS access to /tracing is for the privileged domain only: dom0's reads and
# writes succeed, while an unprivileged domU (PV on x86_64), started with Debian's Xen
# 4.17 toolstack (xenstored, xenconsoled, xl) from dom0's own kernel and root
# file system, gets EPERM for every HypFS operation on /tracing, raw or through
# xenhypfs (suite domu runs there).
# Also checks that the domU's attempts changed nothing.
. /opt/dyntrace/tests/lib.sh
setup_state
run xenhypfs cat $T/current_tracer
run xenhypfs write $T/tracing_on 0
save_state /tmp/state.before

mkdir -p /var/run/xen /var/run/xenstored /var/lib/xen /var/lib/xenstored /var/log/xen/console /run/xen /var/lock
run xenstored --pid-file=/var/run/xenstored.pid
run xen-init-dom0
run xenconsoled --pid-file=/var/run/xenconsoled.pid --log=guest --log-dir=/var/log/xen/console

# The domU's root: this dom0's own (without the pseudo file systems and the
# domU kernel); its /init then runs the suite named on its command line.
(cd / && find . -xdev -path ./opt/dyntrace/domu -prune -o -print | cpio -o -H newc 2>/dev/null | gzip) >/tmp/domu.cpio.gz
echo "domU image: $(wc -c </tmp/domu.cpio.gz) bytes"
# x86_64: a PV guest; Arm has one guest type, which xl calls pvh.
type=pv
[ "$(uname -m)" = aarch64 ] && type=pvh
cat >/tmp/domu.cfg <<CFG
name = "domu"
type = "$type"
kernel = "/opt/dyntrace/domu/vmlinuz"
ramdisk = "/tmp/domu.cpio.gz"
extra = "console=hvc0 dyntrace_suite=domu"
memory = 256
vcpus = 1
on_poweroff = "destroy"
on_crash = "destroy"
CFG
run xl create /tmp/domu.cfg
run xl list
log=/var/log/xen/console/guest-domu.log
i=0
while [ $i -lt 180 ] && ! grep -q DOMU-DONE $log 2>/dev/null; do
    sleep 1
    i=$((i + 1))
done
tr -d '\r' <$log | grep -E 'DOMU-RESULT|DOMU-DONE|DYNTRACE|FAIL' || true
grep -q DOMU-DONE $log || { tail -30 $log; fail "the domU did not finish in 180 s"; }
xl destroy domu 2>/dev/null || true

for r in xenhypfs-cat-trace xenhypfs-cat-current_tracer xenhypfs-write-tracing_on \
         xenhypfs-write-current_tracer xenhypfs-write-trace; do
    line=$(tr -d '\r' <$log | grep "DOMU-RESULT $r ")
    # libxenhypfs's open asks get_version first; XSM refuses it (EPERM, below).
    echo "$line" | grep -qE "failed: .*(Operation not permitted|Could not open libxenhypfs)" ||
        fail "$r in the domU: $line"
done
for r in raw-get-version raw-read-trace raw-write-tracing_on raw-write-current_tracer; do
    line=$(tr -d '\r' <$log | grep "DOMU-RESULT $r ")
    echo "$line" | grep -q "errno=EPERM" || fail "$r in the domU: $line"
done
check_state /tmp/state.before
# dom0 still can.
run xenhypfs write $T/tracing_on 1
run xenhypfs write $T/tracing_on 0
reset_tracing
