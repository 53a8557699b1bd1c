# Bad input to xen-dyntrace: a clear message, a documented exit status, nothing changed, and
# nothing lost that was already written.
#   exit 1: Xen refused (unknown tracer or function, bad size), the disk is full
#   exit 2: usage; exit 3: not a capture (foreign file, newer version); exit 4: truncated
. /opt/dyntrace/tests/lib.sh
reset_tracing

# expect_exit STATUS TEXT CMD...: CMD exits STATUS and says TEXT on stderr.
expect_exit() {
    want=$1 text=$2
    shift 2
    echo "\$ $*"
    "$@" >/tmp/out 2>/tmp/err
    got=$?
    cat /tmp/err
    expect_eq "exit status of '$*'" "$want" "$got"
    grep -q -- "$text" /tmp/err || fail "'$*' did not say '$text'"
}
# unchanged: the state reset_tracing made is still there.
unchanged() {
    expect_eq "current_tracer" nop "$(xenhypfs cat $T/current_tracer)"
    expect_eq "set_function_filter" "" "$(xenhypfs cat $T/set_function_filter)"
    expect_eq "set_domain_filter" "" "$(xenhypfs cat $T/set_domain_filter)"
    expect_eq "buffer_size_kb" "$(cat /tmp/bufsize.boot)" "$(xenhypfs cat $T/buffer_size_kb)"
    expect_eq "tracing_on" 0 "$(xenhypfs cat $T/tracing_on)"
}

expect_exit 2 "not a size" xen-dyntrace record -b 0 -t 1 -o /tmp/x.dat
expect_exit 2 "not a duration" xen-dyntrace record -t -5 -o /tmp/x.dat
expect_exit 2 "unknown command" xen-dyntrace recrod
expect_exit 1 "buffer_size_kb: Invalid argument" xen-dyntrace record -b 70000 -t 1 -o /tmp/x.dat
unchanged
expect_exit 1 "current_tracer" xen-dyntrace record -p no_such_tracer -t 1 -o /tmp/x.dat
unchanged
expect_exit 1 "set_function_filter" xen-dyntrace record -l no_such_function -t 1 -o /tmp/x.dat
unchanged
[ ! -e /tmp/x.dat ] || fail "a refused record left a capture"

# A good capture to damage.
xen-dyntrace record -t 1 -l 'do_* xen_*' -q -o /tmp/good.dat >/dev/null || fail "record exited $?"
unchanged
xen-dyntrace report /tmp/good.dat >/tmp/good.txt || fail "report exited $?"
n=$(record_lines /tmp/good.txt | wc -l)
[ "$n" -gt 0 ] || fail "no records in 1 s of do_* xen_*"
echo "good capture: $n records, $(wc -c </tmp/good.dat) bytes"

echo "no capture at all" >/tmp/foreign.dat
expect_exit 3 "not an xen-dyntrace capture" xen-dyntrace report /tmp/foreign.dat
: >/tmp/empty.dat
expect_exit 3 "not an xen-dyntrace capture" xen-dyntrace report /tmp/empty.dat
expect_exit 1 "No such file" xen-dyntrace report /tmp/none.dat
cp /tmp/good.dat /tmp/newer.dat
printf '\002' | dd of=/tmp/newer.dat bs=1 seek=8 conv=notrunc 2>/dev/null
expect_exit 3 "version 2; this tool reads version 1" xen-dyntrace report /tmp/newer.dat
# Cut 1000 bytes before the end, inside the raw reads: every whole chunk before the cut is used.
head -c $(($(wc -c </tmp/good.dat) - 1000)) /tmp/good.dat >/tmp/cut.dat
expect_exit 4 "truncated at byte" xen-dyntrace report /tmp/cut.dat
m=$(record_lines /tmp/out | wc -l)
[ "$m" -gt 0 ] && [ "$m" -lt "$n" ] || fail "truncated capture: $m of $n records reported"
echo "truncated capture: $m of $n records reported"
expect_exit 4 "truncated at byte" xen-dyntrace export -f json -o /tmp/cut.json /tmp/cut.dat
grep -q '"traceEvents"' /tmp/cut.json || fail "no JSON from the truncated capture"
expect_exit 2 "-f json or -f trace.dat" xen-dyntrace export -f svg /tmp/good.dat

# A full disk: record stops with an error, the capture keeps every whole chunk, state restored.
mkdir -p /mnt/small
mount -t tmpfs -o size=256k tmpfs /mnt/small || fail "mount tmpfs"
expect_exit 1 "No space left on device" xen-dyntrace record -t 10 -l '*' -q -o /mnt/small/c.dat
grep -q '^record: seconds=' /tmp/out || fail "no summary line after the full disk"
unchanged
# No summary chunk could be written: report warns and exits 5, every saved record used.
xen-dyntrace report /mnt/small/c.dat >/tmp/small.txt 2>/tmp/small.err
rc=$?
cat /tmp/small.err
expect_eq "exit status of report of the capture cut by the full disk (no summary)" 5 "$rc"
grep -q 'no summary chunk at its end' /tmp/small.err || fail "no warning for the missing summary"
s=$(record_lines /tmp/small.txt | grep -vc '^CPU:' || true)
saved=$(sed -n 's/.*it holds the \([0-9]*\) records.*/\1/p' /tmp/err)
expect_eq "records in the capture cut by the full disk" "$saved" "$s"
umount /mnt/small
