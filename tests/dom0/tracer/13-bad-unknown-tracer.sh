# An unknown tracer is refused with EINVAL; nothing changes.
. /opt/dyntrace/tests/lib.sh
setup_state
bad_write "Invalid argument" $T/current_tracer no_such_tracer
bad_write "Invalid argument" $T/current_tracer ""
reset_tracing
