# The function tracer needs a filter (tracing every function does not exist
# yet): selecting it with an empty filter is refused with ENODATA.
. /opt/dyntrace/tests/lib.sh
reset_tracing
save_state /tmp/state.before
expect_error "No data available" xenhypfs write $T/current_tracer function
check_state /tmp/state.before
