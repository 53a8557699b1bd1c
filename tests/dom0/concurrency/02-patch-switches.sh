# Patch changes on 4 pCPUs (more emulated CPUs than host cores, where Xen's
# stock 30 ms rendezvous wait often expires): every switch must succeed, and
# the traced functions must record while switched on.
. /opt/dyntrace/tests/lib.sh
reset_tracing
run xenhypfs write $T/set_function_filter "xen_extra_version do_xen_version"
run xenhypfs write $T/tracing_on 1
i=0
while [ $i -lt 40 ]; do
    i=$((i + 1))
    xenhypfs write $T/current_tracer function || fail "switch $i to function failed"
    cat /sys/hypervisor/version/extra >/dev/null
    xenhypfs cat $T/trace >/tmp/trace || fail "read $i failed"
    n=$(count_records /tmp/trace xen_extra_version)
    [ "$n" = 1 ] || fail "switch $i: $n records of xen_extra_version (want 1: the switch clears)"
    xenhypfs write $T/current_tracer nop || fail "switch $i to nop failed"
done
echo "$i round trips, 2 rendezvous each"
reset_tracing
entry_is_untraced || fail "entry not restored"
