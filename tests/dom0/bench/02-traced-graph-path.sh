# Row 3c: the function_graph tracer on the benchmark's hypercall path,
# recording: each traced call costs its entry (return hooked) and its return
# (the return trampoline and its record; a call with a traced call inside
# also has its entry record, written when the first of those returns).
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
funcs="do_xen_version xen_extra_version"
xenhypfs write $T/set_function_filter "$funcs" || fail "filter"
xenhypfs write $T/current_tracer function_graph || fail "tracer"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
hypercall_loop graph
xenhypfs write $T/tracing_on 0 || fail "off"
w=$(entries_written)
# The buffer's last records: do_xen_version() { xen_extra_version(); } per
# call, a record per line.  Calls hooked: a leaf's line or a "}" each.
opens=$(grep -c '^ *[0-9]*) .*do_xen_version() {$' /tmp/bench.trace) || true
leaves=$(grep -c '^ *[0-9]*) .*xen_extra_version();$' /tmp/bench.trace) || true
closes=$(grep -c '^ *[0-9]*) .*} /\* do_xen_version \*/$' /tmp/bench.trace) || true
[ "$leaves" -gt 100 ] && [ "$opens" -gt 100 ] && [ "$closes" -gt 100 ] ||
    fail "not nested: opens=$opens leaves=$leaves closes=$closes"
# Three records per call of the path: an entry, a leaf, a return.
[ "$w" -ge "$((3 * BENCH_CALLS))" ] || fail "only $w records for $BENCH_CALLS calls"
echo "BENCH graph_records written=$w calls=$BENCH_TRACED_CALLS functions=$(echo $funcs | wc -w) opens=$opens leaves=$leaves closes=$closes"
reset_tracing
