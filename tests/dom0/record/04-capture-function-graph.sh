# A function_graph capture through the recorder: xen-dyntrace record -p function_graph while dom0
# reads the version N times; report prints N nested groups "do_xen_version() {",
# "xen_extra_version();", "} /* do_xen_version */" in the hypervisor's layout, and every "}"
# closes the call open at its depth (graph_nesting); the JSON has the calls as complete events.
# The capture goes to the host through the serial log as record/02's does (XDTGRAPH lines), where
# make check exports it to trace.dat and reads it back with trace-cmd (tests/viewers/check-exports.sh).
. /opt/dyntrace/tests/lib.sh
reset_tracing
# Until SIGINT (as trace-cmd record until Ctrl-C), the reads made once recording is on: a fixed
# sleep and duration lost calls on a loaded host.
xen-dyntrace record -p function_graph -l 'do_xen_version xen_extra_version' --no-filter -q \
    -o /tmp/graph.dat >/tmp/rec.out 2>&1 &
rec=$!
i=0
until [ "$(xenhypfs cat $T/tracing_on)" = 1 ]; do
    kill -0 $rec 2>/dev/null || { cat /tmp/rec.out; fail "record exited before recording"; }
    i=$((i + 1))
    [ $i -lt 300 ] || { kill -9 $rec; fail "record did not start recording in 30 s"; }
    sleep 0.1
done
n=20
i=0
while [ $i -lt $n ]; do cat /sys/hypervisor/version/extra >/dev/null; i=$((i + 1)); done
kill -INT $rec
wait $rec || { cat /tmp/rec.out; fail "record exited"; }
cat /tmp/rec.out
lost=$(sed -n 's/^record: .* lost=\([0-9]*\) .*/\1/p' /tmp/rec.out)
expect_eq "records lost" 0 "$lost"
expect_eq "tracer after record" nop "$(xenhypfs cat $T/current_tracer)"
xen-dyntrace report /tmp/graph.dat >/tmp/graph.txt || fail "report exited $?"
head -n 14 /tmp/graph.txt
grep -q '^# tracer: function_graph$' /tmp/graph.txt || fail "not the function_graph header"
opens=$(grep -c '^ *[0-9]*) .*|  do_xen_version() {$' /tmp/graph.txt) || true
leaves=$(grep -c '^ *[0-9]*) .* us |    xen_extra_version();$' /tmp/graph.txt) || true
closes=$(grep -c '^ *[0-9]*) .* us |  } /\* do_xen_version \*/$' /tmp/graph.txt) || true
echo "opens=$opens leaves=$leaves closes=$closes"
# dom0's own version calls may add groups; ours are all there.
[ "$leaves" -ge "$n" ] && [ "$opens" -ge "$n" ] && [ "$closes" -ge "$n" ] ||
    fail "expected $n nested groups: opens=$opens leaves=$leaves closes=$closes"
res=$(graph_nesting /tmp/graph.txt)
echo "$res"
case "$res" in *" unopened=0 misattributed=0 negative=0 other=0") ;; *) fail "bad nesting: $res" ;; esac
xen-dyntrace export -f json -o /tmp/graph.json /tmp/graph.dat || fail "export -f json exited $?"
calls=$(grep -o '"name":"xen_extra_version","cat":"d0v[0-9]*","ph":"X","pid":0,"tid":655[3-9][0-9]' /tmp/graph.json | wc -l)
[ "$calls" -ge "$n" ] || fail "only $calls xen_extra_version calls in the JSON"
tracedat_written /tmp/graph.dat
send_to_host XDTGRAPH /tmp/graph.dat "$n"
