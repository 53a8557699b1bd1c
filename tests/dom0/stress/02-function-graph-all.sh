# function_graph on every traceable function ('*'), 4 pCPUs, for
# $dyntrace_graph_seconds (default 40) seconds, with CPU hotplug (xen-hptool
# takes pCPUs 1-3 offline and online) and two readers of trace, each read
# checked line by line (ftrace's function_graph layout).  Then, on a quiet
# machine, a last 2 s capture with no reader (so no record is dropped), checked
# per stack (pCPU on x86_64, vCPU on arm64): every "}" closes the call open at its depth with the same name (a
# "}" whose entry the ring already overwrote may only come before any call at
# or above its depth opened on that CPU), no duration is negative.  The
# hypervisor staying up is checked by the host (a crash fails the suite).
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
needs_series 4 per_cpu
secs=${dyntrace_graph_seconds:-40}
W=/tmp/gstress
rm -rf $W && mkdir -p $W
reset_tracing
run xenhypfs write $T/set_function_filter '*'
run xenhypfs write $T/current_tracer function_graph
run xenhypfs write $T/tracing_on 1
start=$(date +%s)
end=$((start + secs))

anomaly() { echo "$*" >>$W/anomalies; }
op() { echo x >>$W/ops.$1; }
count() { [ -f $W/ops.$1 ] && wc -l <$W/ops.$1 || echo 0; }
LINE_RE='^ *[0-9]+\) +(d[0-9]+v[0-9]+|<idle>) \| ([ +!#*@$] *[0-9]+\.[0-9]{3} us| {15}) \|  +([^ ].*\(\) \{|[^ ].*\(\);|\} /\* [^ ]+ \*/|[^ ]+)$'

reader() {
    while [ "$(date +%s)" -lt $end ]; do
        if ! timeout 30 xenhypfs cat $T/trace >$W/r$1 2>$W/r$1.err; then
            grep -q -e busy -e "temporarily unavailable" $W/r$1.err && { op busy_reads; continue; }
            anomaly "reader$1: $(cat $W/r$1.err)"
            continue
        fi
        bad=$(record_lines $W/r$1 | grep -vEc "$LINE_RE")
        [ "$bad" = 0 ] || { anomaly "reader$1: $bad malformed lines"; record_lines $W/r$1 | grep -vE "$LINE_RE" | head -3 >>$W/anomalies; }
        op reads
    done
}
hotplug() {
    while [ "$(date +%s)" -lt $end ]; do
        for c in 1 2 3; do
            [ "$(date +%s)" -lt $end ] || break
            if xen-hptool cpu-offline $c >$W/hp.out 2>&1; then op offlines; else op hptool_failures; continue; fi
            sleep 1
            xen-hptool cpu-online $c >$W/hp.out 2>&1 || anomaly "cpu-online $c failed: $(cat $W/hp.out)"
            op onlines
        done
    done
}
hotplug_on=0
command -v xen-hptool >/dev/null && hotplug_on=1
reader 1 &
reader 2 &
[ $hotplug_on = 0 ] || hotplug &
# dom0 at work meanwhile.
( while [ "$(date +%s)" -lt $end ]; do cat /sys/hypervisor/version/extra >/dev/null; done ) &
wait
[ $hotplug_on = 0 ] || for c in 1 2 3; do xen-hptool cpu-online $c >/dev/null 2>&1; done

# The quiet capture.
xenhypfs write $T/tracing_on 0 || fail "off"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
( i=0; while [ $i -lt 200 ]; do cat /sys/hypervisor/version/extra >/dev/null; i=$((i + 1)); done )
sleep 2
xenhypfs write $T/tracing_on 0 || fail "off"
xenhypfs cat $T/trace >$W/final || fail "reading the trace"
head -n 8 $W/final
dropped=0
for c in $(xenhypfs ls $T/per_cpu | grep -o 'cpu[0-9]*'); do
    d=$(xenhypfs cat $T/per_cpu/$c/stats | sed -n 's/^dropped events: //p')
    dropped=$((dropped + ${d:-0}))
done
expect_eq "records dropped in the quiet capture" 0 "$dropped"
bad=$(record_lines $W/final | grep -vEc "$LINE_RE")
[ "$bad" = 0 ] || { record_lines $W/final | grep -vE "$LINE_RE" | head -3; fail "$bad malformed lines in the quiet capture"; }
res=$(graph_nesting $W/final)
hdr=$(grep '^# returns not hooked' $W/final | sed 's/^# //')
anomalies=0
[ -f $W/anomalies ] && { anomalies=$(wc -l <$W/anomalies); head -10 $W/anomalies; }
echo "stress function_graph: seconds=$secs reads=$(count reads) busy_reads=$(count busy_reads) offlines=$(count offlines) onlines=$(count onlines) anomalies=$anomalies $res ($hdr)"
[ "$anomalies" = 0 ] || fail "$anomalies anomalies"
case "$res" in *" unopened=0 misattributed=0 negative=0 other=0") ;; *) fail "bad graph: $res" ;; esac
m=$(echo "$res" | sed 's/.*matched=\([0-9]*\).*/\1/')
[ "$m" -ge 1000 ] || fail "only $m calls closed"
[ "$(count reads)" -gt 0 ] || fail "no read completed"
[ $hotplug_on = 0 ] || [ "$(count offlines)" -gt 0 ] || fail "no CPU went offline"
reset_tracing
