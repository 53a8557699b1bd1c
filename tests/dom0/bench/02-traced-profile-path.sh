# Row 3d: the function profiler on the benchmark's hypercall path, under the
# nop tracer: each call of the two functions is counted in its CPU's table
# and, where returns are hooked (x86_64), a sample of them (design.md P8)
# timed through the return trampoline; the header says how many.
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
funcs="do_xen_version xen_extra_version"
xenhypfs write $T/set_function_filter "$funcs" || fail "filter"
xenhypfs write $T/function_profile_enabled 1 || fail "profiler on"
hypercall_loop profile
xenhypfs write $T/function_profile_enabled 0 || fail "profiler off"
xenhypfs cat $T/trace_stat/domains >/tmp/bench.prof || fail "reading trace_stat/domains"
cat /tmp/bench.prof
hits=$(awk '$1 == "d0" { n += $3 } END { print n + 0 }' /tmp/bench.prof)
[ "$hits" -ge "$BENCH_TRACED_CALLS" ] || fail "only $hits hits for $BENCH_TRACED_CALLS calls"
timed=$(head -n1 /tmp/bench.prof | sed -n 's/.*, timed: \([0-9]*\) of .*/\1/p')
echo "BENCH profile_hits hits=$hits calls=$BENCH_TRACED_CALLS functions=$(echo $funcs | wc -w) timed=${timed:-0}"
reset_tracing
