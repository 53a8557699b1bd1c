# Row 4: Debian's xentrace recording every event class while the loop runs.
. /opt/dyntrace/tests/bench/lib-bench.inc
xentrace -D -e all -S 32 /tmp/xentrace.bin >/tmp/xentrace.out 2>&1 &
pid=$!
sleep 2
kill -0 $pid 2>/dev/null || { cat /tmp/xentrace.out; fail "xentrace did not start"; }
hypercall_loop xentrace
kill -INT $pid
wait $pid
bytes=$(wc -c </tmp/xentrace.bin)
[ "$bytes" -gt 0 ] || fail "xentrace wrote nothing"
echo "BENCH xentrace_file bytes=$bytes"
