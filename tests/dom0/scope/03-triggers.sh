# Triggers in ftrace's command syntax, written to set_function_filter:
# "name:traceoff[:count]" turns recording off when name runs, so the buffer
# ends at that call; "name:traceon[:count]" turns it on; a count is the number
# of times it may fire (a trigger fires, and uses one, only when it changes
# tracing_on).  They read back after the filter's names ("name:cmd:count=N"
# or ":unlimited"), the readback written back changes nothing, and
# "!name:cmd" removes one.  "stacktrace" is refused (EOPNOTSUPP).
. /opt/dyntrace/tests/lib.sh
needs_series 2 set_domain_filter
reset_tracing
ver() { cat /sys/hypervisor/version/extra >/dev/null; }
on() { xenhypfs cat $T/tracing_on; }
last_fn() { record_lines "$1" | tail -n1 | sed 's/.*: \([^ ]*\) <-.*/\1/'; }
# (dom0's kernel makes other xen_version calls now and then: count only
# xen_extra_version, which only the reads of version/extra reach.)
extra() { count_records "$1" xen_extra_version; }

run xenhypfs write $T/set_function_filter 'do_xen_version xen_extra_version'
run xenhypfs write $T/set_function_filter 'xen_extra_version:traceoff'
expect_eq "filter with the trigger" "do_xen_version
xen_extra_version
xen_extra_version:traceoff:unlimited" "$(xenhypfs cat $T/set_function_filter)"
run xenhypfs write $T/current_tracer function
run xenhypfs write $T/tracing_on 1
ver
expect_eq "tracing_on after the traceoff trigger" 0 "$(on)"
xenhypfs cat $T/trace >/tmp/tg.trace
ver; ver
xenhypfs cat $T/trace >/tmp/tg2.trace
check_trace_wellformed /tmp/tg2.trace
cat /tmp/tg2.trace
expect_eq "xen_extra_version records (one call, then off)" 1 "$(extra /tmp/tg2.trace)"
expect_eq "the buffer ends at" xen_extra_version "$(last_fn /tmp/tg2.trace)"
expect_eq "records added while off" "$(record_lines /tmp/tg.trace | wc -l)" "$(record_lines /tmp/tg2.trace | wc -l)"
run xenhypfs write $T/tracing_on 1
ver
expect_eq "fires again (unlimited)" 0 "$(on)"

# The count form: fires twice, then no more.
run xenhypfs write $T/set_function_filter 'xen_extra_version:traceoff:2'
expect_eq "count readback" "xen_extra_version:traceoff:count=2" \
    "$(xenhypfs cat $T/set_function_filter | grep :)"
fired=0
for i in 1 2 3 4; do
    run xenhypfs write $T/trace ""
    run xenhypfs write $T/tracing_on 1
    ver; ver
    if [ "$(on)" = 0 ]; then
        fired=$((fired + 1))
        xenhypfs cat $T/trace >/tmp/tg.trace
        expect_eq "firing $fired: the buffer ends at" xen_extra_version "$(last_fn /tmp/tg.trace)"
        expect_eq "firing $fired: xen_extra_version records" 1 "$(extra /tmp/tg.trace)"
    else
        xenhypfs cat $T/trace >/tmp/tg.trace
        expect_eq "not fired: xen_extra_version records of 2 calls" 2 "$(extra /tmp/tg.trace)"
    fi
done
expect_eq "times the count-2 trigger fired" 2 "$fired"
expect_eq "count left" "xen_extra_version:traceoff:count=0" \
    "$(xenhypfs cat $T/set_function_filter | grep :)"

# What reads back can be written back: nothing changes.
xenhypfs cat $T/set_function_filter >/tmp/tg.filter
run xenhypfs write $T/set_function_filter "$(cat /tmp/tg.filter)"
expect_eq "filter written back" "$(cat /tmp/tg.filter)" "$(xenhypfs cat $T/set_function_filter)"

# Removal; then traceon with a count of 1.
run xenhypfs write $T/set_function_filter '!xen_extra_version:traceoff'
expect_eq "triggers after removal" "" "$(xenhypfs cat $T/set_function_filter | grep : || true)"
run xenhypfs write $T/tracing_on 0
run xenhypfs write $T/trace ""
run xenhypfs write $T/set_function_filter 'xen_extra_version:traceon:1'
ver
expect_eq "tracing_on after the traceon trigger" 1 "$(on)"
ver
xenhypfs cat $T/trace >/tmp/tg.trace
cat /tmp/tg.trace
expect_eq "xen_extra_version records after traceon (the second call)" 1 "$(extra /tmp/tg.trace)"
run xenhypfs write $T/tracing_on 0
ver
expect_eq "count used: no second traceon" 0 "$(on)"

# A trigger's function is patched even outside the filter.
run xenhypfs write $T/set_function_filter '!xen_extra_version:traceon'
run xenhypfs write $T/set_function_filter 'do_xen_version'
run xenhypfs write $T/set_function_filter 'xen_extra_version:traceoff'
xenhypfs cat $T/enabled_functions | grep -q '^xen_extra_version ' || fail "trigger's function not patched"

# Refused: stacktrace, unknown commands, bad counts, unknown functions.
run xenhypfs write $T/error_log ""
bad_write "Operation not supported" $T/set_function_filter 'xen_extra_version:stacktrace'
bad_write "Invalid argument" $T/set_function_filter 'xen_extra_version:traceof'
bad_write "Invalid argument" $T/set_function_filter 'xen_extra_version:traceoff:x'
bad_write "Invalid argument" $T/set_function_filter 'xen_*:traceoff'
bad_write "No such file or directory" $T/set_function_filter 'no_such_function:traceoff'
bad_write "No such file or directory" $T/set_function_filter '!do_xen_version:traceon'
xenhypfs cat $T/error_log >/tmp/el
cat /tmp/el
grep -q "set_function_filter: 'xen_extra_version:stacktrace': not supported" /tmp/el ||
    fail "error_log does not name the stacktrace trigger"
reset_tracing
expect_eq "no trigger after reset" "" "$(xenhypfs cat $T/set_function_filter)"
