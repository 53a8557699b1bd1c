# Runs inside the domU that flask/05 starts labelled dyntrace_hypfs_t (not in dom0): under the
# FLASK policy it has HypFS access (xen:hypfs_op) but not the livepatch operation
# (xen2:livepatch_op). It reads /tracing; switches tracing on and off and clears the buffers (they
# patch nothing); every write that would rewrite hypervisor text is refused. Each result is a line
# "DOMU-RESULT name outcome" that the dom0 test reads from the console log.
. /opt/dyntrace/tests/lib.sh
result() { echo "DOMU-RESULT $1 $2"; }
try() {
    name=$1
    shift
    if "$@" >/tmp/o 2>&1; then
        result "$name" "succeeded: $(tr '\n' ' ' </tmp/o)"
    else
        result "$name" "failed: $(tr '\n' ' ' </tmp/o)"
    fi
}
try xenhypfs-cat-current_tracer xenhypfs cat $T/current_tracer
try xenhypfs-cat-set_function_filter xenhypfs cat $T/set_function_filter
try xenhypfs-cat-enabled_functions xenhypfs cat $T/enabled_functions
xenhypfs cat $T/trace >/tmp/trace 2>&1 && result xenhypfs-cat-trace "succeeded: $(count_records /tmp/trace xen_extra_version) records of xen_extra_version" ||
    result xenhypfs-cat-trace "failed: $(tr '\n' ' ' </tmp/trace)"
# The writes that patch text: raw, for the errno, and one through xenhypfs, as a user sees it.
result raw-write-current_tracer "$(hypfs-raw write $T/current_tracer 6e6f7000)"
result raw-write-set_function_filter "$(hypfs-raw write $T/set_function_filter 78656e5f76657273696f6e00)"
result raw-write-set_function_notrace "$(hypfs-raw write $T/set_function_notrace 78656e5f76657273696f6e00)"
result raw-write-function_profile_enabled "$(hypfs-raw write $T/function_profile_enabled 01)"
try xenhypfs-write-current_tracer xenhypfs write $T/current_tracer nop
try xenhypfs-cat-error_log xenhypfs cat $T/error_log
# The writes that patch nothing.
try xenhypfs-write-tracing_on-1 xenhypfs write $T/tracing_on 1
try xenhypfs-cat-tracing_on xenhypfs cat $T/tracing_on
try xenhypfs-write-tracing_on-0 xenhypfs write $T/tracing_on 0
try xenhypfs-write-trace-clear xenhypfs write $T/trace ""
xenhypfs cat $T/trace >/tmp/trace 2>&1 && result xenhypfs-cat-trace-cleared "succeeded: $(count_records /tmp/trace xen_extra_version) records of xen_extra_version" ||
    result xenhypfs-cat-trace-cleared "failed: $(tr '\n' ' ' </tmp/trace)"
echo "DOMU-DONE"
