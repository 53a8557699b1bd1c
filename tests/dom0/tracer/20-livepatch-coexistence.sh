# Livepatch and the tracer coexist: a livepatch that targets a traced function
# is refused (EBUSY) and changes nothing; after tracing and reset, livepatches
# load, apply and revert as before. (Tracing a livepatched function: test 12.)
. /opt/dyntrace/tests/lib.sh
extra=/sys/hypervisor/version/extra
reset_tracing
before=$(cat $extra)
run xenhypfs write $T/set_function_filter xen_extra_version
run xenhypfs write $T/current_tracer function
run $LP upload xen_hello_world $payload_dir/xen_hello_world.livepatch
expect_error "Device or resource busy" $LP apply xen_hello_world
expect_eq "extra while traced" "$before" "$(cat $extra)"
entry_is_untraced && fail "the expectation payload applied on a traced entry"
run xenhypfs write $T/tracing_on 1
cat $extra >/dev/null
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace >/tmp/trace
expect_eq "records while a livepatch was refused" 1 "$(count_records /tmp/trace xen_extra_version)"
reset_tracing
entry_is_untraced || fail "entry not restored after reset"
run livepatch_retry apply xen_hello_world
expect_eq "extra with xen_hello_world" "Hello World" "$(cat $extra)"
run livepatch_retry revert xen_hello_world
run $LP unload xen_hello_world
expect_eq "extra after revert" "$before" "$(cat $extra)"
