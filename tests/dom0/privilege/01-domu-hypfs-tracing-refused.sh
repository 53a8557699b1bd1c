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

start_domu domu domu 1
log=/var/log/xen/console/guest-domu.log
wait_domu domu 180
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
