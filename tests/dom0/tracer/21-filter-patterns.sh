# Filter patterns ('*' and '?', as ftrace's set_ftrace_filter): a pattern
# selects every traceable function it matches, by either name form; one that
# matches nothing is refused with ENOENT and changes nothing; '*' selects all
# of available_functions and records under load are well-formed.
. /opt/dyntrace/tests/lib.sh
reset_tracing

run xenhypfs write $T/set_function_filter 'xen_extra_vers?on'
expect_eq "filter of xen_extra_vers?on" xen_extra_version "$(xenhypfs cat $T/set_function_filter)"

run xenhypfs write $T/set_function_filter 'do_xen_*'
xenhypfs cat $T/set_function_filter >/tmp/f
grep -qx do_xen_version /tmp/f || fail "do_xen_* did not select do_xen_version"
grep -v '^do_xen_' /tmp/f | grep -v '#do_xen_' && fail "do_xen_* selected a function it does not match"
# Every selected name is an available function.
xenhypfs cat $T/available_functions >/tmp/avail
while read -r f; do grep -qxF "$f" /tmp/avail || fail "$f selected but not available"; done </tmp/f

setup_state
bad_write "No such file or directory" $T/set_function_filter 'no_such_function_*'
bad_write "No such file or directory" $T/set_function_filter 'xen_extra_version no_such_*'

# Everything: the filter lists every available function, patching all of them
# succeeds, records are well-formed, and nop takes every entry back.
reset_tracing
run xenhypfs write $T/set_function_filter '*'
expect_eq "functions selected by *" "$(sort -u /tmp/avail | wc -l)" "$(xenhypfs cat $T/set_function_filter | sort -u | wc -l)"
run xenhypfs write $T/current_tracer function
run xenhypfs write $T/tracing_on 1
for i in 1 2 3; do cat /sys/hypervisor/version/extra >/dev/null; done
ls /proc >/dev/null
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace >/tmp/trace || fail "reading the trace"
check_trace_wellformed /tmp/trace
grep '^# entries-in-buffer' /tmp/trace
n=$(record_lines /tmp/trace | wc -l)
d=$(record_lines /tmp/trace | sed 's/.*: \([^ ]*\) <-.*/\1/' | sort -u | wc -l)
note "records: $n; distinct functions: $d"
# Each CPU keeps its newest records only, so which functions remain depends on
# what ran last; but tracing everything must show many functions.
[ "$n" -ge 100 ] || fail "only $n records while tracing every function"
[ "$d" -ge 20 ] || fail "only $d distinct functions while tracing every function"
reset_tracing
entry_is_untraced || fail "xen_extra_version's entry not restored after tracing everything"
