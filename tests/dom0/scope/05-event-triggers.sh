# Triggers on events (events/CLASS/EVENT/trigger, ftrace's syntax): a traceoff trigger on
# sched:sched_switch ends the recording at a switch and uses one of its count per firing; a
# traceon trigger starts it; a trigger fires on an event that is not recorded (set_event empty),
# and only within set_domain_filter; bad words are refused, named in error_log, and change
# nothing; an empty write removes the event's triggers; record --trigger takes an event's;
# xen-dyntrace reset removes them all.
. /opt/dyntrace/tests/lib.sh
needs_series 5 set_event
reset_tracing
F=$T/events/sched/sched_switch/trigger
trap 'xenhypfs write $F "" 2>/dev/null; xenhypfs write $T/set_event "" 2>/dev/null' EXIT

# Some vCPU switches: dom0's vCPUs sleeping and waking.
switches() {
    for v in $(seq 0 $(($(nproc) - 1))); do
        taskset -c $v sh -c 'for i in 1 2 3 4 5; do sleep 0.01; done' &
    done
    wait
}

# wait_on VALUE: tracing_on reads VALUE within 5 s of switches.
wait_on() {
    for i in $(seq 1 10); do
        [ "$(xenhypfs cat $T/tracing_on)" = "$1" ] && return 0
        switches
        sleep 0.5
    done
    fail "tracing_on still $(xenhypfs cat $T/tracing_on), not $1, after 5 s"
}

xenhypfs cat $F >/tmp/trig.txt || fail "reading $F"
cat /tmp/trig.txt
grep -q '^# Available triggers:' /tmp/trig.txt || fail "no '# Available triggers:' in an empty trigger file"
grep -q 'traceoff' /tmp/trig.txt || fail "the empty trigger file does not name traceoff"

# traceoff:2 with the events recorded: tracing stops at a switch (the run state changes that
# follow a switch on its pCPU are not recorded then), count 1 left.
run xenhypfs write $T/set_event "sched:sched_switch sched:runstate_change"
run xenhypfs write $F traceoff:2
expect_eq "trigger file" "traceoff:count=2" "$(xenhypfs cat $F)"
xenhypfs write $T/trace "" || fail "clear"
run xenhypfs write $T/tracing_on 1
wait_on 0
expect_eq "trigger after one firing" "traceoff:count=1" "$(xenhypfs cat $F)"
xenhypfs cat $T/trace >/tmp/trig.trace || fail "read trace"
check_trace_wellformed /tmp/trig.trace
n=$(grep -c ': sched_switch: ' /tmp/trig.trace || true)
echo "recorded before the traceoff: $n vCPU switches"
[ "$n" -ge 1 ] || fail "the switch that turned tracing off is not in the trace"
# Other pCPUs may record a little more after it; the firing pCPU's records end at the switch.
ends=
for c in $(grep -v '^#' /tmp/trig.trace | sed -n 's/.*\[\([0-9]*\)\].*/\1/p' | sort -u); do
    grep -v '^#' /tmp/trig.trace | grep "\[$c\]" | tail -n1 | grep -q ': sched_switch: ' && ends="$ends $c"
done
echo "pCPUs whose records end at a vCPU switch:${ends:- none}"
[ -n "$ends" ] || { tail -n 8 /tmp/trig.trace; fail "no pCPU's records end at the switch that turned tracing off"; }
# On again: it fires once more (count 0), then never.
run xenhypfs write $T/tracing_on 1
wait_on 0
expect_eq "trigger after its second firing" "traceoff:count=0" "$(xenhypfs cat $F)"
run xenhypfs write $T/tracing_on 1
switches
sleep 1
expect_eq "tracing_on with the count spent" 1 "$(xenhypfs cat $T/tracing_on)"
run xenhypfs write $T/tracing_on 0

# traceon, with the event not recorded: it fires all the same; the count read back writes back.
run xenhypfs write $T/set_event ""
run xenhypfs write $F "traceon !traceoff"
expect_eq "trigger file" "traceon:unlimited" "$(xenhypfs cat $F)"
expect_eq "set_event with a trigger only" "" "$(xenhypfs cat $T/set_event)"
xenhypfs write $T/trace "" || fail "clear"
wait_on 1
run xenhypfs write $F ""
xenhypfs cat $F | grep -q '^# Available triggers:' || fail "an empty write left triggers: $(xenhypfs cat $F)"
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace | grep -q ': sched_switch: ' && fail "an event only triggering was recorded"

# Within the scope: set_domain_filter d4094 (no such vCPU runs): no trigger fires, the counts
# stay; once the filter is gone, the traceoff fires.
run xenhypfs write $T/set_domain_filter d4094
run xenhypfs write $F "traceon:count=3 traceoff:1"
run xenhypfs write $T/tracing_on 1
switches
sleep 1
expect_eq "tracing_on with the switches out of scope" 1 "$(xenhypfs cat $T/tracing_on)"
expect_eq "two triggers, out of scope" "traceoff:count=1
traceon:count=3" "$(xenhypfs cat $F)"
run xenhypfs write $F "!traceon traceoff"
run xenhypfs write $T/set_domain_filter ""
wait_on 0
expect_eq "trigger file" "traceoff:unlimited" "$(xenhypfs cat $F)"

# Bad input: refused, named in error_log, the triggers unchanged.
run xenhypfs write $F traceoff:5
for w in bogus "traceoff:x" "traceoff:99999999999" "traceoff:05" "!traceon" "traceon:1 bogus" "!"; do
    expect_error "Invalid argument\|No such file" xenhypfs write $F "$w"
    expect_eq "trigger after '$w'" "traceoff:count=5" "$(xenhypfs cat $F)"
done
expect_error "Operation not supported\|not supported" xenhypfs write $F stacktrace
expect_eq "trigger after stacktrace" "traceoff:count=5" "$(xenhypfs cat $F)"
xenhypfs cat $T/error_log >/tmp/trig.log
grep -q 'events/sched/sched_switch/trigger' /tmp/trig.log && grep -q 'bogus' /tmp/trig.log ||
    { cat /tmp/trig.log; fail "error_log does not name the trigger file and 'bogus'"; }
bad_raw EINVAL $F 0074726163656f6666

# xen-dyntrace record --trigger CLASS:EVENT:traceoff: the recording ends when it fires (under nop:
# no function needs patching), the trigger file as it was afterwards.
run xenhypfs write $F ""
xen-dyntrace record -e sched:sched_switch --trigger sched:sched_switch:traceoff:1 -t 20 \
    -o /tmp/trig.dat >/tmp/trig.rec 2>&1 &
rec=$!
sleep 2
switches
wait $rec || { cat /tmp/trig.rec; fail "record --trigger on an event exited $?"; }
cat /tmp/trig.rec
grep -q 'tracing turned off by a trigger' /tmp/trig.rec || fail "record did not end at the trigger"
xenhypfs cat $F | grep -q '^# Available triggers:' || fail "record left the trigger: $(xenhypfs cat $F)"
xen-dyntrace report /tmp/trig.dat >/tmp/trig.txt || fail "report exited $?"
grep -q '^# tracer: nop' /tmp/trig.txt || fail "record did not pick nop for an event's trigger"
grep -q ': sched_switch: ' /tmp/trig.txt || fail "the capture holds no vCPU switch"
expect_error "not FUNC:COMMAND" xen-dyntrace record --trigger sched:sched_switch:bogus -t 1 -o /tmp/x.dat
# An event's trigger found there is put back as it was; a traceon on an event leaves tracing off
# once record has ended (the trigger is taken away before tracing is turned off).
A=$T/events/sched/dom_add/trigger
run xenhypfs write $A traceoff:5
xen-dyntrace record -e sched:sched_switch --trigger sched:dom_add:traceoff:1 \
    --trigger sched:sched_switch:traceon -t 2 -o /tmp/trig2.dat >/tmp/trig2.rec 2>&1 ||
    { cat /tmp/trig2.rec; fail "record with a traceon trigger on an event exited $?"; }
cat /tmp/trig2.rec
expect_eq "dom_add's trigger after record" "traceoff:count=5" "$(xenhypfs cat $A)"
xenhypfs cat $F | grep -q '^# Available triggers:' || fail "record left its traceon: $(xenhypfs cat $F)"
switches
sleep 1
expect_eq "tracing_on after record with a traceon trigger" 0 "$(xenhypfs cat $T/tracing_on)"
xen-dyntrace report /tmp/trig2.dat | grep -q ': sched_switch: ' ||
    fail "the traceon trigger did not start the recording"
run xenhypfs write $A ""

# xen-dyntrace reset removes every event's triggers.
run xenhypfs write $T/events/irq/handled/trigger traceon:7
xen-dyntrace reset >/tmp/trig.reset 2>&1 || { cat /tmp/trig.reset; fail "reset exited $?"; }
cat /tmp/trig.reset
grep -q 'events/irq/handled/trigger' /tmp/trig.reset || fail "reset did not say it removed irq:handled's trigger"
for f in $F $T/events/irq/handled/trigger; do
    xenhypfs cat $f | grep -q '^# Available triggers:' || fail "$f after reset: $(xenhypfs cat $f)"
done
expect_eq "tracing_on after reset" 0 "$(xenhypfs cat $T/tracing_on)"
echo "event triggers: traceoff counted, traceon, unrecorded event, scope, bad input, reset"
