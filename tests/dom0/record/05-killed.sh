# xen-dyntrace record stopped during its set-up by a signal (the helpers and the pause at a
# set-up step: killed.inc).
# - At each set-up step, one of SIGINT, SIGTERM, SIGHUP, SIGQUIT in turn (record -l 'do_*' -n do_softirq
#   -b 128; before it: the function tracer on xen_extra_version, d7, tracing on): record exits
#   128+N, says so, leaves no capture, and /tracing is exactly as before (save_state: tracer,
#   filters, domains, CPUs, buffer size, patched entries, tracing_on, profiler, graph functions,
#   records), having been changed at the pause (checked at each step: so the putting back is
#   real).
# - The same signals once tracing is on: the recording ends as at -t (exit 0, a capture that
#   report reads), the tracer and filters put back, tracing off; buffer_size_kb stays as -b set it.
# SIGKILL, which cannot be caught, and xen-dyntrace reset: record/06-reset.sh.
. /opt/dyntrace/tests/lib.sh
. /opt/dyntrace/tests/record/killed.inc
reset_tracing

# A SIGHUP ignored on entry stays ignored (nohup): this shell must not ignore it for the test.
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status)
case "$ign" in *[13579bdf]) fail "this shell ignores SIGHUP (SigIgn $ign): record would too" ;; esac

base
save_state /tmp/state.base
cat /tmp/state.base

# Each step once, the signals taken in turn (every signal at two or three steps): the handling
# is the same code for every signal, and a boot's time is CI's.
set -- $signals
for step in $steps; do
    sig=$1
    shift
    set -- "$@" $sig
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

