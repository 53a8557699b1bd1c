# tracing_on takes the boolean forms xenhypfs accepts; anything else is
# refused and changes nothing.
. /opt/dyntrace/tests/lib.sh
setup_state
# xenhypfs itself refuses these (EDOM from its parser) before any hypercall.
for v in 2 maybe -1 ""; do
    bad_write "out of domain\|Invalid argument" $T/tracing_on "$v"
done
bad_raw EINVAL $T/tracing_on 02       # one byte, not 0 or 1
bad_raw EDOM $T/tracing_on 0100       # wrong size
for v in on yes true enable 1; do
    run xenhypfs write $T/tracing_on "$v"
    expect_eq "tracing_on after '$v'" 1 "$(xenhypfs cat $T/tracing_on)"
    run xenhypfs write $T/tracing_on 0
done
reset_tracing
