# The installed xen-dyntrace records and reports: N reads of /sys/hypervisor/version/extra while
# it records xen_extra_version (--no-filter: this shell shares the recorder's one vCPU) are N
# records in its capture and in its report, each well-formed.
. /opt/dyntrace/tests/lib.sh
reset_tracing
N=7
trap 'rm -f /tmp/cap.dat' EXIT
echo "\$ xen-dyntrace record -t 6 -l xen_extra_version --no-filter -o /tmp/cap.dat &"
xen-dyntrace record -t 6 -l xen_extra_version --no-filter -o /tmp/cap.dat >/tmp/rec.out 2>&1 &
pid=$!
# Until record has switched tracing on.
i=0
while [ "$(xenhypfs cat $T/tracing_on)" != 1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "tracing_on while recording" 1 "$(xenhypfs cat $T/tracing_on)"
i=0
while [ $i -lt $N ]; do cat /sys/hypervisor/version/extra >/dev/null; i=$((i + 1)); done
wait $pid
rc=$?
cat /tmp/rec.out
expect_eq "record's exit status" 0 "$rc"
grep -q "^record: seconds=[0-9.]* records=$N lost=0 " /tmp/rec.out || fail "record did not save exactly $N records"
run xen-dyntrace report /tmp/cap.dat
cp /tmp/run.out /tmp/rep
expect_eq "xen_extra_version records in the report" $N "$(count_records /tmp/rep xen_extra_version)"
check_trace_wellformed /tmp/rep
expect_eq "tracing_on after record" 0 "$(xenhypfs cat $T/tracing_on)"
reset_tracing
