# xen-dyntrace record: 60 s of '*' on every pCPU (2 in make check) into a capture, with buffers
# sized to keep up. Nothing is lost, the capture holds exactly what the per-CPU stats say was
# written, and report prints every record, well-formed. dyntrace_record_seconds= shortens it.
. /opt/dyntrace/tests/lib.sh
reset_tracing
secs=${dyntrace_record_seconds:-60}
# The capture takes 75 to 150 MB of dom0's RAM (/tmp): gone whatever the outcome.
trap 'rm -f /tmp/cap.dat /tmp/rep-sample.txt /tmp/rep.err' EXIT

# -k keeps the tracer (tracing off) so that the stats can be read afterwards.
echo "\$ xen-dyntrace record -t $secs -l '*' -b 4096 -k -o /tmp/cap.dat"
xen-dyntrace record -t "$secs" -l '*' -b 4096 -k -o /tmp/cap.dat >/tmp/rec.out 2>&1
rc=$?
cat /tmp/rec.out
expect_eq "record's exit status" 0 "$rc"
line=$(grep '^record: seconds=' /tmp/rec.out) || fail "no summary line"
echo "$line" | grep -qE '^record: seconds=[0-9]+\.[0-9] records=[0-9]+ lost=[0-9]+ rate=[0-9]+/s$' ||
    fail "summary line malformed: $line"
records=$(echo "$line" | sed 's/.* records=\([0-9]*\) .*/\1/')
lost=$(echo "$line" | sed 's/.* lost=\([0-9]*\) .*/\1/')
expect_eq "records lost" 0 "$lost"
[ "$records" -gt $((secs * 1000)) ] || fail "only $records records in $secs s with '*'"

# Every CPU's stats: written adds up to what record saved; nothing dropped or overwritten.
written=0
for c in $(xenhypfs ls $T/per_cpu | grep -o 'cpu[0-9]*'); do
    xenhypfs cat $T/per_cpu/$c/stats >/tmp/stats
    w=$(sed -n 's/^written: //p' /tmp/stats)
    echo "$c: written $w, $(sed -n 's/^read events: /read /p' /tmp/stats), $(sed -n 's/^dropped events: /dropped /p' /tmp/stats), $(sed -n 's/^overrun: /overrun /p' /tmp/stats)"
    expect_eq "$c dropped events" 0 "$(sed -n 's/^dropped events: //p' /tmp/stats)"
    expect_eq "$c overrun" 0 "$(sed -n 's/^overrun: //p' /tmp/stats)"
    expect_eq "$c entries left unread" 0 "$(sed -n 's/^entries: //p' /tmp/stats)"
    written=$((written + w))
done
expect_eq "records saved = written per the per-CPU stats" "$written" "$records"
# The domain filter that kept record's own vCPU out is put back.
expect_eq "set_domain_filter after record -k" "" "$(xenhypfs cat $T/set_domain_filter)"
reset_tracing

ls -l /tmp/cap.dat
# The report is 2.5 times the capture (up to 400 MB here): it is never stored, each check reads it
# through a pipe. Errors go to stderr, so an empty /tmp/rep.err means report wrote all of it.
t0=$(date +%s)
lines=$(xen-dyntrace report /tmp/cap.dat 2>/tmp/rep.err | wc -l)
[ ! -s /tmp/rep.err ] || { cat /tmp/rep.err; fail "report failed"; }
echo "report: $(($(date +%s) - t0)) s, $lines lines"
xen-dyntrace report /tmp/cap.dat 2>/dev/null | head -n 20016 >/tmp/rep-sample.txt
# The header: the tracer's 10 lines, and what the recording left out and its filter (3 here).
hdr=$(grep -c '^#' /tmp/rep-sample.txt)
expect_eq "report's header lines" 13 "$hdr"
grep -qx "# not recorded: d0v[0-9]*, the dom0 vCPU xen-dyntrace record ran on (record --no-filter records it)" \
    /tmp/rep-sample.txt || fail "the header does not say which vCPU was left out"
expect_eq "report's lines ($hdr of header)" $((records + hdr)) "$lines"
head -n 14 /tmp/rep-sample.txt
# E = T: nothing lost, so no LOST line either.
expect_eq "report's entries header" "$records/$records" \
    "$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\/[0-9]*\) .*/\1/p' /tmp/rep-sample.txt)"
# Every line well-formed would take minutes under TCG: the first and last 20000 are checked.
xen-dyntrace report /tmp/cap.dat 2>/dev/null | tail -n 20000 >>/tmp/rep-sample.txt
bad=$(record_lines /tmp/rep-sample.txt | grep -vcE '^ *(d[0-9]+v[0-9]+|<idle>) \[[0-9]{3}\] [d.][h.][z.] +[0-9]+\.[0-9]{6}: [^ ]+ <-[^ ]+$' || true)
expect_eq "malformed lines among the first and last 20000" 0 "$bad"
echo "checks: $(($(date +%s) - t0)) s"
