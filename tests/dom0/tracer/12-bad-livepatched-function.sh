# A function that an applied livepatch has patched cannot be traced (EEXIST);
# once the livepatch is reverted it can be.
. /opt/dyntrace/tests/lib.sh
reset_tracing
run $LP upload xen_hello_world $payload_dir/xen_hello_world.livepatch
run livepatch_retry apply xen_hello_world
save_state /tmp/state.before
expect_error "File exists" xenhypfs write $T/set_function_filter xen_extra_version
check_state /tmp/state.before
run livepatch_retry revert xen_hello_world
run $LP unload xen_hello_world
run xenhypfs write $T/set_function_filter xen_extra_version
run xenhypfs write $T/current_tracer function
reset_tracing
