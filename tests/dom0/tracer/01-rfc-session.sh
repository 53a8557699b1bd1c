# The RFC's example session, command by command, with its outcome checked:
# one record per read of version/extra made while tracing was on, none before
# or after, and a clean state after the reset steps.
. /opt/dyntrace/tests/lib.sh
extra=/sys/hypervisor/version/extra

run xenhypfs cat /tracing/available_functions
grep -qx xen_extra_version /tmp/run.out || fail "xen_extra_version not in available_functions"
run xenhypfs cat /tracing/available_tracers
for t in nop function; do grep -qw "$t" /tmp/run.out || fail "tracer $t not available"; done
run xenhypfs write /tracing/set_function_filter xen_extra_version
run xenhypfs write /tracing/current_tracer function
cat $extra >/dev/null                     # before tracing_on 1: not recorded
run xenhypfs write /tracing/tracing_on 1
for i in 1 2 3; do run cat $extra; done    # recorded: three records
run xenhypfs write /tracing/tracing_on 0
cat $extra >/dev/null                     # after tracing_on 0: not recorded
run xenhypfs cat /tracing/trace
cp /tmp/run.out /tmp/trace
check_trace_wellformed /tmp/trace
expect_eq "records of xen_extra_version" 3 "$(count_records /tmp/trace xen_extra_version)"
grep -q '^# tracer: function$' /tmp/trace || fail "tracer line"
record_lines /tmp/trace | grep -qvE '^ *d0v[0-9]+ ' && fail "a record not from domain 0"
record_lines /tmp/trace | grep ': xen_extra_version <-' | grep -q '<-0x' && fail "caller not symbolised"

run xenhypfs write /tracing/set_function_filter ""
run xenhypfs write /tracing/current_tracer nop
run xenhypfs write /tracing/trace ""
run xenhypfs cat /tracing/trace
cp /tmp/run.out /tmp/trace
check_trace_wellformed /tmp/trace
expect_eq "records after reset" 0 "$(record_lines /tmp/trace | wc -l)"
expect_eq "current_tracer after reset" nop "$(xenhypfs cat /tracing/current_tracer)"
expect_eq "filter after reset" "" "$(xenhypfs cat /tracing/set_function_filter)"
entry_is_untraced || fail "xen_extra_version's entry is not back to its boot bytes"
echo "entry bytes of xen_extra_version are back to their boot state"
