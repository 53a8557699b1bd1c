# A short capture of '*' with a domU-free dom0 at work, handed to the host through the serial
# log (gzip, base64, with its sha256 and size): make check exports it to trace.dat and JSON there
# and opens them with trace-cmd and speedscope (tests/viewers/check-exports.sh).
. /opt/dyntrace/tests/lib.sh
reset_tracing
xen-dyntrace record -t 2 -l '*' -b 4096 -q -o /tmp/host.dat >/tmp/rec.out 2>&1 || { cat /tmp/rec.out; fail "record exited"; }
cat /tmp/rec.out
lost=$(sed -n 's/^record: .* lost=\([0-9]*\) .*/\1/p' /tmp/rec.out)
expect_eq "records lost" 0 "$lost"
# The dom0 build exports JSON and trace.dat too.
xen-dyntrace export -f json -o /tmp/host.json /tmp/host.dat || fail "export -f json exited $?"
grep -q '"traceEvents"' /tmp/host.json || fail "no traceEvents in the JSON"
tracedat_written /tmp/host.dat
send_to_host XDTFILE /tmp/host.dat
