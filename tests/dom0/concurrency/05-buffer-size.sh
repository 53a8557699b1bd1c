# buffer_size_kb / buffer_total_size_kb: the size of each CPU's buffer, set at
# run time. A resize empties every buffer (as a clear does) and is all or
# nothing; it drains the writers like a clear, so resizing while the function
# tracer records on every pCPU and readers read must neither crash nor give a
# malformed trace. Sizes round up to a power of two records (32 bytes each).
. /opt/dyntrace/tests/lib.sh
needs_series 4 buffer_size_kb
reset_tracing
boot_kb=$(cat /tmp/bufsize.boot)
ncpu=$(xenhypfs cat $T/buffer_total_size_kb)
ncpu=$((ncpu / boot_kb))
note "boot: buffer_size_kb=$boot_kb on $ncpu CPUs"
[ "$ncpu" -ge 1 ] || fail "buffer_total_size_kb is not a multiple of buffer_size_kb"

# size KB EXPECT: write KB, read back EXPECT, total = EXPECT x CPUs.
size() {
    run xenhypfs write $T/buffer_size_kb "$1"
    expect_eq "buffer_size_kb after writing $1" "$2" "$(xenhypfs cat $T/buffer_size_kb)"
    expect_eq "buffer_total_size_kb" "$(($2 * ncpu))" "$(xenhypfs cat $T/buffer_total_size_kb)"
}
size 1 1
size 3 4          # 96 records, rounded up to 128
size 100 128

# Bad sizes: refused, nothing changed (the buffers keep their records).
setup_state
bad_write "Invalid argument" $T/buffer_size_kb 0
bad_write "Invalid argument" $T/buffer_size_kb 65537
bad_raw EDOM $T/buffer_size_kb 0100
xenhypfs cat $T/error_log | grep "buffer_size_kb: '65537 (not 1 to 65536)'" ||
    fail "error_log does not name the bad size"

# A resize empties the buffers.
xenhypfs cat $T/trace >/tmp/before.txt
[ "$(count_records /tmp/before.txt xen_extra_version)" = 2 ] || fail "setup: no records"
size 8 8
xenhypfs cat $T/trace >/tmp/after.txt
check_trace_wellformed /tmp/after.txt
[ "$(record_lines /tmp/after.txt | wc -l)" = 0 ] || fail "records survived the resize"

# A buffer of 1 KiB keeps the newest 32 records per CPU; one of 256 KiB keeps
# all of N=4000 (64 KiB would keep 2048).
run xenhypfs write $T/set_function_filter xen_extra_version
run xenhypfs write $T/current_tracer function
size 1 1
run xenhypfs write $T/tracing_on 1
dyntrace-bench hypercall 200 >/dev/null || fail "hypercalls"
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace >/tmp/small.txt
check_trace_wellformed /tmp/small.txt
for c in $(record_lines /tmp/small.txt | sed 's/.*\[\([0-9]*\)\].*/\1/' | sort -u); do
    n=$(record_lines /tmp/small.txt | grep -c "\[$c\]")
    [ "$n" -le 32 ] || fail "CPU $c holds $n records in a 1 KiB buffer"
done
note "1 KiB: $(record_lines /tmp/small.txt | wc -l) records kept of 200"
size 256 256
run xenhypfs write $T/tracing_on 1
dyntrace-bench hypercall 4000 >/dev/null || fail "hypercalls"
run xenhypfs write $T/tracing_on 0
xenhypfs cat $T/trace >/tmp/big.txt
check_trace_wellformed /tmp/big.txt
n=$(count_records /tmp/big.txt xen_extra_version)
note "256 KiB: $n records of xen_extra_version kept"
[ "$n" -ge 4000 ] || fail "a 256 KiB buffer kept $n of 4000 records"

# Resizes while every pCPU records and two readers read.
run xenhypfs write $T/set_function_filter "do_softirq do_xen_version xen_extra_version"
run xenhypfs write $T/tracing_on 1
# For 20 s, or $dyntrace_concurrency_seconds (make check's CONCURRENCY_SECONDS).
end=$(($(date +%s) + ${dyntrace_concurrency_seconds:-20}))
# A resize changes the trace's generation: a read whose size probe and copy
# straddle one may be refused (ENOBUFS, as for a clear) and is counted.
reader() {
    i=0
    refused=0
    while [ "$(date +%s)" -lt "$end" ]; do
        xenhypfs cat $T/trace >/tmp/rd.$1 2>/tmp/rd.err.$1 || {
            grep -q "Device or resource busy\|No buffer space" /tmp/rd.err.$1 || {
                cat /tmp/rd.err.$1; echo "reader $1: read failed"; exit 1; }
            refused=$((refused + 1))
            continue
        }
        check_trace_wellformed /tmp/rd.$1 >/tmp/rd.chk.$1 2>&1 || { cat /tmp/rd.chk.$1; exit 1; }
        i=$((i + 1))
    done
    echo "reader $1: $i well-formed reads, $refused refused"
}
reader 1 & r1=$!
reader 2 & r2=$!
( while [ "$(date +%s)" -lt "$end" ]; do dyntrace-bench hypercall 500 >/dev/null; done ) & w=$!
resizes=0
# hypfs-raw: 20 back-to-back raw writes of the 4-byte size (little-endian).
while [ "$(date +%s)" -lt "$end" ]; do
    for hex in 01000000 08000000 02000000 04000000; do  # 1, 8, 2, 4 KiB
        out=$(hypfs-raw write $T/buffer_size_kb $hex 20)
        case "$out" in
        *"count ok=20 "*) ;;
        *) echo "$out"; fail "a resize failed" ;;
        esac
        resizes=$((resizes + 20))
    done
done
wait $w
wait $r1 || fail "reader 1"
wait $r2 || fail "reader 2"
run xenhypfs write $T/tracing_on 0
expect_eq "buffer_size_kb at the end" 4 "$(xenhypfs cat $T/buffer_size_kb)"
note "$resizes resizes while recording and reading"
reset_tracing
expect_eq "buffer_size_kb after reset" "$boot_kb" "$(xenhypfs cat $T/buffer_size_kb)"
