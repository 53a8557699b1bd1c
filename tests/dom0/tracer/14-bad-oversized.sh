# Writes longer than a file's maximum are refused with ENOSPC; nothing changes.
. /opt/dyntrace/tests/lib.sh
setup_state
long=$(head -c 5000 /dev/zero | tr '\0' 'a')
bad_write "No space left on device" $T/set_function_filter "$long"
bad_write "No space left on device" $T/current_tracer "$(head -c 100 /dev/zero | tr '\0' 'f')"
bad_write "No space left on device" $T/trace "xx"
reset_tracing
