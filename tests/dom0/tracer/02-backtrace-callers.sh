# Backtraces name the callers of hooked functions (second review, defect 7):
# with function_graph tracing do_xen_version, its return address waits on
# the return stack and its stack slot holds the return trampoline.  The
# xen_dyntrace_warn payload replaces xen_extra_version, which
# do_xen_version calls, with a function that WARN()s: the call trace Xen
# prints must show do_xen_version and its real caller, never
# dyntrace_return_trampoline.  Xen's console is read back with console-raw.
# x86_64 only: Xen on Arm does not take a WARN() (its BRK) from a livepatch
# payload, which panics with "Unexpected Trap: Undefined Breakpoint Value".
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
[ "$(uname -m)" = x86_64 ] ||
    skip "Xen on Arm panics on a WARN() in a livepatch payload (unexpected BRK): no way to provoke the call trace from dom0"
reset_tracing
run xenhypfs write $T/set_function_filter do_xen_version
run xenhypfs write $T/current_tracer function_graph
run xenhypfs write $T/tracing_on 1
run $LP upload xen_dyntrace_warn $payload_dir/xen_dyntrace_warn.livepatch
livepatch_retry apply xen_dyntrace_warn || fail "applying xen_dyntrace_warn"
extra=$(cat /sys/hypervisor/version/extra)
livepatch_retry revert xen_dyntrace_warn || fail "reverting xen_dyntrace_warn"
run $LP unload xen_dyntrace_warn
expect_eq "the payload's extra version" "Hello World" "$extra"
# The graph saw the call return through the trampoline: a leaf with its duration.
xenhypfs cat $T/trace >/tmp/bt.trace || fail "reading the trace"
grep -q '|  do_xen_version();$' /tmp/bt.trace ||
    { cat /tmp/bt.trace; fail "no return of do_xen_version in the trace"; }
reset_tracing

# The call trace of the last WARN: the "[<address>]" lines after its
# "Xen call trace:" (console lines may carry "(XEN) " and a time stamp).
/opt/dyntrace/bin/console-raw >/tmp/bt.console || fail "reading Xen's console"
grep -q "Xen WARN at" /tmp/bt.console || fail "no WARN on Xen's console"
awk '/Xen WARN at/ { warn = 1 }
     warn && /Xen call trace:/ { on = 1; tr = ""; next }
     on && !/\[</ { on = 0; warn = 0; last = tr }
     on { tr = tr $0 "\n" }
     END { if (on) last = tr; printf "%s", last }' /tmp/bt.console >/tmp/bt.trace
cat /tmp/bt.trace
[ -s /tmp/bt.trace ] || fail "no call trace after the WARN"
# A diverted slot holds the trampoline's very address (+0x0); the trace scans every word of the
# stack, so a return address inside the trampoline (+N) left in dead stack by an earlier return
# is not one.  This test runs second in the suite, before any other test hooks a return, so no
# earlier diverted slot's value lies in dead stack either.
if grep -q 'dyntrace_return_trampoline+0x0/' /tmp/bt.trace; then
    fail "the call trace shows the return trampoline instead of a caller"
fi
grep -q 'do_xen_version+' /tmp/bt.trace || fail "do_xen_version is not in the call trace"
# do_xen_version's own caller, the hypercall dispatch, is named after it (the trace scans every
# word of the stack, so other text addresses may come between).
awk '/do_xen_version\+/ { f = 1 } f && index($0, " pv_hypercall+") { found = 1 }
     END { exit !found }' /tmp/bt.trace ||
    fail "pv_hypercall, do_xen_version's caller, is not after it in the call trace"
