# trace_pipe and per_cpu/: consuming reads. A read returns the oldest records
# not consumed yet and consumes exactly those; a size probe (ENOBUFS) consumes
# nothing; records lost before they were read (overwritten, or dropped while a
# reader held the buffer) are reported in-band as "CPU:N [LOST M EVENTS]".
# per_cpu/cpuN/ holds each CPU's trace, trace_pipe, trace_pipe_raw and stats.
. /opt/dyntrace/tests/lib.sh
needs_series 4 trace_pipe
reset_tracing
run xenhypfs write $T/set_function_filter xen_extra_version
run xenhypfs write $T/current_tracer function

# lost_sum FILE: the sum of a pipe capture's LOST lines.
lost_sum() {
    sed -n 's/^CPU:[0-9]* \[LOST \([0-9]*\) EVENTS\]$/\1/p' "$1" | awk '{ s += $1 } END { print s + 0 }'
}
# header FILE: "E T" of a trace's entries-in-buffer/entries-written.
header() {
    sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/\([0-9]*\) .*/\1 \2/p' "$1"
}
# stat FILE NAME: one value of a per_cpu/cpuN/stats read.
stat() { sed -n "s/^$2: //p" "$1"; }

# per_cpu/ lists one directory per CPU owning a buffer.
ncpu=$(($(xenhypfs cat $T/buffer_total_size_kb) / $(xenhypfs cat $T/buffer_size_kb)))
run xenhypfs ls $T/per_cpu
cpus=$(grep -o 'cpu[0-9]*' /tmp/run.out | sed 's/cpu//' | sort -n | tr '\n' ' ')
expect_eq "per_cpu directories" "$ncpu" "$(echo $cpus | wc -w)"
run xenhypfs ls $T/per_cpu/cpu0
for f in stats trace trace_pipe trace_pipe_raw; do
    grep -qw "$f" /tmp/run.out || fail "per_cpu/cpu0 has no $f"
done
expect_error "No such file or directory" xenhypfs cat $T/per_cpu/cpu4096/stats
expect_error "No such file or directory" xenhypfs cat $T/per_cpu/cpu00/stats

# A probe consumes nothing; a read consumes what it returned, once.
run xenhypfs write $T/tracing_on 1
dyntrace-bench hypercall 10 >/dev/null || fail "hypercalls"
echo "\$ hypfs-raw read $T/trace_pipe 16"
out=$(hypfs-raw read $T/trace_pipe 16)
echo "$out"
case "$out" in "rc=-1 errno=ENOBUFS "*) ;; *) fail "a 16-byte read of trace_pipe: expected ENOBUFS" ;; esac
xenhypfs cat $T/trace >/tmp/t1.txt
expect_eq "records in trace after the probe" 10 "$(count_records /tmp/t1.txt xen_extra_version)"
xenhypfs cat $T/trace_pipe >/tmp/p1.txt
cat /tmp/p1.txt
expect_eq "records returned by trace_pipe" 10 "$(count_records /tmp/p1.txt xen_extra_version)"
! grep -q '^#' /tmp/p1.txt || fail "trace_pipe has a header"
xenhypfs cat $T/trace >/tmp/t2.txt
check_trace_wellformed /tmp/t2.txt
expect_eq "trace after the pipe read (E T)" "0 10" "$(header /tmp/t2.txt)"
xenhypfs cat $T/trace_pipe >/tmp/p2.txt
expect_eq "a second trace_pipe read" 0 "$(record_lines /tmp/p2.txt | wc -l)"

# Exactly once, with two consumers: N records made on every dom0 vCPU while
# trace_pipe is read in a loop and, at the same time, CPU0's trace_pipe_raw is
# drained (a read of one consumer whose records the other took first fails
# EAGAIN and is retried). What both returned, plus the losses both reported,
# is N, and no record was returned twice.
run xenhypfs write $T/trace ""
n=${PIPE_RECORDS:-20000}
rm -f /tmp/pipe.stop /tmp/pipe.err
: >/tmp/pipe.all
(
    reads=0
    eagain=0
    while [ ! -f /tmp/pipe.stop ]; do
        if ! xenhypfs cat $T/trace_pipe >>/tmp/pipe.all 2>/tmp/pipe.err1; then
            # The raw drain took the records first: nothing consumed, read again.
            if grep -q "Resource temporarily unavailable" /tmp/pipe.err1; then
                eagain=$((eagain + 1))
            else
                cat /tmp/pipe.err1 >>/tmp/pipe.err
            fi
        fi
        reads=$((reads + 1))
    done
    echo "$reads (EAGAIN $eagain)" >/tmp/pipe.reads
) &
reader=$!
hypfs-raw drain $T/per_cpu/cpu0/trace_pipe_raw /tmp/pipe.stop /tmp/raw.all >/tmp/raw.out &
drainer=$!
# Each vCPU makes its share in 40 bursts, so that reads interleave with them.
nv=$(nproc)
burst=$((n / nv / 40))
per=$((burst * 40))
pids=
for v in $(seq 0 $((nv - 1))); do
    taskset -c $v sh -c "for b in \$(seq 40); do dyntrace-bench hypercall $burst >/dev/null || exit 1; done" &
    pids="$pids $!"
done
for p in $pids; do wait $p || fail "hypercalls"; done
touch /tmp/pipe.stop
wait $reader
wait $drainer || { cat /tmp/raw.out; fail "the raw drain saw malformed reads"; }
cat /tmp/raw.out
run xenhypfs write $T/tracing_on 0
for i in 1 2 3 4 5 6 7 8; do
    xenhypfs cat $T/trace_pipe >/tmp/pd.txt
    [ -s /tmp/pd.txt ] && [ "$(record_lines /tmp/pd.txt | wc -l)" != 0 ] || break
    cat /tmp/pd.txt >>/tmp/pipe.all
done
[ ! -s /tmp/pipe.err ] || { cat /tmp/pipe.err; fail "trace_pipe reads failed"; }
made=$((per * nv))
raw=$(sed -n 's/.* records=\([0-9]*\) .*/\1/p' /tmp/raw.out)
rawlost=$(sed -n 's/.* lost=\([0-9]*\) .*/\1/p' /tmp/raw.out)
got=$(($(count_records /tmp/pipe.all xen_extra_version) + raw))
lost=$(($(lost_sum /tmp/pipe.all) + rawlost))
bad=$(record_lines /tmp/pipe.all | grep -v ': xen_extra_version <-' | grep -vc '^CPU:[0-9]* \[LOST [0-9]* EVENTS\]$' || true)
xenhypfs cat $T/trace >/tmp/t3.txt
note "pipe: made=$made reads=$(cat /tmp/pipe.reads) returned=$got (raw $raw) lost=$lost (raw $rawlost) trace(E T)=$(header /tmp/t3.txt)"
expect_eq "lines that are neither records nor losses" 0 "$bad"
expect_eq "records returned + lost" "$made" "$((got + lost))"
expect_eq "trace after the pipe drained it (E T)" "0 $made" "$(header /tmp/t3.txt)"
# The raw records' function address is the one available_functions_addrs
# gives xen_extra_version.
xenhypfs cat $T/available_functions_addrs >/tmp/addrs.txt
expect_eq "available_functions_addrs lines" "$(xenhypfs cat $T/available_functions | wc -l)" "$(wc -l </tmp/addrs.txt)"
addr=$(awk '$2 == "xen_extra_version" { print $1 }' /tmp/addrs.txt)
note "xen_extra_version at $addr"
if [ "$raw" -gt 0 ]; then
    want_ip=0x$(echo "$addr" | sed 's/^0*//')
    bad_ip=$(awk '{ print $3 }' /tmp/raw.all | sort -u | grep -vcx "$want_ip" || true)
    expect_eq "raw records whose address is not xen_extra_version's" 0 "$bad_ip"
fi
# No record twice: timestamps and CPUs are unique per record.
dups=$({ grep ': xen_extra_version <-' /tmp/pipe.all | awk '{ print $2, $4 }'; awk '{ print $1, $2 }' /tmp/raw.all; } |
    sort | uniq -d | wc -l)
expect_eq "records returned twice" 0 "$dups"

# per_cpu: each CPU's stats add up to trace's header; a raw probe consumes
# nothing and a raw read consumes what it returned.
run xenhypfs write $T/trace ""
run xenhypfs write $T/tracing_on 1
for v in $(seq 0 $((nv - 1))); do
    taskset -c $v dyntrace-bench hypercall 300 >/dev/null || fail "hypercalls"
done
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace_pipe | head -n 100 >/dev/null    # consume some
e=0
t=0
for c in $cpus; do
    xenhypfs cat $T/per_cpu/cpu$c/stats >/tmp/s.$c
    e=$((e + $(stat /tmp/s.$c entries)))
    t=$((t + $(stat /tmp/s.$c written) + $(stat /tmp/s.$c "dropped events")))
    [ "$(stat /tmp/s.$c "dropped events")" = \
      "$(($(stat /tmp/s.$c "dropped nested") + $(stat /tmp/s.$c "dropped held")))" ] ||
        fail "cpu$c: dropped events is not nested + held"
done
cat /tmp/s.0
xenhypfs cat $T/trace >/tmp/t4.txt
check_trace_wellformed /tmp/t4.txt
expect_eq "per-CPU stats summed (E T)" "$(header /tmp/t4.txt)" "$e $t"
# trace_pipe_raw's sizes, from the public header (public/dyntrace.h).
sizes=$(hypfs-raw raw-sizes) || fail "hypfs-raw raw-sizes"
raw_hdr=${sizes% *}
raw_rec=${sizes#* }
for c in $cpus; do
    ent=$(stat /tmp/s.$c entries)
    [ "$ent" -gt 0 ] || continue
    [ "$ent" -le 4096 ] || fail "cpu$c: $ent entries, more than a raw read returns"
    want="content_len=$((raw_hdr + raw_rec * ent))"
    out=$(hypfs-raw read $T/per_cpu/cpu$c/trace_pipe_raw 16)
    echo "cpu$c raw probe: $out"
    case "$out" in "rc=-1 errno=ENOBUFS $want "*) ;; *) fail "cpu$c: raw probe, expected ENOBUFS $want" ;; esac
    xenhypfs cat $T/per_cpu/cpu$c/stats >/tmp/s2.$c
    expect_eq "cpu$c entries after the probe" "$ent" "$(stat /tmp/s2.$c entries)"
    out=$(hypfs-raw read $T/per_cpu/cpu$c/trace_pipe_raw 200000)
    echo "cpu$c raw read: $out"
    case "$out" in "rc=0 errno=0 $want "*) ;; *) fail "cpu$c: raw read, expected $want" ;; esac
    xenhypfs cat $T/per_cpu/cpu$c/stats >/tmp/s3.$c
    expect_eq "cpu$c entries after the raw read" 0 "$(stat /tmp/s3.$c entries)"
    expect_eq "cpu$c read events" "$(($(stat /tmp/s2.$c "read events") + ent))" "$(stat /tmp/s3.$c "read events")"
done
reset_tracing
