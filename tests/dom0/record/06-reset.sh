# xen-dyntrace reset after record was killed with SIGKILL (helpers: killed.inc).
# - reset's usage errors: exit 2, nothing changed.
# - SIGKILL at step 'clear' (every other setting away from its boot value too) and during a
#   capture leaves Xen set up ('*' patched, !d0vN in set_domain_filter, tracing on); reset brings
#   every setting back to this boot's (lib.sh's /tmp/settings.boot), nothing patched, the buffers
#   empty, and says what it changed; reset -b the buffer size too; a second reset changes and
#   prints nothing.
. /opt/dyntrace/tests/lib.sh
. /opt/dyntrace/tests/record/killed.inc
reset_tracing

# Usage errors of reset: exit 2, nothing changed.
save_state /tmp/state.usage
for args in "-b 0" "-b 12k" "now" "-z"; do
    xen-dyntrace reset $args >/tmp/out 2>/tmp/err
    rc=$?
    cat /tmp/err
    expect_eq "exit status of 'xen-dyntrace reset $args'" 2 "$rc"
done
same_state /tmp/state.usage "after reset's usage errors"

base

# SIGKILL at step clear, with every other setting away from its boot value too.
[ "$(xenhypfs cat $T/tracing_cpumask)" = 1 ] || xenhypfs write $T/tracing_cpumask 1 || fail "cpumask"
xenhypfs write $T/max_graph_depth 5 || fail "max_graph_depth"
xenhypfs write $T/tracing_thresh 10 || fail "tracing_thresh"
xenhypfs write $T/options/funcgraph-retval 1 || fail "funcgraph-retval"
xenhypfs write $T/set_graph_function xen_extra_version || fail "set_graph_function"
xenhypfs write $T/set_function_filter xen_extra_version:traceoff || fail "trigger"
xenhypfs write $T/function_profile_enabled 1 || fail "profiler"
# A line in error_log.
xenhypfs write $T/current_tracer no_such_tracer 2>/dev/null && fail "an unknown tracer was taken"
start_paused clear '*'
kill -9 $pid
wait $pid
changed_at clear
n=$(xenhypfs cat $T/enabled_functions | wc -l)
[ "$n" -gt 1000 ] || fail "enabled_functions after SIGKILL: $n entries, not '*'"
expect_eq "current_tracer after SIGKILL" function "$(xenhypfs cat $T/current_tracer)"
echo "\$ xen-dyntrace reset"
xen-dyntrace reset >/tmp/reset.out 2>&1
rc=$?
cat /tmp/reset.out
expect_eq "exit status of reset" 0 "$rc"
# (tracing_on: record's set-up turned it off already; tracing_cpumask: on a 1-CPU boot it is 1.)
changed="current_tracer function_profile_enabled set_function_filter set_function_notrace"
changed="$changed set_graph_function set_domain_filter max_graph_depth tracing_thresh error_log"
changed="$changed options/funcgraph-retval"
[ "$(cat /tmp/cpumask.boot)" = 1 ] || changed="$changed tracing_cpumask"
for f in $changed; do
    grep -q "^reset: $f: " /tmp/reset.out || fail "reset did not say it changed $f"
done
grep -q "^reset: set_function_filter: trigger 'xen_extra_version:traceoff' removed$" /tmp/reset.out ||
    fail "reset did not say it removed the trigger"
expect_eq "buffer_size_kb after reset (left as it is)" 128 "$(xenhypfs cat $T/buffer_size_kb)"
like_boot "after SIGKILL at clear and reset" buffer_size_kb
xen-dyntrace reset -q -b "$(cat /tmp/bufsize.boot)" >/tmp/reset.out 2>&1 || { cat /tmp/reset.out; fail "reset -q -b exited $?"; }
[ ! -s /tmp/reset.out ] || { cat /tmp/reset.out; fail "reset -q printed"; }
like_boot "after reset -b"
xen-dyntrace reset >/tmp/reset.out 2>&1 || { cat /tmp/reset.out; fail "a second reset exited $?"; }
[ ! -s /tmp/reset.out ] || { cat /tmp/reset.out; fail "a second reset changed something"; }
like_boot "after a second reset"

# SIGKILL during a capture of '*': recording stays on.
rm -f $cap
xen-dyntrace record -l '*' -t 60 -q -o $cap >/tmp/rec.out 2>&1 &
pid=$!
i=0
until [ "$(xenhypfs cat $T/tracing_on)" = 1 ]; do
    i=$((i + 1))
    [ $i -lt 600 ] || { cat /tmp/rec.out; kill -9 $pid; fail "record did not start in 60 s"; }
    sleep 0.1
done
s1=$(wc -c <$cap)
sleep 2
s2=$(wc -c <$cap)
[ "$s2" -gt "$s1" ] || { kill -9 $pid; fail "the capture did not grow ($s1, $s2 bytes)"; }
kill -9 $pid
wait $pid
echo "capture killed at $s2+ bytes"
expect_eq "tracing_on after SIGKILL" 1 "$(xenhypfs cat $T/tracing_on)"
n=$(xenhypfs cat $T/enabled_functions | wc -l)
[ "$n" -gt 1000 ] || fail "enabled_functions after SIGKILL: $n entries, not '*'"
echo "\$ xen-dyntrace reset"
xen-dyntrace reset >/tmp/reset.out 2>&1
rc=$?
cat /tmp/reset.out
expect_eq "exit status of reset" 0 "$rc"
like_boot "after SIGKILL while recording and reset"
xenhypfs cat $T/trace >/tmp/trace.txt
expect_eq "records left in the buffers" 0 "$(record_lines /tmp/trace.txt | wc -l)"
xen-dyntrace reset >/tmp/reset.out 2>&1 || { cat /tmp/reset.out; fail "a second reset exited $?"; }
[ ! -s /tmp/reset.out ] || { cat /tmp/reset.out; fail "a second reset changed something"; }
