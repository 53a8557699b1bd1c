# The HypFS interface fuzzed (tests/dom0-tools/hypfs-fuzz.c): random writes of
# every word form, random bytes and lengths to every /tracing file, and reads
# with random buffer sizes, through raw HypFS hypercalls, while the function
# tracer records and entries are being patched. Runs $dyntrace_fuzz_seconds
# (make check: FUZZ_SECONDS, default 45); the seed is $dyntrace_fuzz_seed or
# the time (printed, to replay a run). -L (writes of 2^32 bytes and more) only
# where the series fixes hypfs_write()'s length, which is every base we build.
. /opt/dyntrace/tests/lib.sh
reset_tracing
secs=${dyntrace_fuzz_seconds:-45}
seed=${dyntrace_fuzz_seed:-$(date +%s)}
hypfs-fuzz -t "$secs" -s "$seed" -L >/tmp/fuzz.out 2>&1
rc=$?
head -n1 /tmp/fuzz.out
grep -A1 '^VIOLATION' /tmp/fuzz.out | head -40
grep '^note:' /tmp/fuzz.out | head -5
echo "($(grep -c '^note:' /tmp/fuzz.out) setup notes)"
tail -n3 /tmp/fuzz.out
summary=$(grep '^fuzz hypfs: ' /tmp/fuzz.out) || fail "hypfs-fuzz printed no summary (exit $rc)"
case "$summary" in
*" violations=0 "*) ;;
*) fail "$summary" ;;
esac
[ "$rc" -eq 0 ] || fail "hypfs-fuzz exited $rc"
ops=$(echo "$summary" | sed 's/.*ops=\([0-9]*\).*/\1/')
[ "$ops" -ge 100 ] || fail "only $ops operations in $secs s"
# The interface is left usable: the RFC's filter and tracer still work.
reset_tracing
run xenhypfs write $T/set_function_filter "do_xen_version"
run xenhypfs write $T/current_tracer function
reset_tracing
