# xen-dyntrace record stopped during its set-up, and killed outright (SIGKILL).
# XEN_DYNTRACE_TEST_PAUSE_AT=STEP, a test aid of record (test_pause() in record.c, not a user
# option), makes record stop right after set-up step STEP, say "record: test pause after STEP"
# on standard error and wait for a signal. The set-up steps, in order: off (tracing_on 0),
# buffer (-b), filter (-l), notrace (-n), domains (its own !d0vN), tracer, clear, cpus, output
# (the capture file opened); "on" is right after tracing_on 1, the capture under way.
# - At each set-up step, each of SIGINT, SIGTERM, SIGHUP, SIGQUIT (record -l 'do_*' -n do_softirq
#   -b 128; before it: the function tracer on xen_extra_version, d7, tracing on): record exits
#   128+N, says so, leaves no capture, and /tracing is exactly as before (save_state: tracer,
#   filters, domains, CPUs, buffer size, patched entries, tracing_on, profiler, graph functions,
#   records), having been changed at the pause (so the putting back is real).
# - The same signals once tracing is on: the recording ends as at -t (exit 0, a capture that
#   report reads), the tracer and filters put back, tracing off; buffer_size_kb stays as -b set it.
# - SIGKILL at step 'clear' and during a capture leaves Xen set up ('*' patched, !d0vN in
#   set_domain_filter); xen-dyntrace reset brings every setting back to this boot's (lib.sh's
#   /tmp/settings.boot), nothing patched, the buffers empty; reset -b the buffer size too; a
#   second reset changes and prints nothing.
. /opt/dyntrace/tests/lib.sh
reset_tracing

cap=/tmp/killed.dat
steps="off buffer filter notrace domains tracer clear cpus output"
signals="INT TERM HUP QUIT"
signum() { case $1 in HUP) echo 1 ;; INT) echo 2 ;; QUIT) echo 3 ;; TERM) echo 15 ;; esac; }
trap 'rm -f $cap' EXIT

# The snapshot lib.sh took when this boot's first test began must be the boot state.
grep -qx 'current_tracer=nop' /tmp/settings.boot && grep -qx 'tracing_on=0' /tmp/settings.boot &&
    grep -qx 'enabled_functions=' /tmp/settings.boot && grep -qx 'set_domain_filter=' /tmp/settings.boot ||
    { cat /tmp/settings.boot; fail "/tmp/settings.boot is not a boot state"; }

# same_state FILE WHAT: save_state now equals FILE.
same_state() {
    save_state /tmp/state.now
    cmp -s "$1" /tmp/state.now && return 0
    echo "expected:"; cat "$1"; echo "found:"; cat /tmp/state.now
    fail "$2: /tmp/state.now differs"
}

# like_boot WHAT [NAME]: every setting as at boot (but NAME's).
like_boot() {
    save_settings /tmp/settings.now
    grep -v "^${2:-none}=" /tmp/settings.boot >/tmp/settings.b
    grep -v "^${2:-none}=" /tmp/settings.now >/tmp/settings.n
    cmp -s /tmp/settings.b /tmp/settings.n && return 0
    echo "at boot:"; cat /tmp/settings.b; echo "now:"; cat /tmp/settings.n
    fail "$1: not the boot settings"
}

# start_paused STEP FILTER: record -l FILTER in the background, paused after STEP; pid in $pid.
start_paused() {
    rm -f $cap /tmp/rec.out /tmp/rec.err
    XEN_DYNTRACE_TEST_PAUSE_AT=$1 xen-dyntrace record -l "$2" -n do_softirq -b 128 -t 30 -q \
        -o $cap >/tmp/rec.out 2>/tmp/rec.err &
    pid=$!
    i=0
    until grep -q "^record: test pause after $1\$" /tmp/rec.err 2>/dev/null; do
        kill -0 $pid 2>/dev/null || { cat /tmp/rec.out /tmp/rec.err; fail "record exited before pausing after $1"; }
        i=$((i + 1))
        [ $i -lt 600 ] || { kill -9 $pid; fail "record did not pause after $1 in 60 s"; }
        sleep 0.1
    done
}

# changed_at STEP: what the steps up to STEP set is there (off: tracing_on; buffer: 128 KiB;
# filter: do_* (patched: the tracer is function); notrace: do_softirq; domains: d7 and record's
# own vCPU).
changed_at() {
    expect_eq "tracing_on after $1" 0 "$(xenhypfs cat $T/tracing_on)"
    [ "$1" = off ] && return 0
    expect_eq "buffer_size_kb after $1" 128 "$(xenhypfs cat $T/buffer_size_kb)"
    [ "$1" = buffer ] && return 0
    xenhypfs cat $T/set_function_filter | grep -qx do_xen_version ||
        fail "set_function_filter after $1: no do_xen_version"
    xenhypfs cat $T/enabled_functions | grep -q '^do_xen_version ' ||
        fail "enabled_functions after $1: do_xen_version not patched"
    [ "$1" = filter ] && return 0
    expect_eq "set_function_notrace after $1" do_softirq "$(xenhypfs cat $T/set_function_notrace)"
    [ "$1" = notrace ] && return 0
    case "$(xenhypfs cat $T/set_domain_filter)" in
    "d7 !d0v"[0-9]*) ;;
    *) fail "set_domain_filter after $1: '$(xenhypfs cat $T/set_domain_filter)'" ;;
    esac
}

# A SIGHUP ignored on entry stays ignored (nohup): this shell must not ignore it for the test.
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)
case "$ign" in *[13579bdf]) fail "this shell ignores SIGHUP (SigIgn $ign): record would too" ;; esac

# Usage errors of reset: exit 2, nothing changed.
save_state /tmp/state.usage
for args in "-b 0" "-b 12k" "now" "-z"; do
    xen-dyntrace reset $args >/tmp/out 2>/tmp/err
    rc=$?
    cat /tmp/err
    expect_eq "exit status of 'xen-dyntrace reset $args'" 2 "$rc"
done
same_state /tmp/state.usage "after reset's usage errors"

# The state record finds: not the boot one, so that putting it back shows. Domain 7 does not
# exist, so nothing is recorded while tracing is on.
base() {
    xenhypfs write $T/set_function_filter xen_extra_version || fail "base: filter"
    xenhypfs write $T/current_tracer function || fail "base: tracer"
    xenhypfs write $T/set_domain_filter d7 || fail "base: domains"
    xenhypfs write $T/tracing_on 1 || fail "base: on"
}
base
save_state /tmp/state.base
cat /tmp/state.base

for step in $steps; do
    for sig in $signals; do
        start_paused $step 'do_*'
        changed_at $step
        kill -$sig $pid
        wait $pid
        rc=$?
        cat /tmp/rec.err
        expect_eq "exit status of record stopped by SIG$sig after $step" $((128 + $(signum $sig))) "$rc"
        grep -q "record: stopped by SIG$sig during set-up (after step '$step'): settings put back, nothing recorded" /tmp/rec.err ||
            fail "record stopped by SIG$sig after $step did not say so"
        [ ! -e $cap ] || fail "record stopped by SIG$sig after $step left a capture"
        same_state /tmp/state.base "record stopped by SIG$sig after $step"
        echo "SIG$sig after $step: exit $rc, state as before"
    done
done

# Once tracing is on the signals end the recording: a capture, the tracer put back, tracing off,
# the buffers as -b sized them.
for sig in $signals; do
    start_paused on 'do_*'
    expect_eq "tracing_on while recording" 1 "$(xenhypfs cat $T/tracing_on)"
    kill -$sig $pid
    wait $pid
    rc=$?
    cat /tmp/rec.out /tmp/rec.err
    expect_eq "exit status of record stopped by SIG$sig while recording" 0 "$rc"
    grep -q '^record: seconds=' /tmp/rec.out || fail "no summary line after SIG$sig"
    xen-dyntrace report $cap >/dev/null || fail "report of the capture stopped by SIG$sig exited $?"
    expect_eq "buffer_size_kb after a capture with -b 128" 128 "$(xenhypfs cat $T/buffer_size_kb)"
    sed -e 's/^on=1$/on=0/' -e "s/^bufsize=.*/bufsize=128 $(xenhypfs cat $T/buffer_total_size_kb)/" \
        /tmp/state.base >/tmp/state.expect
    same_state /tmp/state.expect "record stopped by SIG$sig while recording"
    echo "SIG$sig while recording: exit 0, tracer put back"
    xenhypfs write $T/buffer_size_kb "$(cat /tmp/bufsize.boot)" || fail "buffer size back"
    xenhypfs write $T/tracing_on 1 || fail "tracing back on"
done
same_state /tmp/state.base "the base state again"

# SIGKILL at step clear, with every other setting away from its boot value too.
[ "$(xenhypfs cat $T/tracing_cpumask)" = 1 ] || xenhypfs write $T/tracing_cpumask 1 || fail "cpumask"
xenhypfs write $T/max_graph_depth 5 || fail "max_graph_depth"
xenhypfs write $T/tracing_thresh 10 || fail "tracing_thresh"
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
