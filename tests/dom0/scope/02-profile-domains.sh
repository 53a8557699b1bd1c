# The profiler's trace_stat/domains with a domU doing work: per domain and
# function, hits, total and average hypervisor time (the idle domain's too).
# The domU (2 vCPUs, tests/dom0/domu-work) and dom0 make xen_version
# hypercalls; the idle vCPUs run softirqs.  Each of dom0, the domU and idle
# has its rows, and the domU's do_xen_version calls are timed.
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_profile_enabled
reset_tracing
trap 'xl destroy prof 2>/dev/null' EXIT
start_domu_working prof domu-work 2
D=$(xl domid prof) || fail "no domid for the domU"
log=/var/log/xen/console/guest-prof.log

run xenhypfs write $T/set_function_filter "do_xen_version xen_extra_version do_softirq do_sched_op do_event_channel_op"
run xenhypfs write $T/function_profile_enabled 1
for v in $(seq 0 $(($(nproc) - 1))); do
    taskset -c $v sh -c 'for i in 1 2 3 4 5 6 7 8; do cat /sys/hypervisor/version/extra >/dev/null; done'
done
sleep 3
run xenhypfs write $T/function_profile_enabled 0
xenhypfs cat $T/trace_stat/domains >/tmp/pd || fail "reading trace_stat/domains"
cat /tmp/pd
# row DOMAIN FUNCTION COLUMN: that column of the row (empty if none).
row() { awk -v d="$1" -v f="$2" -v c="$3" '$1 == d && $2 == f { print $c }' /tmp/pd; }
for d in d0 "d$D"; do
    h=$(row "$d" do_xen_version 3)
    [ "${h:-0}" -gt 0 ] || fail "no do_xen_version hits for $d"
    echo "$d: do_xen_version $h hits"
done
h=$(row "<idle>" do_softirq 3)
[ "${h:-0}" -gt 0 ] || fail "no do_softirq hits for idle"
t=$(row "d$D" do_xen_version 4)
awk -v t="$t" 'BEGIN { exit !(t > 0) }' || fail "d$D's do_xen_version not timed: '$t'"
echo "d$D: do_xen_version $t us"
reset_tracing
