# Raw writes whose string is not NUL-terminated exactly at its end are refused
# with EINVAL; nothing changes.
. /opt/dyntrace/tests/lib.sh
setup_state
bad_raw EINVAL $T/current_tracer 6e6f70              # "nop" without NUL
bad_raw EINVAL $T/current_tracer 6e6f70006e6f7000    # NUL in the middle
bad_raw EINVAL $T/set_function_filter 78656e        # no NUL
bad_raw EINVAL $T/current_tracer ""                 # zero bytes
reset_tracing
