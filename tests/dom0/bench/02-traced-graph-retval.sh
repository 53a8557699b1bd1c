# Row 3g: row 3c with options/funcgraph-retval on: each return's record holds
# the value the function returned (the same records, the same count).
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
funcs="do_xen_version xen_extra_version"
xenhypfs write $T/set_function_filter "$funcs" || fail "filter"
xenhypfs write $T/current_tracer function_graph || fail "tracer"
xenhypfs write $T/options/funcgraph-retval 1 || fail "funcgraph-retval"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
hypercall_loop graph_retval
xenhypfs write $T/tracing_on 0 || fail "off"
w=$(entries_written)
# As row 3c, every leaf and "}" with its value: do_xen_version returns 0.
opens=$(grep -c '^ *[0-9]*) .*do_xen_version() {$' /tmp/bench.trace) || true
leaves=$(grep -c '^ *[0-9]*) .*xen_extra_version(); /\* ret=0x[0-9a-f]* \*/$' /tmp/bench.trace) || true
closes=$(grep -c '^ *[0-9]*) .*} /\* do_xen_version ret=0x0 \*/$' /tmp/bench.trace) || true
[ "$leaves" -gt 100 ] && [ "$opens" -gt 100 ] && [ "$closes" -gt 100 ] ||
    fail "not nested with values: opens=$opens leaves=$leaves closes=$closes"
[ "$w" -ge "$((3 * BENCH_CALLS))" ] || fail "only $w records for $BENCH_CALLS calls"
echo "BENCH graph_retval_records written=$w calls=$BENCH_TRACED_CALLS functions=$(echo $funcs | wc -w) opens=$opens leaves=$leaves closes=$closes"
xenhypfs write $T/options/funcgraph-retval 0 || fail "funcgraph-retval off"
reset_tracing
