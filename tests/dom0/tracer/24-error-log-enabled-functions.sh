# error_log (ftrace's): each failed write names its file, the word that failed
# and why; "" clears it.  enabled_functions (ftrace's): each patched entry with
# its tracer and the bytes it holds, matching the entries: a listed function
# refuses a livepatch that expects its untraced bytes, an unlisted one takes it.
. /opt/dyntrace/tests/lib.sh
reset_tracing
run xenhypfs write $T/error_log ""
expect_eq "error_log after a clear" "" "$(xenhypfs cat $T/error_log)"
expect_error "No such file or directory" xenhypfs write $T/set_function_filter 'xen_extra_version no_such_function'
expect_error "Invalid argument" xenhypfs write $T/current_tracer functoin
expect_error "Invalid argument" xenhypfs write $T/set_function_notrace '!'
xenhypfs cat $T/error_log >/tmp/el
cat /tmp/el
expect_eq "error_log lines" 3 "$(grep -c . /tmp/el)"
grep -q "\] set_function_filter: 'no_such_function': no such function" /tmp/el || fail "error_log does not name no_such_function"
grep -q "\] current_tracer: 'functoin': invalid value (-22)" /tmp/el || fail "error_log does not name functoin"
grep -q "\] set_function_notrace: '!': invalid value" /tmp/el || fail "error_log does not name '!'"
run xenhypfs write $T/error_log ""
expect_eq "error_log after a clear" "" "$(xenhypfs cat $T/error_log)"

expect_eq "enabled_functions under nop" "" "$(xenhypfs cat $T/enabled_functions)"
run xenhypfs write $T/set_function_filter 'do_xen_version xen_extra_version'
run xenhypfs write $T/current_tracer function
xenhypfs cat $T/enabled_functions >/tmp/ef
cat /tmp/ef
expect_eq "enabled_functions lines" 2 "$(grep -c . /tmp/ef)"
line=$(grep '^xen_extra_version (1) ->function ' /tmp/ef) || fail "xen_extra_version not in enabled_functions"
bytes=${line#xen_extra_version (1) ->function }
case $(uname -m) in
    x86_64) echo "$bytes" | grep -Eq '^e8( [0-9a-f]{2}){4}$' || fail "not a CALL rel32: $bytes" ;;
    aarch64) echo "$bytes" | grep -Eq '^e9 03 1e aa [0-9a-f]{2} [0-9a-f]{2} [0-9a-f]{2} 9[4-7]$' ||
        fail "not 'mov x9, x30; bl': $bytes" ;;
esac
# Listed: the entry is patched, a livepatch expecting the untraced bytes fails.
entry_is_untraced && fail "xen_extra_version listed but its entry holds the untraced bytes"
run xenhypfs write $T/set_function_filter do_xen_version
xenhypfs cat $T/enabled_functions >/tmp/ef
grep -q '^xen_extra_version ' /tmp/ef && fail "xen_extra_version still listed"
expect_eq "enabled_functions lines" 1 "$(grep -c . /tmp/ef)"
entry_is_untraced || fail "xen_extra_version not listed but its entry is not untraced"
reset_tracing
expect_eq "enabled_functions after reset" "" "$(xenhypfs cat $T/enabled_functions)"
