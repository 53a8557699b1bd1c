# A domain with HypFS access but not the livepatch operation (dyntrace_hypfs_t: the policy
# module tests/flask/dyntrace.te) may read /tracing, switch tracing on and off and clear the
# buffers, but every write that rewrites hypervisor text (current_tracer, set_function_filter,
# set_function_notrace, function_profile_enabled) is refused with EACCES, FLASK's denial,
# logged in error_log, and changes nothing: the tracer, its filters and its patched entries are
# dom0's still. The domU runs tests/dom0/domu-flask/.
. /opt/dyntrace/tests/lib.sh
setup_state
save_state /tmp/state.before
xenhypfs cat $T/trace >/tmp/trace.before
expect_eq "records before the domU" 2 "$(count_records /tmp/trace.before xen_extra_version)"

start_domu hypfsonly domu-flask 1 system_u:system_r:dyntrace_hypfs_t
log=/var/log/xen/console/guest-hypfsonly.log
domid=$(xl domid hypfsonly)
run xl list -Z
grep -E '^hypfsonly .*system_u:system_r:dyntrace_hypfs_t' /tmp/run.out || fail "the domU is not labelled dyntrace_hypfs_t"
wait_domu hypfsonly 180
xl destroy hypfsonly 2>/dev/null || true
n=$(xl dmesg | grep -c "avc:  denied  { livepatch_op } for current=d$domid scontext=system_u:system_r:dyntrace_hypfs_t ")
echo "FLASK denials of livepatch_op to d$domid: $n"
[ "$n" -ge 1 ] || fail "Xen logged no FLASK denial of livepatch_op to the domU"
xl dmesg | grep "avc:  denied  { hypfs_op } for current=d$domid " && fail "FLASK denied the domU HypFS access"

res() { tr -d '\r' <$log | grep "DOMU-RESULT $1 " | sed "s/.*DOMU-RESULT $1 //"; }
want() { # want NAME PATTERN: the domU's result NAME matches the extended PATTERN
    r=$(res "$1")
    echo "$r" | grep -qE "$2" || fail "$1 in the domU: '$r', expected /$2/"
}
want xenhypfs-cat-current_tracer '^succeeded: function $'
want xenhypfs-cat-set_function_filter '^succeeded: xen_extra_version $'
want xenhypfs-cat-enabled_functions '^succeeded: xen_extra_version'
want xenhypfs-cat-trace '^succeeded: 2 records of xen_extra_version$'
for f in current_tracer set_function_filter set_function_notrace function_profile_enabled; do
    want raw-write-$f 'errno=EACCES$'
done
want xenhypfs-write-current_tracer '^failed: .*Permission denied'
want xenhypfs-cat-error_log "current_tracer: '\\(the livepatch permission\\)'"
want xenhypfs-write-tracing_on-1 '^succeeded: $'
want xenhypfs-cat-tracing_on '^succeeded: 1 $'
want xenhypfs-write-tracing_on-0 '^succeeded: $'
want xenhypfs-write-trace-clear '^succeeded: $'
want xenhypfs-cat-trace-cleared '^succeeded: 0 records of xen_extra_version$'

# dom0's tracer, filters, patched entries and switches are as they were; only the records are
# gone (the domU cleared them).
grep -v -e '^on=' -e ': xen_extra_version <-' /tmp/state.before >/tmp/state.kept
save_state /tmp/state.after
grep -v -e '^on=' -e ': xen_extra_version <-' /tmp/state.after >/tmp/state.now
cmp -s /tmp/state.kept /tmp/state.now || { cat /tmp/state.kept; echo ---; cat /tmp/state.now; fail "the domU changed dom0's tracing state"; }
expect_eq "tracing_on" 0 "$(xenhypfs cat $T/tracing_on)"
# And the entry is still patched: dom0 records a call.
run xenhypfs write $T/tracing_on 1
cat /sys/hypervisor/version/extra >/dev/null
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace >/tmp/trace.after
expect_eq "records after the domU" 1 "$(count_records /tmp/trace.after xen_extra_version)"
reset_tracing
