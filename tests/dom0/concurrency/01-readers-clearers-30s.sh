# Frequently hit functions traced on every pCPU while two readers read trace
# and a clearer clears it, for 30 s ($dyntrace_concurrency_seconds: make check's
# CONCURRENCY_SECONDS): the hypervisor stays up, every read is well-formed and
# its header matches its lines.
. /opt/dyntrace/tests/lib.sh
secs=${dyntrace_concurrency_seconds:-30}
reset_tracing
run xenhypfs write $T/set_function_filter "do_softirq do_xen_version xen_extra_version"
run xenhypfs write $T/current_tracer function
run xenhypfs write $T/tracing_on 1
rm -f /tmp/stress.*
end=$(($(date +%s) + secs))

reader() {
    n=0
    while [ "$(date +%s)" -lt $end ]; do
        if ! xenhypfs cat $T/trace >/tmp/stress.trace$1 2>/tmp/stress.err$1; then
            echo "reader $1: read failed: $(cat /tmp/stress.err$1)" >>/tmp/stress.fail
            continue
        fi
        (check_trace_wellformed /tmp/stress.trace$1) >/tmp/stress.check$1 2>&1 ||
            { echo "reader $1: $(cat /tmp/stress.check$1)" >>/tmp/stress.fail; cp /tmp/stress.trace$1 /tmp/stress.bad$1; }
        n=$((n + 1))
    done
    echo $n >/tmp/stress.reads$1
}
clearer() {
    n=0
    while [ "$(date +%s)" -lt $end ]; do
        xenhypfs write $T/trace "" 2>>/tmp/stress.fail || true
        cat /sys/hypervisor/version/extra >/dev/null
        n=$((n + 1))
    done
    echo $n >/tmp/stress.clears
}
reader 1 &
reader 2 &
clearer &
wait
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace >/tmp/trace
check_trace_wellformed /tmp/trace
echo "reads: $(cat /tmp/stress.reads1) + $(cat /tmp/stress.reads2), clears: $(cat /tmp/stress.clears)"
grep '^# entries' /tmp/trace
record_lines /tmp/trace | sed -n 's/.*\[\([0-9]*\)\].*/\1/p' | sort | uniq -c
if [ -s /tmp/stress.fail ]; then
    head -20 /tmp/stress.fail
    fail "$(wc -l </tmp/stress.fail) anomalies"
fi
[ "$(cat /tmp/stress.reads1)" -gt 0 ] && [ "$(cat /tmp/stress.reads2)" -gt 0 ] || fail "a reader never read"
reset_tracing
