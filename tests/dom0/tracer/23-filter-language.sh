# The filter language: '+word' adds to and '!word' removes from the current
# set in place, a plain first word replaces it; set_function_notrace wins over
# the filter, '*' included; what is read back is accepted when written back
# and changes nothing, even the whole of '*' (longer than 4096 bytes); bad
# words are refused with nothing changed.
. /opt/dyntrace/tests/lib.sh
reset_tracing
sorted_filter() { xenhypfs cat $T/$1 | sort | tr '\n' ' ' | sed 's/ $//'; }
three_calls() {
    run xenhypfs write $T/trace ""
    run xenhypfs write $T/tracing_on 1
    for i in 1 2 3; do cat /sys/hypervisor/version/extra >/dev/null; done
    run xenhypfs write $T/tracing_on 0
    xenhypfs cat $T/trace >/tmp/t || fail "reading the trace"
    check_trace_wellformed /tmp/t
}

run xenhypfs write $T/set_function_filter do_xen_version
run xenhypfs write $T/set_function_filter +xen_extra_version
expect_eq "filter after +xen_extra_version" "do_xen_version xen_extra_version" "$(sorted_filter set_function_filter)"
run xenhypfs write $T/current_tracer function
run xenhypfs write $T/set_function_filter '!do_xen_version'
expect_eq "filter after !do_xen_version" "xen_extra_version" "$(sorted_filter set_function_filter)"
three_calls
expect_eq "xen_extra_version records" 3 "$(count_records /tmp/t xen_extra_version)"
expect_eq "do_xen_version records" 0 "$(count_records /tmp/t do_xen_version)"

# '!' after '*' and set_function_notrace both win over '*'.
xenhypfs cat $T/available_functions | sort -u >/tmp/avail
run xenhypfs write $T/set_function_filter '* !do_xen_version'
xenhypfs cat $T/set_function_filter | sort -u >/tmp/f
expect_eq "functions selected by '* !do_xen_version'" "$(( $(wc -l </tmp/avail) - 1 ))" "$(wc -l </tmp/f)"
grep -qx do_xen_version /tmp/f && fail "'* !do_xen_version' kept do_xen_version"
run xenhypfs write $T/set_function_notrace xen_extra_version
expect_eq "notrace" xen_extra_version "$(xenhypfs cat $T/set_function_notrace)"
# '*' selects it, notrace keeps its entry untraced (a livepatch that expects
# the untraced bytes applies).
entry_is_untraced || fail "xen_extra_version patched although in set_function_notrace"
# The records, on a filter small enough not to wrap the buffers.
run xenhypfs write $T/set_function_filter 'do_xen_version xen_extra_version'
three_calls
[ "$(count_records /tmp/t do_xen_version)" -ge 3 ] || fail "do_xen_version: fewer than 3 records"
expect_eq "xen_extra_version records under notrace" 0 "$(count_records /tmp/t xen_extra_version)"
run xenhypfs write $T/set_function_notrace '!xen_extra_version'
expect_eq "notrace after !xen_extra_version" "" "$(xenhypfs cat $T/set_function_notrace)"
three_calls
expect_eq "xen_extra_version records once out of notrace" 3 "$(count_records /tmp/t xen_extra_version)"

# Read back, written back: accepted, nothing changes, even for every function.
run xenhypfs write $T/set_function_filter '*'
xenhypfs cat $T/set_function_filter >/tmp/all
size=$(wc -c </tmp/all)
[ "$size" -gt 4096 ] || fail "the readback of '*' is only $size bytes"
note "readback of '*': $size bytes"
run xenhypfs write $T/set_function_filter "$(cat /tmp/all)"
xenhypfs cat $T/set_function_filter | cmp -s - /tmp/all || fail "writing the readback back changed the filter"
run xenhypfs write $T/set_function_notrace 'do_xen_* !do_xen_version'
xenhypfs cat $T/set_function_notrace >/tmp/nt
run xenhypfs write $T/set_function_notrace "$(cat /tmp/nt)"
xenhypfs cat $T/set_function_notrace | cmp -s - /tmp/nt || fail "writing the notrace readback back changed it"

# Bad words: refused, nothing changed.
bad_write "Invalid argument" $T/set_function_filter '!'
bad_write "Invalid argument" $T/set_function_notrace '+'
bad_write "No such file or directory" $T/set_function_filter '+no_such_function'
bad_write "No such file or directory" $T/set_function_notrace '!no_such_function_*'
reset_tracing
