# Row 3b: the function tracer on the benchmark's hypercall path, recording on,
# but with dom0 (the caller) filtered out by set_domain_filter: what a call
# costs when its domain is not traced.
. /opt/dyntrace/tests/bench/lib-bench.inc
needs_series 2 set_domain_filter
reset_tracing
funcs="do_xen_version xen_extra_version"
xenhypfs write $T/set_function_filter "$funcs" || fail "filter"
xenhypfs write $T/current_tracer function || fail "tracer"
xenhypfs write $T/set_domain_filter '!d0' || fail "domain filter"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
hypercall_loop domfiltered
xenhypfs write $T/tracing_on 0 || fail "off"
w=$(entries_written)
# Filtered out: dom0's calls leave no record (the idle vCPU makes none here).
[ "$w" -eq 0 ] || fail "$w records with dom0 filtered out"
echo "BENCH domfiltered_records written=$w functions=$(echo $funcs | wc -w)"
reset_tracing
