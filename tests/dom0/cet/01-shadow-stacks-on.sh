# The cet suite runs under bochs on a CPU with CET (scripts/boot.sh, EMULATOR=bochs): Xen's boot
# log says it turned shadow stacks and IBT on for itself, and function_graph and the profiler's
# timing are offered there, not refused (R10, docs/designs/dyntrace-return.md).
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
xl dmesg >/tmp/dmesg || fail "xl dmesg"
grep -q 'Enabling Supervisor Shadow Stacks' /tmp/dmesg ||
    { grep -i 'cet\|shadow' /tmp/dmesg; fail "Xen did not turn shadow stacks on"; }
grep -q 'Enabling Indirect Branch Tracking' /tmp/dmesg ||
    { grep -i 'cet\|ibt\|indirect' /tmp/dmesg; fail "Xen did not turn IBT on"; }
grep -E 'Enabling (Supervisor Shadow Stacks|Indirect Branch Tracking)' /tmp/dmesg
reset_tracing
run xenhypfs write $T/set_function_filter "do_xen_version xen_extra_version"
run xenhypfs write $T/current_tracer function_graph
expect_eq "current_tracer" function_graph "$(xenhypfs cat $T/current_tracer)"
run xenhypfs write $T/function_profile_enabled 1
xenhypfs cat $T/trace_stat/domains >/tmp/dom || fail "reading trace_stat/domains"
head -n1 /tmp/dom
grep -q 'returns not timed' /tmp/dom && fail "the profiler does not time returns"
reset_tracing
