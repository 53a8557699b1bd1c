# record -e: Xen's trace points recorded with the functions, a domU of 2 vCPUs working beside
# dom0's own calls of do_xen_version, while Debian's xentrace records the same trace points (the
# sched class) at the same time. Checks set_event put back, report's events (vCPU switches
# naming the domU's vCPUs, run state changes) in time order with the functions, report -d on
# events, both exports written; then hands both captures to the host (XDTEVENTS, XDTXENTRACE
# lines), where tests/viewers/check-exports.sh compares each vCPU's running time and the switches
# with xentrace's, and opens the trace.dat in trace-cmd and KernelShark and the JSON in speedscope.
. /opt/dyntrace/tests/lib.sh
needs_series 5 set_event
reset_tracing
trap 'xl destroy evrec 2>/dev/null' EXIT
start_domu_working evrec domu-work 2
D=$(xl domid evrec) || fail "no domid for the domU"
echo "domU: d$D working after $DOMU_WAITED s"

before=$(xenhypfs cat $T/set_event)
rm -f /tmp/ev.xt
xentrace -D -e 0x0002f000 -S 128 /tmp/ev.xt >/tmp/xentrace.out 2>&1 &
xt=$!
sleep 1
xen-dyntrace record -e sched:sched_switch,sched:runstate_change -e irq -l do_xen_version -t 3 --no-filter \
    -b 1024 -q -o /tmp/ev.dat -- sh -c 'for i in $(seq 60); do
        cat /sys/hypervisor/version/extra >/dev/null; sleep 0.02; done' >/tmp/rec.out 2>&1 ||
    { cat /tmp/rec.out; fail "record -e exited $?"; }
cat /tmp/rec.out
sleep 1
kill -INT $xt
wait $xt || true
cat /tmp/xentrace.out
[ -s /tmp/ev.xt ] || fail "xentrace wrote nothing"
echo "xentrace: $(wc -c </tmp/ev.xt) bytes"
expect_eq "set_event after record -e" "$before" "$(xenhypfs cat $T/set_event)"

xen-dyntrace report /tmp/ev.dat >/tmp/ev.txt || fail "report exited $?"
grep -q '^# tracer: nop\|^# tracer: function' /tmp/ev.txt || fail "no tracer header"
sw=$(grep -c ': sched_switch: prev=[^ ]* ==> next=[^?]' /tmp/ev.txt || true)
rs=$(grep -c ': runstate_change: vcpu=' /tmp/ev.txt || true)
fn=$(grep -c ': do_xen_version <-' /tmp/ev.txt || true)
echo "report: $sw vCPU switches, $rs run state changes, $fn do_xen_version"
[ "$sw" -ge 20 ] || fail "only $sw vCPU switches in 3 s"
[ "$rs" -ge "$sw" ] || fail "fewer run state changes ($rs) than switches ($sw)"
[ "$fn" -ge 60 ] || fail "only $fn of 60 do_xen_version calls"
grep -q "sched_switch: prev=[^ ]* ==> next=d${D}v[01]" /tmp/ev.txt || fail "no switch to the domU"
# One timeline: the lines in time order.
grep -v '^#\|^CPU:' /tmp/ev.txt | awk '{ t = $4; sub(/:$/, "", t); if (t + 0 < last) { print; b++ } last = t + 0 } END { exit b > 0 }' ||
    fail "report's lines out of time order"
# report -d on events: only the domU's contexts.
xen-dyntrace report -d "d$D" /tmp/ev.dat >/tmp/ev-d.txt || fail "report -d exited $?"
ctx=$(grep -v '^#\|^CPU:' /tmp/ev-d.txt | awk '{ print $1 }' | sort -u | tr '\n' ' ')
echo "report -d d$D: contexts $ctx"
[ -n "$ctx" ] || fail "report -d d$D shows nothing"
echo " $ctx" | tr ' ' '\n' | grep . | grep -qv "^d${D}v" && fail "report -d d$D shows $ctx"
tracedat_written /tmp/ev.dat
xen-dyntrace export -f json -o /tmp/ev.json /tmp/ev.dat || fail "export -f json exited $?"
grep -q '"pCPU 0 vCPUs"' /tmp/ev.json || fail "no 'pCPU 0 vCPUs' track in the JSON"
send_to_host XDTEVENTS /tmp/ev.dat "D=$D"
send_to_host XDTXENTRACE /tmp/ev.xt
