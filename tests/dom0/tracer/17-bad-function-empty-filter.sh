# The function tracer needs a filter (as the RFC says, empty means none; "*"
# selects every function): selecting it with an empty filter is refused with
# ENODATA.
. /opt/dyntrace/tests/lib.sh
reset_tracing
save_state /tmp/state.before
expect_error "No data available" xenhypfs write $T/current_tracer function
check_state /tmp/state.before
