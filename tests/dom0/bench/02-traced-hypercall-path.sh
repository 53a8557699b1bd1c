# Row 3: the function tracer on the benchmark's hypercall path, recording.
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
funcs="do_xen_version xen_extra_version"
xenhypfs write $T/set_function_filter "$funcs" || fail "filter"
xenhypfs write $T/current_tracer function || fail "tracer"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
hypercall_loop traced
xenhypfs write $T/tracing_on 0 || fail "off"
w=$(entries_written)
check_trace_wellformed /tmp/bench.trace
[ "$w" -ge "$BENCH_CALLS" ] || fail "only $w records for $BENCH_CALLS calls"
echo "BENCH traced_records written=$w calls=$BENCH_TRACED_CALLS functions=$(echo $funcs | wc -w)"
reset_tracing
