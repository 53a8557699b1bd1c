# The function profiler: function_profile_enabled counts every call of the
# filter's functions whatever the tracer, in trace_stat/function<N> (per CPU)
# and trace_stat/domains (per domain).  N reads of /sys/hypervisor/version/extra
# give xen_extra_version exactly N hits, summed over the CPUs and in dom0's row;
# each call is timed (do_xen_version's time covers its child's).  Under function_graph the
# trace and the profile agree (they share the return stack's entries).
# Switching it off keeps the counts, on again starts afresh; bad values and an
# empty filter are refused, logged in error_log, and change nothing.
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_profile_enabled
reset_tracing
N=9
S=$T/trace_stat
expect_eq "function_profile_enabled at boot" 0 "$(xenhypfs cat $T/function_profile_enabled)"
xenhypfs ls $S | awk '{ print $NF }' >/tmp/ts || fail "listing trace_stat"
grep -qx 'domains' /tmp/ts || { cat /tmp/ts; fail "no trace_stat/domains"; }
ncpu=$(grep -c '^function[0-9]' /tmp/ts)
cpus=$(xen_cpus) || fail "$cpus"
[ "$ncpu" -ge "$cpus" ] || { cat /tmp/ts; fail "only $ncpu function<N> files for $cpus pCPUs"; }
echo "trace_stat: domains and $ncpu function<N> files"

# Refused: an empty filter, a bad value.  Nothing changes.
bad_write "No data available" $T/function_profile_enabled 1
xenhypfs cat $T/error_log | grep -q "function_profile_enabled: '(set_function_filter is empty)'" ||
    { xenhypfs cat $T/error_log; fail "error_log does not say the filter is empty"; }
expect_eq "function_profile_enabled after the refusal" 0 "$(xenhypfs cat $T/function_profile_enabled)"
run xenhypfs write $T/set_function_filter "do_xen_version xen_extra_version"
expect_eq "function_profile_enabled after the filter" 0 "$(xenhypfs cat $T/function_profile_enabled)"

# hits NAME FILE: the Hit column of NAME's line (0 if absent).
hits() { awk -v f="$1" '$1 == f { n += $2 } END { print n + 0 }' "$2"; }
# all_cpus NAME: Hit of NAME summed over trace_stat/function<N>.
all_cpus() {
    : >/tmp/all
    for f in $(grep -o '^function[0-9]*' /tmp/ts); do
        xenhypfs cat $S/$f >>/tmp/all || fail "reading $f"
    done
    hits "$1" /tmp/all
}
reads() { i=0; while [ $i -lt $1 ]; do cat /sys/hypervisor/version/extra >/dev/null; i=$((i + 1)); done; }

# Under nop: the profiler patches the filter's functions itself.
run xenhypfs write $T/function_profile_enabled 1
expect_eq "function_profile_enabled" 1 "$(xenhypfs cat $T/function_profile_enabled)"
xenhypfs cat $T/enabled_functions | grep -q xen_extra_version || fail "xen_extra_version not traced for the profiler"
reads $N
expect_eq "xen_extra_version hits over the CPUs" $N "$(all_cpus xen_extra_version)"
cat /tmp/all
xenhypfs cat $S/domains >/tmp/dom || fail "reading domains"
cat /tmp/dom
head -n1 /tmp/dom | grep -q '^# profiler: on, CPUs: [0-9]*, hits missed (table full): 0' || fail "domains header"
expect_eq "dom0's xen_extra_version hits" $N "$(awk '$1 == "d0" && $2 == "xen_extra_version" { print $3 }' /tmp/dom)"
dv=$(awk '$1 == "d0" && $2 == "do_xen_version" { print $3 }' /tmp/dom)
[ "${dv:-0}" -ge $N ] || fail "do_xen_version: ${dv:-no} hits, fewer than $N"
grep -q 'returns not timed' /tmp/dom && fail "the header says returns are not timed"
{
    # Per CPU, do_xen_version's total time covers its child's.
    for f in $(grep -o '^function[0-9]*' /tmp/ts); do
        xenhypfs cat $S/$f | awk -v f=$f '
            $1 == "do_xen_version" { p = $3 } $1 == "xen_extra_version" { c = $3; n = $2 }
            END { if (n && !(c > 0)) { print f ": xen_extra_version not timed"; exit 1 }
                  if (c > p) { print f ": child " c " us > parent " p " us"; exit 1 } }' || fail "times"
    done
    t=$(awk '$1 == "d0" && $2 == "xen_extra_version" { print $4 }' /tmp/dom)
    echo "xen_extra_version: $N calls, $t us"
}

# Off: the counts stay, and nothing more is counted.
run xenhypfs write $T/function_profile_enabled 0
reads 3
expect_eq "hits kept once off" $N "$(all_cpus xen_extra_version)"
head -n1 /tmp/all | grep -q '^# profiler: off' || fail "header does not say off"
xenhypfs cat $T/enabled_functions | grep -q . && fail "functions still traced with the profiler off under nop"
# On again: afresh.
run xenhypfs write $T/function_profile_enabled 1
expect_eq "hits after a restart" 0 "$(all_cpus xen_extra_version)"
reads 4
expect_eq "hits after 4 more reads" 4 "$(all_cpus xen_extra_version)"
# A bad value: refused (by xenhypfs, and by Xen as a raw byte), the
# profiler still on and its counts kept.
bad_write "out of domain\|Invalid argument" $T/function_profile_enabled 2
bad_raw EINVAL $T/function_profile_enabled 02
expect_eq "function_profile_enabled after 2" 1 "$(xenhypfs cat $T/function_profile_enabled)"
expect_eq "hits after the refusal" 4 "$(all_cpus xen_extra_version)"

# Past the first 256 calls of a pair on a CPU, the profiler alone times 1
# call in 32 (design.md P8): hits stay exact, and the header says how many
# calls were timed.  M reads put more than 256 on at least one CPU.
M=700
run xenhypfs write $T/function_profile_enabled 0
run xenhypfs write $T/function_profile_enabled 1
i=0; while [ $i -lt $M ]; do read -r _ </sys/hypervisor/version/extra; i=$((i + 1)); done
expect_eq "xen_extra_version hits past the exact phase" $M "$(all_cpus xen_extra_version)"
xenhypfs cat $S/domains >/tmp/dom || fail "reading domains"
head -n3 /tmp/dom
timed=$(head -n1 /tmp/dom | sed -n 's/.*, timed: \([0-9]*\) of \([0-9]*\) calls (the first 256 of each on a CPU, then 1 in 32)$/\1 \2/p')
[ -n "$timed" ] || fail "the domains header does not say how many calls were timed"
set -- $timed
rows=$(awk 'NR > 3 { n += $3 } END { print n + 0 }' /tmp/dom)
expect_eq "calls in the header and the rows" "$rows" "$2"
[ "$1" -ge 256 ] || fail "only $1 calls timed: the first 256 of a pair are"
[ "$1" -lt "$2" ] || fail "$1 of $2 calls timed: none left to the sampling"
awk '$1 == "d0" && $2 == "xen_extra_version" && $4 > 0 && $6 > 0 { ok = 1 } END { exit !ok }' /tmp/dom ||
    fail "xen_extra_version has no time"
echo "sampling: $1 of $2 calls timed"

# With a tracer: the function tracer records and the profiler counts the same calls.
run xenhypfs write $T/function_profile_enabled 0
run xenhypfs write $T/current_tracer function
run xenhypfs write $T/function_profile_enabled 1
graph_run $N /tmp/t
expect_eq "function records of xen_extra_version" $N "$(count_records /tmp/t xen_extra_version)"
expect_eq "profiled hits under function" $N "$(all_cpus xen_extra_version)"

# Under function_graph: N groups in the trace, N hits, times kept.
{
    run xenhypfs write $T/current_tracer function_graph
    run xenhypfs write $T/function_profile_enabled 0
    run xenhypfs write $T/function_profile_enabled 1
    graph_run $N /tmp/g
    expect_eq "graph leaves of xen_extra_version" $N "$(grep -c '|  *xen_extra_version();$' /tmp/g)"
    expect_eq "profiled hits under function_graph" $N "$(all_cpus xen_extra_version)"
    awk '$1 == "xen_extra_version" && !($3 > 0) { exit 1 }' /tmp/all || fail "not timed under function_graph"
}
reset_tracing
expect_eq "function_profile_enabled after reset" 0 "$(xenhypfs cat $T/function_profile_enabled)"
