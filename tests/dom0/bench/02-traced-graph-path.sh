# Row 3c: the function_graph tracer on the benchmark's hypercall path,
# recording: each traced call costs its entry (record + return hooked) and
# its return (the return trampoline + record).
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
# An entry and a return per traced call.
[ "$w" -ge "$((2 * BENCH_CALLS))" ] || fail "only $w records for $BENCH_CALLS calls"
echo "BENCH graph_records written=$w calls=$BENCH_TRACED_CALLS functions=$(echo $funcs | wc -w)"
reset_tracing
