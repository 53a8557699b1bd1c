# The RFC's example session, as typed in the cover letter (make demo prints it).
. /opt/dyntrace/tests/lib.sh
show() { echo "\$ $*"; "$@" 2>&1 || { echo "(exit $?)"; failed=1; }; }
failed=0
echo "// List the tracable functions (first 5 of $(xenhypfs cat /tracing/available_functions | wc -l))."
echo "\$ xenhypfs cat /tracing/available_functions | head -n 5"
xenhypfs cat /tracing/available_functions | head -n 5
echo "// List the available tracers."
show xenhypfs cat /tracing/available_tracers
echo "// Select the function to trace."
show xenhypfs write /tracing/set_function_filter xen_extra_version
echo "// Select the tracer."
show xenhypfs write /tracing/current_tracer function
echo "// Record calls to the selected function."
show xenhypfs write /tracing/tracing_on 1
echo "// Call xen_extra_version()."
show cat /sys/hypervisor/version/extra
echo "// Stop recording and read the output."
show xenhypfs write /tracing/tracing_on 0
show xenhypfs cat /tracing/trace
echo "// Reset."
show xenhypfs write /tracing/set_function_filter ""
show xenhypfs write /tracing/current_tracer nop
show xenhypfs write /tracing/trace ""
exit $failed
