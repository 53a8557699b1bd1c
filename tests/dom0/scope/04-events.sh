# Xen's trace points as events (/tracing/events/, set_event, available_events), recorded with the
# function records in one timeline, with a domU of 2 vCPUs working beside dom0:
# - the enable files and set_event agree (ftrace's syntax: CLASS:EVENT, CLASS:*, a NAME alone, !);
# - sched events are recorded under nop, well formed, and every pCPU's vCPU switches chain
#   (each sched_switch's prev is the previous one's next on that pCPU);
# - with the function tracer, functions and events interleave in time order;
# - set_domain_filter and tracing_cpumask narrow events as they do functions;
# - xentrace records at the same time (both takers of the trace points);
# - bad words are refused, named in error_log, and change nothing.
. /opt/dyntrace/tests/lib.sh
needs_series 5 set_event
reset_tracing
trap 'xl destroy evwork 2>/dev/null; xenhypfs write $T/set_event "" 2>/dev/null' EXIT
start_domu_working evwork domu-work 2
D=$(xl domid evwork) || fail "no domid for the domU"
echo "domU: d$D working after $DOMU_WAITED s"

n=$(xenhypfs cat $T/available_events | grep -c .)
echo "available_events: $n events"
[ "$n" -ge 100 ] || fail "only $n available events"
xenhypfs cat $T/available_events | grep -qx "sched:sched_switch" || fail "no sched:sched_switch"
xenhypfs cat $T/available_events | grep -v '^$' | grep -vqE '^[a-z0-9]+:[a-z0-9_]+$' &&
    fail "a malformed available_events line"
expect_eq "events/enable at first" 0 "$(xenhypfs cat $T/events/enable)"
expect_eq "set_event at first" "" "$(xenhypfs cat $T/set_event)"

# The enable files and set_event: one state.
run xenhypfs write $T/events/sched/sched_switch/enable 1
expect_eq "set_event after sched_switch/enable" "sched:sched_switch" "$(xenhypfs cat $T/set_event)"
expect_eq "events/sched/enable with one on" 0 "$(xenhypfs cat $T/events/sched/enable)"
run xenhypfs write $T/events/sched/enable 1
expect_eq "events/sched/enable" 1 "$(xenhypfs cat $T/events/sched/enable)"
nsched=$(xenhypfs cat $T/available_events | grep -c '^sched:')
expect_eq "set_event with sched/enable" "$nsched" "$(xenhypfs cat $T/set_event | grep -c '^sched:')"
run xenhypfs write $T/set_event "sched !sched:ctl irq:handled"
xenhypfs cat $T/set_event | grep -qx "sched:ctl" && fail "!sched:ctl left it on"
xenhypfs cat $T/set_event | grep -qx "irq:handled" || fail "irq:handled not on"
expect_eq "events/sched/ctl/enable" 0 "$(xenhypfs cat $T/events/sched/ctl/enable)"
run xenhypfs write $T/set_event "*:*"
expect_eq "events/enable after *:*" 1 "$(xenhypfs cat $T/events/enable)"
run xenhypfs write $T/events/enable 0
expect_eq "set_event after events/enable 0" "" "$(xenhypfs cat $T/set_event)"

# Bad input: refused, named in error_log, nothing changed.
run xenhypfs write $T/set_event "sched:sched_switch"
save_state /tmp/ev.before
for w in "nosuch" "sched:nosuch" "nosuch:*" "sched:" ":x" "a:b:c" "sched:sched_switch bogus"; do
    expect_error "No such file\|Invalid argument" xenhypfs write $T/set_event "$w"
    check_state /tmp/ev.before
    expect_eq "set_event after '$w'" "sched:sched_switch" "$(xenhypfs cat $T/set_event)"
done
xenhypfs cat $T/error_log | grep -q "bogus" || { xenhypfs cat $T/error_log; fail "error_log does not name 'bogus'"; }
bad_raw EINVAL $T/events/sched/wake/enable 02
expect_eq "wake/enable after a bad write" 0 "$(xenhypfs cat $T/events/sched/wake/enable)"

# record SECONDS: clear, record, stop, save the trace in /tmp/ev.trace.
record() {
    xenhypfs write $T/trace "" || fail "clear"
    xenhypfs write $T/tracing_on 1 || fail "on"
    for v in $(seq 0 $(($(nproc) - 1))); do
        taskset -c $v sh -c 'for i in 1 2 3 4 5; do cat /sys/hypervisor/version/extra >/dev/null; done'
    done
    sleep "$1"
    xenhypfs write $T/tracing_on 0 || fail "off"
    xenhypfs cat $T/trace >/tmp/ev.trace || fail "read trace"
}

# Scheduling events under nop.
run xenhypfs write $T/set_event "sched:sched_switch sched:runstate_change sched:wake sched:block"
record 2
check_trace_wellformed /tmp/ev.trace
sw=$(grep -c ': sched_switch: ' /tmp/ev.trace || true)
rs=$(grep -c ': runstate_change: ' /tmp/ev.trace || true)
echo "sched_switch: $sw, runstate_change: $rs, wake: $(grep -c ': wake: ' /tmp/ev.trace || true)"
[ "$sw" -ge 10 ] || fail "only $sw vCPU switches in 2 s"
[ "$rs" -ge "$sw" ] || fail "fewer run state changes ($rs) than switches ($sw)"
grep -q "sched_switch: prev=d${D}v[01] ==> next=" /tmp/ev.trace || fail "the domU never switched out"
grep -q "runstate_change: vcpu=d${D}v[01] old=running new=" /tmp/ev.trace || fail "no domU run state change"
# Each pCPU's switches chain: the prev of one is the next of the one before.
broken=$(grep ': sched_switch: ' /tmp/ev.trace | sed 's/.*\[\([0-9]*\)\].*prev=\([^ ]*\) ==> next=\([^ ]*\).*/\1 \2 \3/' |
    awk '{ if (($1 in last) && last[$1] != $2) b++; last[$1] = $3 } END { print b + 0 }')
expect_eq "switches whose prev is not the pCPU's last next" 0 "$broken"
# Every event's context is the vCPU running: a switch's prev.
grep ': sched_switch: ' /tmp/ev.trace | awk '{ c = $1; sub(/.*prev=/, ""); if ($1 != c && !(c == "<idle>" && $1 == "idle")) { print; b++ } } END { exit b > 0 }' ||
    fail "a sched_switch whose context is not its prev"

# Functions and events in one timeline, in time order.
run xenhypfs write $T/set_function_filter do_xen_version
run xenhypfs write $T/current_tracer function
record 1
check_trace_wellformed /tmp/ev.trace
nf=$(count_records /tmp/ev.trace do_xen_version)
ne=$(grep -c ': sched_switch: ' /tmp/ev.trace || true)
echo "do_xen_version: $nf, sched_switch: $ne"
[ "$nf" -ge 5 ] && [ "$ne" -ge 5 ] || fail "functions and events not both recorded"
record_lines /tmp/ev.trace | awk '{ t = $4; sub(/:$/, "", t); if (t + 0 < last) { print; b++ } last = t + 0 } END { exit b > 0 }' ||
    fail "lines out of time order"

# The scope narrows events too: with entries patched (the filter installed in the rendezvous), and
# under nop with nothing patched (installed while every buffer is held).
for tracer in function nop; do
    run xenhypfs write $T/current_tracer $tracer
    run xenhypfs write $T/set_domain_filter "d$D"
    record 1
    ctx=$(record_lines /tmp/ev.trace | grep ': sched_switch: ' | awk '{ print $1 }' | sort -u | tr '\n' ' ')
    echo "$tracer, contexts with d$D: $ctx"
    [ -n "$ctx" ] || fail "no event of d$D under $tracer"
    echo " $ctx" | tr ' ' '\n' | grep . | grep -qv "^d${D}v" && fail "d$D lets through under $tracer: $ctx"
    run xenhypfs write $T/set_domain_filter ""
done
run xenhypfs write $T/current_tracer function
run xenhypfs write $T/tracing_cpumask 1
record 1
cpus=$(record_lines /tmp/ev.trace | awk '{ print $2 }' | sort -u | tr '\n' ' ')
expect_eq "pCPUs with tracing_cpumask 1" "[000] " "$cpus"
run xenhypfs write $T/tracing_cpumask "$(cat /tmp/cpumask.boot)"

# xentrace takes the same trace points at the same time.
if command -v xentrace >/dev/null; then
    run xenhypfs write $T/current_tracer nop
    xenhypfs write $T/trace ""
    xenhypfs write $T/tracing_on 1
    rm -f /tmp/ev.xt
    timeout 10 xentrace -D -e 0x0002f000 -S 32 -T 2 /tmp/ev.xt >/tmp/xentrace.out 2>&1 ||
        { cat /tmp/xentrace.out; fail "xentrace failed"; }
    xenhypfs write $T/tracing_on 0
    xenhypfs cat $T/trace >/tmp/ev.trace
    xt=$(wc -c </tmp/ev.xt)
    ne=$(grep -c ': sched_switch: ' /tmp/ev.trace || true)
    echo "xentrace: $xt bytes; ours meanwhile: $ne vCPU switches"
    [ "$xt" -gt 1000 ] && [ "$ne" -ge 5 ] || fail "xentrace and events did not both record"
    # xentrace stopped: events go on alone.
    record 1
    [ "$(grep -c ': sched_switch: ' /tmp/ev.trace || true)" -ge 5 ] || fail "no events after xentrace stopped"
else
    note "no xentrace in this dom0: not run beside it"
fi

# function_graph: an event inside a traced call shows inside it, as a comment (each vCPU wake
# is traced in vcpu_wake(): its line follows "vcpu_wake() {" on its CPU).
if xenhypfs cat $T/available_functions | grep -qx vcpu_wake; then
    run xenhypfs write $T/current_tracer nop
    run xenhypfs write $T/set_function_filter vcpu_wake
    run xenhypfs write $T/set_event sched:wake
    run xenhypfs write $T/current_tracer function_graph
    record 1
    nw=$(grep -c '/\* wake: vcpu=' /tmp/ev.trace || true)
    echo "function_graph: $nw wake events"
    [ "$nw" -ge 3 ] || fail "only $nw wake events under function_graph"
    grep -v '^#' /tmp/ev.trace | awk '{ cpu = $1 }
        /\/\* wake: / { if (prev[cpu] !~ /vcpu_wake\(\) \{$/) { print "after: " prev[cpu]; print; b++ } }
        { prev[cpu] = $0 } END { exit b > 0 }' || fail "a wake event outside its vcpu_wake() call"
    run xenhypfs write $T/current_tracer nop
else
    note "vcpu_wake is not traceable on this build: the function_graph check is not run"
fi

run xenhypfs write $T/set_event ""
record 1
grep -q ': sched_switch: ' /tmp/ev.trace && fail "events recorded with none on"
echo "events: ok"
