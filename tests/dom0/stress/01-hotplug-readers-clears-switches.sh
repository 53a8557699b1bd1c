# The review's contract under load, with CPU hotplug (4 pCPUs; no hotplug on
# arm64, where Xen 4.17 has none): hot
# functions traced on every pCPU while, at once, two readers read trace, a
# clearer clears it, a toggler flips tracing_on, a switcher changes tracer
# and filter, and a hotplug loop takes pCPUs 1-3 offline and online with
# xen-hptool. For $dyntrace_stress_seconds (default 120) seconds.
#
# Anomalies (each counted, must be 0):
# - a read that is not well-formed, or whose header disagrees with its lines;
# - a read that does not finish within 30 s (xenhypfs spinning on a buffer
#   that is always too small);
# - after a clear returned, a record older than the newest record of the same
#   CPU seen before the clear (per-CPU NOW() is monotonic);
# - the parked-CPU case: a CPU taken offline, a clear, the CPU back online:
#   none of its records from before the clear reappear;
# - a write failing with anything but EBUSY (hotplug or another operation in
#   progress, documented), EAGAIN (hotplug through every retry, documented) or
#   ETIMEDOUT (rendezvous gave up, documented).
# The hypervisor staying up is checked by the host (a crash fails the suite).
. /opt/dyntrace/tests/lib.sh
secs=${dyntrace_stress_seconds:-120}
W=/tmp/stress
rm -rf $W && mkdir -p $W
reset_tracing
run xenhypfs write $T/set_function_filter "do_softirq do_xen_version xen_extra_version"
run xenhypfs write $T/current_tracer function
run xenhypfs write $T/tracing_on 1
start=$(date +%s)
end=$((start + secs))

anomaly() { echo "$*" >>$W/anomalies; }
op() { echo x >>$W/ops.$1; }

# cpu_max FILE: "CPU newest-timestamp" for each CPU with records in FILE.
cpu_max() {
    record_lines "$1" |
        sed -n 's/^ *[^ ]* \[\([0-9]*\)\] [^ ]* *\([0-9]*\.[0-9]*\): .*/\1 \2/p' |
        awk '{ if (!($1 in m) || $2 + 0 > m[$1] + 0) m[$1] = $2 } END { for (c in m) print c, m[c] }'
}
# stale MAXFILE TRACE: records of TRACE not newer than MAXFILE's entry for their CPU.
stale() {
    record_lines "$2" |
        sed -n 's/^ *[^ ]* \[\([0-9]*\)\] [^ ]* *\([0-9]*\.[0-9]*\): .*/\1 \2/p' |
        awk 'NR == FNR { m[$1] = $2; next } ($1 in m) && $2 + 0 <= m[$1] + 0 { n++ } END { print n + 0 }' "$1" -
}
# read_trace FILE WHO: one timed, checked read; returns 1 if it failed (EBUSY).
read_trace() {
    timeout 30 xenhypfs cat $T/trace >"$1" 2>"$1.err"
    rc=$?
    if [ $rc -eq 143 ] || [ $rc -eq 124 ]; then
        anomaly "$2: read did not finish in 30 s"
        return 1
    fi
    if [ $rc -ne 0 ]; then
        grep -q "busy" "$1.err" || anomaly "$2: read failed: $(cat "$1.err")"
        op busy_reads
        return 1
    fi
    if ! (check_trace_wellformed "$1") >"$1.chk" 2>&1; then
        anomaly "$2: $(tail -1 "$1.chk") [rc $rc, $(wc -c <"$1") bytes, first line '$(head -1 "$1")', stderr '$(cat "$1.err")']"
        cp "$1" $W/bad.$2.$(date +%s)
        return 1
    fi
    op reads
    return 0
}
# write_ok WHO PATH VALUE: a write that may only fail with EBUSY/ETIMEDOUT
# (or EAGAIN: CPU hotplug held the CPU maps through every rendezvous retry).
write_ok() {
    if xenhypfs write "$2" "$3" 2>$W/err.$1; then
        op writes
        return 0
    fi
    if grep -q -e "busy" -e "temporarily unavailable" $W/err.$1; then
        op busy_writes
    elif grep -q "timed out" $W/err.$1; then
        op timeouts
    else
        anomaly "$1: write $3 to $2 failed: $(cat $W/err.$1)"
    fi
    return 1
}
# probe_checked WHO: 50 back-to-back header-only reads of tracing_on (what
# xenhypfs does before every write: a buffer of one 12-byte entry header):
# each must fail ENOBUFS with the header filled in (bool, plain, 1 byte,
# writable).
probe_checked() {
    if out=$(headers_ok $T/tracing_on 50 \
             "content_len=1 type=5 encoding=0 max_write_len=1"); then
        op probes
    else
        anomaly "$1: header probe of tracing_on: $(echo $out)"
    fi
}
# clear_checked WHO: newest record per CPU, clear, then no record as old.
clear_checked() {
    read_trace $W/$1.before $1 || return 0
    cpu_max $W/$1.before >$W/$1.max
    write_ok $1 $T/trace "" || return 0
    op clears
    read_trace $W/$1.after $1 || return 0
    n=$(stale $W/$1.max $W/$1.after)
    [ "$n" = 0 ] || { anomaly "$1: $n records from before the clear"; cp $W/$1.after $W/bad.$1.stale.$(date +%s); }
    return 0
}

reader() {
    while [ "$(date +%s)" -lt $end ]; do
        read_trace $W/reader$1 reader$1
    done
}
clearer() {
    while [ "$(date +%s)" -lt $end ]; do
        cat /sys/hypervisor/version/extra >/dev/null
        clear_checked clearer
    done
}
# Each toggle is preceded by a checked batch of the header probes xenhypfs
# makes; a failed write is recorded by write_ok.
toggle() {
    probe_checked toggler
    write_ok toggler $T/tracing_on $1 || true
}
toggler() {
    while [ "$(date +%s)" -lt $end ]; do
        toggle 0
        sleep 1
        toggle 1
        sleep 2
    done
    toggle 1
}
switcher() {
    i=0
    while [ "$(date +%s)" -lt $end ]; do
        i=$((i + 1))
        case $((i % 4)) in
        0) write_ok switcher $T/current_tracer nop ;;
        1) write_ok switcher $T/current_tracer function ;;
        2) write_ok switcher $T/set_function_filter "do_softirq do_xen_version xen_extra_version" ;;
        3) write_ok switcher $T/set_function_filter "do_softirq xen_extra_version" ;;
        esac
        sleep 1
    done
}
hotplug() {
    while [ "$(date +%s)" -lt $end ]; do
        for c in 1 2 3; do
            [ "$(date +%s)" -lt $end ] || break
            # The review's parked-CPU case: newest records, CPU c offline, a
            # clear, CPU c online again: none of its old records may show.
            read_trace $W/hp.before hotplug || continue
            cpu_max $W/hp.before >$W/hp.max
            if ! xen-hptool cpu-offline $c >$W/hp.out 2>&1; then
                op hptool_failures
                continue
            fi
            op offlines
            cleared=0
            for try in 1 2 3 4 5; do
                write_ok hotplug $T/trace "" && { cleared=1; break; }
                sleep 1
            done
            xen-hptool cpu-online $c >$W/hp.out 2>&1 || anomaly "hotplug: cpu-online $c failed: $(cat $W/hp.out)"
            op onlines
            [ $cleared = 1 ] || continue
            sleep 1
            read_trace $W/hp.after hotplug || continue
            n=$(stale $W/hp.max $W/hp.after)
            [ "$n" = 0 ] || { anomaly "hotplug: CPU$c offline during a clear: $n records from before the clear"; cp $W/hp.after $W/bad.hotplug.$(date +%s); }
            op parked_checks
        done
    done
}
count() { [ -f $W/ops.$1 ] && wc -l <$W/ops.$1 || echo 0; }

# Xen 4.17 has run-time CPU hotplug on x86 only (and Debian ships
# xen-hptool for x86 only): elsewhere the test runs without the hotplug loop.
hotplug_on=0
command -v xen-hptool >/dev/null && hotplug_on=1
[ $hotplug_on = 1 ] || echo "no xen-hptool on $(uname -m): running without CPU hotplug"
reader 1 &
reader 2 &
clearer &
toggler &
switcher &
[ $hotplug_on = 0 ] || hotplug &
wait
secs_run=$(($(date +%s) - start))

# All pCPUs back, a final consistent read.
[ $hotplug_on = 0 ] || for c in 1 2 3; do xen-hptool cpu-online $c >/dev/null 2>&1; done
xenhypfs write $T/tracing_on 0
read_trace $W/final final
grep '^# entries' $W/final
record_lines $W/final | sed -n 's/.*\[\([0-9]*\)\].*/\1/p' | sort | uniq -c

ops=0
for k in reads writes probes clears offlines onlines parked_checks busy_reads busy_writes timeouts hptool_failures; do
    echo "$k=$(count $k)"
    ops=$((ops + $(count $k)))
done
anomalies=0
[ -f $W/anomalies ] && anomalies=$(wc -l <$W/anomalies)
if [ "$anomalies" != 0 ]; then
    echo "anomalies by kind:"
    sed 's/^\([^:]*: [^0-9/:]*\).*/\1/' $W/anomalies | sort | uniq -c
    head -20 $W/anomalies
fi
echo "stress hotplug-qemu: ops=$ops anomalies=$anomalies seconds=$secs_run"
[ "$anomalies" = 0 ] || fail "$anomalies anomalies"
[ $hotplug_on = 0 ] || [ "$(count parked_checks)" -gt 0 ] || fail "no parked-CPU check completed"
[ "$(count clears)" -gt 0 ] || fail "no clear completed"
[ "$(count reads)" -gt 0 ] || fail "no read completed"
reset_tracing
