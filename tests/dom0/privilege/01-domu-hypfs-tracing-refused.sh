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

domu_hypfs_refused $log
check_state /tmp/state.before
# dom0 still can.
run xenhypfs write $T/tracing_on 1
run xenhypfs write $T/tracing_on 0
reset_tracing
