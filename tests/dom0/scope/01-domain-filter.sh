# set_domain_filter with a running domU: records only while the running vCPU
# matches the filter.  The domU (2 vCPUs, tests/dom0/domu-work, destroyed at the end) and dom0 both
# make xen_version hypercalls (do_xen_version); do_softirq runs in the idle
# vCPUs.  Checks the forms "dN", "!d0", "dNvM", "idle" and "!idle", the
# empty filter (every domain), readback written back, and that malformed
# words are refused, named in error_log, and change nothing.
. /opt/dyntrace/tests/lib.sh
needs_series 2 set_domain_filter
reset_tracing
trap 'xl destroy work 2>/dev/null' EXIT
start_domu_working work domu-work 2
D=$(xl domid work) || fail "no domid for the domU"
echo "domU: d$D working after $DOMU_WAITED s (dom0 uptime $(cut -d' ' -f1 /proc/uptime) s)"
log=/var/log/xen/console/guest-work.log

# contexts FILTER: record for a while with set_domain_filter FILTER (dom0
# making hypercalls on each of its vCPUs meanwhile); print the contexts seen.
contexts() {
    xenhypfs write $T/set_domain_filter "$1" || fail "write set_domain_filter '$1'"
    xenhypfs write $T/trace "" || fail "clear"
    xenhypfs write $T/tracing_on 1 || fail "on"
    for v in $(seq 0 $(($(nproc) - 1))); do
        taskset -c $v sh -c 'for i in 1 2 3 4 5; do cat /sys/hypervisor/version/extra >/dev/null; done'
    done
    sleep 1
    xenhypfs write $T/tracing_on 0 || fail "off"
    xenhypfs cat $T/trace >/tmp/df.trace || fail "read trace"
    check_trace_wellformed /tmp/df.trace
    record_lines /tmp/df.trace | awk '{ print $1 }' | sort -u | tr '\n' ' '
}

run xenhypfs write $T/set_function_filter do_xen_version
run xenhypfs write $T/current_tracer function
c=$(contexts "")
echo "every domain: $c"
echo " $c" | grep -q " d0v" || fail "no dom0 record without a filter"
echo " $c" | grep -q " d${D}v" || { tail -20 $log; fail "no domU record without a filter"; }

c=$(contexts "d$D")
echo "d$D: $c"
[ -n "$c" ] || fail "no record with d$D"
echo " $c" | tr ' ' '\n' | grep . | grep -qv "^d${D}v" && fail "d$D lets through: $c"

c=$(contexts "!d0")
echo "!d0: $c"
echo " $c" | grep -q " d${D}v" || fail "no domU record with !d0"
echo " $c" | grep -q " d0v" && fail "!d0 lets dom0 through: $c"

c=$(contexts "d${D}v1")
echo "d${D}v1: $c"
expect_eq "contexts with d${D}v1" "d${D}v1 " "$c"

run xenhypfs write $T/set_function_filter do_softirq
c=$(contexts idle)
echo "idle: $c"
expect_eq "contexts with idle" "<idle> " "$c"
c=$(contexts '!idle')
echo "!idle: $c"
echo " $c" | grep -q "<idle>" && fail "!idle lets the idle vCPUs through: $c"

# Readback: includes first, then exclusions, duplicates dropped; written
# back it changes nothing.
run xenhypfs write $T/set_domain_filter "  !d0 d$D	d${D}v1 d$D idle "
expect_eq "readback" "d$D d${D}v1 idle !d0" "$(xenhypfs cat $T/set_domain_filter)"
run xenhypfs write $T/set_domain_filter "$(xenhypfs cat $T/set_domain_filter)"
expect_eq "written back" "d$D d${D}v1 idle !d0" "$(xenhypfs cat $T/set_domain_filter)"

# Malformed words: refused, nothing changed, named in error_log.  (An empty
# trace first: each check reads the whole state, trace included.)
run xenhypfs write $T/trace ""
run xenhypfs write $T/error_log ""
bad_write "Invalid argument" $T/set_domain_filter "d$D dx"
bad_write "Invalid argument" $T/set_domain_filter "d32752"
bad_write "Invalid argument" $T/set_domain_filter "d1v65535"
bad_write "Invalid argument" $T/set_domain_filter "d01"
bad_write "Invalid argument" $T/set_domain_filter "!"
bad_write "No space left on device" $T/set_domain_filter "$(for i in $(seq 1 17); do printf 'd%s ' $i; done)"
xenhypfs cat $T/error_log >/tmp/el
cat /tmp/el
grep -q "set_domain_filter: 'dx': invalid value" /tmp/el || fail "error_log does not name dx"
grep -q "set_domain_filter: 'd17': " /tmp/el || fail "error_log does not name the 17th word"

reset_tracing
expect_eq "set_domain_filter after reset" "" "$(xenhypfs cat $T/set_domain_filter)"
