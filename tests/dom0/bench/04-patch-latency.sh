# Row 6: from the current_tracer write to its return, for 1, 100 and every
# traceable function (patching), and back to nop (unpatching).
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
# 100 distinct traceable names.
xenhypfs cat $T/available_functions | awk '!seen[$0]++' | head -n 100 | tr '\n' ' ' >/tmp/f100
[ "$(wc -w </tmp/f100)" = 100 ] || fail "fewer than 100 functions"
for set in 1 100 all; do
    case $set in
    1) f=xen_extra_version ;;
    100) f=$(cat /tmp/f100) ;;
    all) f='*' ;;
    esac
    xenhypfs write $T/set_function_filter "$f" || fail "filter $set"
    n=$(xenhypfs cat $T/set_function_filter | wc -l)
    timed_write "patch_$set functions=$n" $T/current_tracer function
    timed_write "unpatch_$set functions=$n" $T/current_tracer nop
done
reset_tracing
