# xen-dyntrace record: 60 s of '*' on every pCPU (2 in make check) into a capture, with buffers
# sized to keep up. Nothing is lost, the capture holds exactly what the per-CPU stats say was
# written, and report prints every record, well-formed. dyntrace_record_seconds= shortens it.
. /opt/dyntrace/tests/lib.sh
reset_tracing
secs=${dyntrace_record_seconds:-60}

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
t0=$(date +%s)
xen-dyntrace report /tmp/cap.dat >/tmp/rep.txt || fail "report exited $?"
echo "report: $(($(date +%s) - t0)) s, $(wc -c </tmp/rep.txt) bytes"
head -n 14 /tmp/rep.txt
# E = T: nothing lost, so no LOST line either. (Each pass over the 190 MB report takes tens of
# seconds under TCG: one count, and the samples below.)
expect_eq "report's entries header" "$records/$records" \
    "$(head -n 3 /tmp/rep.txt | sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\/[0-9]*\) .*/\1/p')"
expect_eq "report's lines (10 of header)" $((records + 10)) "$(wc -l </tmp/rep.txt)"
# Every line well-formed would take minutes under TCG: the first and last 20000 are checked.
{ head -n 20010 /tmp/rep.txt; tail -n 20000 /tmp/rep.txt; } >/tmp/rep-sample.txt
bad=$(record_lines /tmp/rep-sample.txt | grep -vcE '^ *(d[0-9]+v[0-9]+|<idle>) \[[0-9]{3}\] [d.][h.][z.] +[0-9]+\.[0-9]{6}: [^ ]+ <-[^ ]+$' || true)
expect_eq "malformed lines among the first and last 20000" 0 "$bad"
echo "checks: $(($(date +%s) - t0)) s"
rm -f /tmp/cap.dat /tmp/rep.txt /tmp/rep-sample.txt
