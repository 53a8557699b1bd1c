# A return hooked in NMI context, on the NMI's own (IST) shadow stack: Xen's 'N' debug key sends
# this CPU an NMI, which Xen reports to dom0 (nmi=dom0) through pv_raise_nmi().  With
# function_graph on it, each NMI gives one pv_raise_nmi() call with its duration, and Xen
# survives (no #CP): N keys, N calls.
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
reset_tracing
xenhypfs cat $T/available_functions | grep -qx pv_raise_nmi || skip "pv_raise_nmi is not traceable in this build"
run xenhypfs write $T/set_function_filter pv_raise_nmi
run xenhypfs write $T/current_tracer function_graph
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
N=5
i=0
while [ $i -lt $N ]; do xl debug-keys N || fail "xl debug-keys N"; sleep 0.2; i=$((i + 1)); done
xenhypfs write $T/tracing_on 0 || fail "off"
xenhypfs cat $T/trace >/tmp/nmi || fail "reading the trace"
cat /tmp/nmi
xl dmesg | grep -c 'Triggering NMI' >/dev/null || fail "Xen did not trigger the NMIs"
n=$(record_lines /tmp/nmi | grep -c 'pv_raise_nmi();$' || true)
expect_eq "pv_raise_nmi calls, one per NMI" $N "$n"
expect_eq "negative durations" 0 "$(record_lines /tmp/nmi | awk -F'|' '$2 ~ /-/' | wc -l)"
reset_tracing
