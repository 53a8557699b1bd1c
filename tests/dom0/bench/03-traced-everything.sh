# Row 5: the function tracer on every traceable function, recording.
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
xenhypfs write $T/set_function_filter '*' || fail "filter"
nfun=$(xenhypfs cat $T/set_function_filter | wc -l)
xenhypfs write $T/current_tracer function || fail "tracer"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
hypercall_loop traced_all
xenhypfs write $T/tracing_on 0 || fail "off"
w=$(entries_written)
check_trace_wellformed /tmp/bench.trace
echo "BENCH traced_all_records written=$w calls=$BENCH_TRACED_CALLS functions=$nfun"
grep -v '^#' /tmp/bench.trace | tail -n 40 | sed 's/^/  /'
reset_tracing
