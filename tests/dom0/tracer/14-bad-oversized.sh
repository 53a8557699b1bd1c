# Writes longer than a file's maximum are refused with ENOSPC; nothing changes.
. /opt/dyntrace/tests/lib.sh
setup_state
# The function sets take at least the length of available_functions (so that
# what they read back can be written back): go beyond that.
n=$(( $(xenhypfs cat $T/available_functions | wc -c) + 100 ))
long=$(head -c $n /dev/zero | tr '\0' 'a')
bad_write "No space left on device" $T/set_function_filter "$long"
bad_write "No space left on device" $T/set_function_notrace "$long"
bad_write "No space left on device" $T/current_tracer "$(head -c 100 /dev/zero | tr '\0' 'f')"
bad_write "No space left on device" $T/trace "xx"
reset_tracing
