# An unknown function name is refused with ENOENT; nothing changes.
. /opt/dyntrace/tests/lib.sh
setup_state
bad_write "No such file or directory" $T/set_function_filter no_such_function_xyz
bad_write "No such file or directory" $T/set_function_filter "xen_extra_version no_such_function_xyz"
reset_tracing
