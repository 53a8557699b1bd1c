# xen-dyntrace record -- COMMAND, and record's -M, -g, --max-depth, --thresh and --trigger.
# - record -l xen_extra_version -- COMMAND: exit status the command's (7; 128+15 for one killed
#   by SIGTERM; 127 for one that does not exist); the command's 5 reads of version/extra are the
#   capture's 5 records, none of the reads before or after it; the capture names the command.
# - with a reader at work throughout (every 20 ms), `-- sleep 2` records for about 2 s only:
#   every record within the command's life, the recording ends with it (not at -t 30).
# - -M 1: records of pCPU 0 only; -g do_xen_version --max-depth 2: function_graph below
#   do_xen_version, depth at most 2; --trigger xen_extra_version:traceoff: the recording ends
#   at the trigger by itself, the trigger is gone afterwards.
# - after each, every setting is as before (like_boot).
. /opt/dyntrace/tests/lib.sh
. /opt/dyntrace/tests/record/killed.inc
reset_tracing
extra=/sys/hypervisor/version/extra
ncpu=$(grep -c ^processor /proc/cpuinfo)
# With one dom0 vCPU record leaves out the only one the command can run on: trace it too (the
# filters keep the recorder's own reads out).
nf=
[ "$ncpu" -gt 1 ] || nf=--no-filter

cat $extra >/dev/null
xen-dyntrace record $nf -l xen_extra_version -o $cap -- \
    sh -c "for i in 1 2 3 4 5; do cat $extra >/dev/null; done; exit 7" >/tmp/rec.out 2>/tmp/rec.err
rc=$?
cat /tmp/rec.out /tmp/rec.err
cat $extra >/dev/null
expect_eq "record's exit status (the command's)" 7 "$rc"
if [ "$ncpu" -gt 1 ]; then
    grep -q '^xen-dyntrace: record: not recording d0v[0-9]*, the dom0 vCPU it runs on' /tmp/rec.err ||
        fail "record did not say which vCPU it leaves out"
fi
xen-dyntrace report $cap >/tmp/report.txt || fail "report exited $?"
grep -q "^# command: sh -c for i in" /tmp/report.txt || fail "the report does not name the command"
expect_eq "xen_extra_version records (the command's 5 reads)" 5 "$(count_records /tmp/report.txt xen_extra_version)"
like_boot "after record -- COMMAND"

# -o -: the capture on standard output, the command's own output on standard error.
xen-dyntrace record -q $nf -l xen_extra_version -o - -- \
    sh -c "echo HELLO; for i in 1 2 3; do cat $extra >/dev/null; done" >$cap 2>/tmp/rec.err
rc=$?
expect_eq "record -o - -- COMMAND: exit status" 0 "$rc"
grep -qx HELLO /tmp/rec.err || fail "the command's output is not on standard error"
grep -q '^record: seconds=' /tmp/rec.err || fail "record's summary is not on standard error"
xen-dyntrace report $cap >/tmp/report.txt || fail "report of record -o - exited $?"
expect_eq "xen_extra_version records of record -o -" 3 "$(count_records /tmp/report.txt xen_extra_version)"

# -t ends the recording before the command: record waits for it, and returns its status.
xen-dyntrace record -q -t 1 -l xen_extra_version -o $cap -- sh -c 'sleep 2; exit 4' >/dev/null 2>/tmp/rec.err
expect_eq "record -t 1 -- a command of 2 s: exit status" 4 "$?"
grep -q 'recording ended; waiting for sh to exit' /tmp/rec.err || fail "record did not say it waits for the command"

# -k -d D: the tracer and D stay, record's own !d0vN does not.
xen-dyntrace record -q -k -t 1 -d d0 -l xen_extra_version -o $cap >/dev/null 2>&1 || fail "record -k exited $?"
expect_eq "set_domain_filter after record -k -d d0" d0 "$(xenhypfs cat $T/set_domain_filter)"
reset_tracing

# A command killed by a signal, and one that cannot run.
xen-dyntrace record -q -l xen_extra_version -o $cap -- sh -c 'kill -TERM $$' >/dev/null 2>&1
expect_eq "record's exit status for a command killed by SIGTERM" 143 "$?"
xen-dyntrace record -q -l xen_extra_version -o $cap -- /no/such/command >/dev/null 2>/tmp/rec.err
expect_eq "record's exit status for a command that does not exist" 127 "$?"
grep -q 'no/such/command: No such file or directory' /tmp/rec.err || fail "no error for the missing command"
like_boot "after the failed commands"

# Records only during the command's life: a reader every 20 ms throughout.
(while [ ! -e /tmp/stop.reader ]; do cat $extra >/dev/null; sleep 0.02; done) &
reader=$!
rm -f /tmp/stop.reader
sleep 1
xen-dyntrace record -q -t 30 -l xen_extra_version --no-filter -o $cap -- sleep 2 >/tmp/rec.out 2>&1
rc=$?
sleep 1
touch /tmp/stop.reader
wait $reader
cat /tmp/rec.out
expect_eq "record -- sleep 2: exit status" 0 "$rc"
secs=$(sed -n 's/^record: seconds=\([0-9.]*\) .*/\1/p' /tmp/rec.out)
awk -v s="$secs" 'BEGIN { exit !(s >= 1.9 && s < 4) }' || fail "recorded for $secs s, not the command's 2 s"
xen-dyntrace report -t $cap >/tmp/report.txt || fail "report exited $?"
n=$(count_records /tmp/report.txt xen_extra_version)
first=$(record_lines /tmp/report.txt | head -n1 | awk '{print $4}' | tr -d :)
last=$(record_lines /tmp/report.txt | tail -n1 | awk '{print $4}' | tr -d :)
echo "records: $n from $first to $last s"
awk -v a="$first" -v b="$last" -v s="$secs" -v n="$n" 'BEGIN { exit !(n >= 20 && b - a <= s + 0.05 && b - a >= 1.5) }' ||
    fail "$n records over $first..$last s for a command of $secs s"
like_boot "after record -- sleep 2"

# -M 1: pCPU 0 only.
xen-dyntrace record -q -t 2 -M 1 -l 'do_softirq do_xen_version xen_extra_version' -o $cap \
    >/tmp/rec.out 2>&1 || { cat /tmp/rec.out; fail "record -M 1 exited $?"; }
xen-dyntrace report $cap >/tmp/report.txt
n=$(record_lines /tmp/report.txt | wc -l)
other=$(record_lines /tmp/report.txt | grep -vc ' \[000\] ' || true)
[ "$n" -gt 0 ] && [ "$other" = 0 ] || fail "record -M 1: $n records, $other not of pCPU 0"
grep -q '^# tracing_cpumask: 1$' /tmp/report.txt || fail "the report does not give the CPU mask"
like_boot "after record -M 1"

# -g FUNC --max-depth 2: function_graph (implied) under do_xen_version, two levels.
if xenhypfs cat $T/available_tracers | grep -qw function_graph; then
    xen-dyntrace record -q --no-filter -g do_xen_version --max-depth 2 -l '*' -o $cap -- cat $extra \
        >/tmp/rec.out 2>&1 || { cat /tmp/rec.out; fail "record -g exited $?"; }
    xen-dyntrace report $cap >/tmp/report.txt
    grep -q '^# tracer: function_graph$' /tmp/report.txt || fail "-g did not imply function_graph"
    grep -q '|  do_xen_version() {$' /tmp/report.txt || fail "no do_xen_version() { at depth 1"
    deep=$(record_lines /tmp/report.txt | grep -cE '\|[^|]*\|      +[^ ]' || true)
    [ "$(record_lines /tmp/report.txt | grep -cE '\|[^|]*\|    [^ ]')" -gt 0 ] || fail "no call at depth 2"
    expect_eq "lines deeper than depth 2" 0 "$deep"
    like_boot "after record -g"
fi

# --trigger FUNC:traceoff: the recording ends at the trigger.
xen-dyntrace record $nf -t 60 -l 'do_xen_version xen_extra_version' --trigger xen_extra_version:traceoff \
    -o $cap -- sh -c "sleep 1; cat $extra; sleep 1; cat $extra" >/tmp/rec.out 2>/tmp/rec.err
rc=$?
cat /tmp/rec.out /tmp/rec.err
expect_eq "record --trigger: exit status" 0 "$rc"
grep -q 'tracing turned off by a trigger' /tmp/rec.err || fail "record did not end at the trigger"
xen-dyntrace report $cap >/tmp/report.txt
expect_eq "xen_extra_version records (up to the trigger)" 1 "$(count_records /tmp/report.txt xen_extra_version)"
like_boot "after record --trigger"
rm -f $cap
