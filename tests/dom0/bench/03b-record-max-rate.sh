# (Named 03b: it runs before 04-patch-latency, whose rendezvous lines bench-report.py reads last.)
# record_max_rate: the highest rate of records xen-dyntrace record keeps up with, losing none, at
# its default poll interval (100 ms) and the default buffer (64 KiB, 2048 records per CPU). A
# paced generator (dyntrace-bench paced) makes one record per hypercall (filter
# xen_extra_version) while record runs; the rate doubles from 1000/s until records are lost, the
# generator cannot keep the pace, or the capture misses a call, then bisects three times.
# 1 pCPU, 1 dom0 vCPU: record shares it with the generator, so --no-filter (its own vCPU is the
# generator's). Rates are per second of guest time (-icount: 1 ns per instruction).
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
secs=${BENCH_RECORD_SECONDS:-3}

# try RATE: 0 if record kept up (lost 0, every call recorded, pace held).
try() {
    rm -f /tmp/rate.dat
    xen-dyntrace record --no-filter -l xen_extra_version -q -o /tmp/rate.dat >/tmp/rate.rec 2>&1 &
    pid=$!
    sleep 1
    gen=$(dyntrace-bench paced "$1" "$secs") || fail "paced generator: $gen"
    sleep 1
    kill -INT $pid
    wait $pid || fail "record exited $?: $(cat /tmp/rate.rec)"
    calls=$(echo "$gen" | sed 's/.*calls=\([0-9]*\) .*/\1/')
    got=$(echo "$gen" | sed 's/.* rate=\([0-9]*\) .*/\1/')
    line=$(grep '^record: seconds=' /tmp/rate.rec)
    records=$(echo "$line" | sed 's/.* records=\([0-9]*\) .*/\1/')
    lost=$(echo "$line" | sed 's/.* lost=\([0-9]*\) .*/\1/')
    echo "rate $1/s: generator $got/s, $calls calls; $line"
    [ "$lost" = 0 ] && [ "$records" = "$calls" ] && [ "$got" -ge $(($1 * 9 / 10)) ]
}

good=0 bad=
rate=1000
while [ -z "$bad" ] && [ "$rate" -le 4096000 ]; do
    if try $rate; then good=$rate; rate=$((rate * 2)); else bad=$rate; fi
done
[ "$good" -gt 0 ] || fail "record loses records even at 1000/s"
if [ -n "$bad" ]; then
    for i in 1 2 3; do
        mid=$(((good + bad) / 2))
        if try $mid; then good=$mid; else bad=$mid; fi
    done
fi
echo "BENCH record_max_rate rate=$good lost_at=${bad:-none} seconds=$secs"
reset_tracing
rm -f /tmp/rate.dat
