# Concurrent HypFS reads of different /tracing entries, one process per dom0
# vCPU, each read with a header-only (12-byte) buffer: every one of them must
# fail ENOBUFS with its own entry's header, never another entry's.  Xen 4.17
# copies the path of every HypFS operation into one function-static buffer
# while holding only the shared read lock, so a concurrent read could look up
# another reader's path (seen in the stress suite: a read of `trace` answered
# with `tracing_on`'s bool); patch 0002 gives each CPU its own buffer.
. /opt/dyntrace/tests/lib.sh
reset_tracing
N=${PARALLEL_READS:-4000}
avail_len=$(($(xenhypfs cat $T/available_tracers | wc -c)))
# The function sets take writes as long as available_functions (its length
# with the NUL, which is what cat prints with its newline), at least 4096.
set_max=$(($(xenhypfs cat $T/available_functions | wc -c)))
[ "$set_max" -ge 4096 ] || set_max=4096
pids=
# start K PATH HEADER: process K reads PATH N times (type 2 = string, 5 = bool).
start() {
    { echo "$2:"; headers_ok "$2" "$N" "$3"; } >/tmp/par.$1 &
    pids="$pids $!"
}
start 1 $T/tracing_on "content_len=1 type=5 encoding=0 max_write_len=1"
start 2 $T/available_tracers "content_len=$avail_len type=2 encoding=0 max_write_len=0"
start 3 $T/current_tracer "content_len=4 type=2 encoding=0 max_write_len=64"
start 4 $T/set_function_filter "content_len=1 type=2 encoding=0 max_write_len=$set_max"
bad=0
for pid in $pids; do
    wait $pid || bad=1
done
for k in 1 2 3 4; do
    echo "$(tr '\n' ' ' </tmp/par.$k)"
done
[ $bad = 0 ] || fail "a read answered with another entry's header (or failed)"
echo "$((4 * N)) parallel header reads, each answered for its own path"
