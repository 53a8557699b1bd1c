# Concurrent HypFS reads of different /tracing entries, one process per dom0
# vCPU, each read with a header-only (12-byte) buffer: every one of them must
# fail ENOBUFS with its own entry's header, never another entry's.  Xen 4.17
# copies the path of every HypFS operation into one function-static buffer
# while holding only the shared read lock, so a concurrent read could look up
# another reader's path (seen in the stress suite: a read of `trace` answered
# with `tracing_on`'s bool); patch 0006 gives each CPU its own buffer.
. /opt/dyntrace/tests/lib.sh
reset_tracing
N=${PARALLEL_READS:-4000}
avail_len=$(($(xenhypfs cat $T/available_tracers | wc -c)))
# path, then the header it must return: type 2 = string, 5 = bool.
set -- \
    "$T/tracing_on" "content_len=1 type=5 encoding=0 max_write_len=1" \
    "$T/available_tracers" "content_len=$avail_len type=2 encoding=0 max_write_len=0" \
    "$T/current_tracer" "content_len=4 type=2 encoding=0 max_write_len=64" \
    "$T/set_function_filter" "content_len=1 type=2 encoding=0 max_write_len=4096"
k=0
for p in "$1" "$3" "$5" "$7"; do
    k=$((k + 1))
    hypfs-raw read "$p" 12 "$N" >/tmp/par.$k &
done
wait
k=0
bad=0
while [ $# -gt 0 ]; do
    k=$((k + 1))
    path=$1 want=$2
    shift 2
    out=$(cat /tmp/par.$k)
    echo "$path: $(echo "$out" | tr '\n' ' ')"
    echo "$out" | grep -q "^count ok=0 EBUSY=0 other=$N changed=0\$" || bad=1
    echo "$out" | grep -qx "rc=-1 errno=ENOBUFS $want" || bad=1
done
[ $bad = 0 ] || fail "a read answered with another entry's header (or failed)"
echo "$((4 * N)) parallel header reads, each answered for its own path"
