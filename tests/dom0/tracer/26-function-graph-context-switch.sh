# function_graph on the functions of the scheduler and the context switch,
# whose stacks Xen abandons (reset_stack_and_jump()): while dom0 keeps both
# its vCPUs busy, Xen must not crash, and every "}" must close the call open
# at its depth on its stack (graph_nesting: a pCPU's on x86_64, a vCPU's on
# arm64; a return never given to another function); no duration is negative.
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
reset_tracing
run xenhypfs write $T/set_function_filter "*schedule* *context_switch* *softirq* vcpu_* do_xen_version xen_extra_version"
run xenhypfs write $T/current_tracer function_graph
# Room for the whole run where the buffers can be sized (series 4); else the boot's size.
if xenhypfs cat $T/buffer_size_kb >/dev/null 2>&1; then run xenhypfs write $T/buffer_size_kb 1024; fi
xenhypfs write $T/tracing_on 1 || fail "on"
( i=0; while [ $i -lt 60 ]; do cat /sys/hypervisor/version/extra >/dev/null; i=$((i + 1)); done ) &
( i=0; while [ $i -lt 60 ]; do cat /sys/hypervisor/version/extra >/dev/null; sleep 0.001; i=$((i + 1)); done ) &
wait
xenhypfs write $T/tracing_on 0 || fail "off"
xenhypfs cat $T/trace >/tmp/cs || fail "reading the trace"
head -n 20 /tmp/cs
grep '^# returns not hooked' /tmp/cs
res=$(graph_nesting /tmp/cs)
echo "$res"
case "$res" in *" misattributed=0 negative=0 other=0") ;; *) fail "bad graph: $res" ;; esac
m=$(echo "$res" | sed 's/.*matched=\([0-9]*\).*/\1/')
[ "$m" -ge 100 ] || fail "only $m calls closed"
reset_tracing
