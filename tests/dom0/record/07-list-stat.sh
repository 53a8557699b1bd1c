# xen-dyntrace list and stat against the running hypervisor.
# - list -t: the tracers of available_tracers, one per line; list -f PATTERN: exactly the
#   functions of available_functions the glob matches; list -f with a pattern matching nothing
#   says so; list -e PATTERN: exactly the events of available_events the glob matches; list
#   with no option: tracers, the number of functions and of events; usage errors exit 2.
# - stat: each setting as Xen has it (after setting a filter, a trigger, the domain filter and
#   the tracer, stat shows each), how many functions are patched, error_log, and one
#   per_cpu/cpuN/stats block per CPU; it changes nothing.
. /opt/dyntrace/tests/lib.sh
reset_tracing

# list -t
xen-dyntrace list -t >/tmp/list.out 2>/tmp/list.err || { cat /tmp/list.err; fail "list -t exited $?"; }
cat /tmp/list.out
xenhypfs cat $T/available_tracers | tr ' ' '\n' | grep -v '^$' >/tmp/tracers.want
cmp -s /tmp/tracers.want /tmp/list.out || fail "list -t differs from available_tracers"
grep -qx function /tmp/list.out && grep -qx nop /tmp/list.out || fail "list -t: no nop or function"

# list -f PATTERN: the same set as a grep of available_functions.
xen-dyntrace list -f 'do_xen*' >/tmp/list.out 2>/tmp/list.err || fail "list -f exited $?"
xenhypfs cat $T/available_functions | grep '^do_xen' >/tmp/funcs.want || true
cmp -s /tmp/funcs.want /tmp/list.out || { cat /tmp/list.out; fail "list -f 'do_xen*' differs from available_functions"; }
grep -qx do_xen_version /tmp/list.out || fail "list -f 'do_xen*': no do_xen_version"
echo "list -f 'do_xen*': $(wc -l </tmp/list.out) functions, as available_functions"
all=$(xen-dyntrace list -f | wc -l)
expect_eq "list -f (every function)" "$(xenhypfs cat $T/available_functions | wc -l)" "$all"
xen-dyntrace list -f 'no_such_function_*' >/tmp/list.out 2>/tmp/list.err
rc=$?
expect_eq "exit status of list -f matching nothing" 0 "$rc"
[ ! -s /tmp/list.out ] || fail "list -f matching nothing printed"
grep -q "no traceable function matches 'no_such_function_\*'" /tmp/list.err || { cat /tmp/list.err; fail "list -f matching nothing said nothing"; }

# list -e PATTERN: Xen's trace points, as available_events lists them.
xen-dyntrace list -e 'sched:*' >/tmp/list.out 2>/tmp/list.err || { cat /tmp/list.err; fail "list -e exited $?"; }
xenhypfs cat $T/available_events | grep '^sched:' >/tmp/events.want || true
cmp -s /tmp/events.want /tmp/list.out || { cat /tmp/list.out; fail "list -e 'sched:*' differs from available_events"; }
grep -qx sched:sched_switch /tmp/list.out || fail "list -e 'sched:*': no sched:sched_switch"
nev=$(xenhypfs cat $T/available_events | grep -c .)

# list: an overview.
xen-dyntrace list >/tmp/list.out || fail "list exited $?"
cat /tmp/list.out
grep -qx "functions: $all (xen-dyntrace list -f \[PATTERN\])" /tmp/list.out || fail "list: no function count $all"
grep -qx "events: $nev (xen-dyntrace list -e \[PATTERN\])" /tmp/list.out || fail "list: no event count $nev"

for args in "-t -f" "-z" "-f a b"; do
    xen-dyntrace list $args >/dev/null 2>&1
    expect_eq "exit status of 'list $args'" 2 "$?"
done

# stat: the boot settings, then each change seen.
save_state /tmp/state.before
xen-dyntrace stat >/tmp/stat.out 2>/tmp/stat.err || { cat /tmp/stat.err; fail "stat exited $?"; }
cat /tmp/stat.out
grep -qx 'tracer: nop' /tmp/stat.out || fail "stat: not 'tracer: nop'"
grep -qx 'tracing_on: 0' /tmp/stat.out || fail "stat: not 'tracing_on: 0'"
grep -qx 'function filter: (every function)' /tmp/stat.out || fail "stat: the filter at boot"
grep -qx 'functions patched: 0 (enabled_functions)' /tmp/stat.out || fail "stat: functions patched at boot"
n=$(xen_cpus) || fail "$n"
expect_eq "per_cpu stats blocks in stat" "$n" "$(grep -c '^per_cpu/cpu[0-9]*/stats:$' /tmp/stat.out)"
grep -q '^    entries: ' /tmp/stat.out || fail "stat: no 'entries:' of a CPU"
save_state /tmp/state.after
cmp -s /tmp/state.before /tmp/state.after || fail "stat changed the state"

run xenhypfs write $T/set_function_filter "do_xen_version xen_extra_version"
run xenhypfs write $T/set_function_filter "xen_extra_version:traceoff:3"
run xenhypfs write $T/set_domain_filter "d0 !d0v1"
run xenhypfs write $T/current_tracer function
xen-dyntrace stat >/tmp/stat.out || fail "stat exited $?"
cat /tmp/stat.out
grep -qx 'tracer: function' /tmp/stat.out || fail "stat: not 'tracer: function'"
grep -qx 'domain filter: d0 !d0v1' /tmp/stat.out || fail "stat: the domain filter"
sed -n '/^function filter:$/,/^[a-z]/p' /tmp/stat.out >/tmp/filter.out
grep -qx '    do_xen_version' /tmp/filter.out && grep -qx '    xen_extra_version' /tmp/filter.out &&
    grep -qx '    xen_extra_version:traceoff:count=3' /tmp/filter.out || fail "stat: the filter's names and trigger"
grep -qx 'functions patched: 2 (enabled_functions)' /tmp/stat.out || fail "stat: 2 functions patched"
reset_tracing
