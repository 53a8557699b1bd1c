# Rows 3e and 3f: Xen's trace points as events (series 5). 3e: an event on that the benchmark's
# path never hits (dom0:dom_add): every trace point of the path then calls trace(), which finds
# its event off. 3f: the path's own event on (pv:hypercall: the PV dom0's xen_version and its
# iret back to user space, 2 per call), recorded under nop, as xentrace's row 4 records them.
. /opt/dyntrace/tests/bench/lib-bench.inc
needs_series 5 set_event
reset_tracing
xenhypfs write $T/set_event dom0:dom_add || fail "set_event dom0:dom_add"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
hypercall_loop events_idle
xenhypfs write $T/tracing_on 0 || fail "off"
xenhypfs write $T/set_event pv:hypercall || fail "set_event pv:hypercall"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
hypercall_loop events
xenhypfs write $T/tracing_on 0 || fail "off"
w=$(entries_written)
n=$(grep -c ': hypercall: op=' /tmp/bench.trace || true)
[ "$n" -gt 100 ] || fail "only $n hypercall events in the buffer"
[ "$w" -ge "$BENCH_TRACED_CALLS" ] || fail "only $w events for $BENCH_TRACED_CALLS calls"
echo "BENCH events_records written=$w calls=$BENCH_TRACED_CALLS"
reset_tracing
