# Only the empty string clears trace; other values are refused, and
# read-only files refuse writes.
. /opt/dyntrace/tests/lib.sh
setup_state
bad_raw ENOSPC $T/trace 7800     # "x": longer than the one byte of ""
bad_raw EINVAL $T/trace 78       # one byte, not NUL
bad_write "Permission denied" $T/available_functions xen_extra_version
bad_write "Permission denied" $T/available_tracers nop
reset_tracing
