# tracing_cpumask (ftrace's): records only from the physical CPUs of the
# mask, in Linux's hex format; what it reads back can be written back; a
# malformed mask or a CPU this machine cannot have is refused and changes
# nothing.  On x86_64, a CPU taken offline and brought back (xen-hptool) keeps
# its place in the mask, and comes back safely while a domain rule is set.  do_softirq runs on every pCPU (the idle loop), so
# each CPU of the mask records.
. /opt/dyntrace/tests/lib.sh
needs_series 2 tracing_cpumask
reset_tracing
all=$(cat /tmp/cpumask.boot)
echo "boot mask: $all"
expect_eq "every CPU at boot" "$all" "$(xenhypfs cat $T/tracing_cpumask)"
# Two pCPUs here: mask 3.
expect_eq "the boot mask of 2 pCPUs" 3 "$all"

# cpus_seen MASK: records for a while with MASK; prints the CPUs that recorded.
cpus_seen() {
    xenhypfs write $T/tracing_cpumask "$1" || fail "write mask $1"
    xenhypfs write $T/trace "" || fail "clear"
    xenhypfs write $T/tracing_on 1 || fail "on"
    cat /sys/hypervisor/version/extra >/dev/null
    sleep 1
    xenhypfs write $T/tracing_on 0 || fail "off"
    xenhypfs cat $T/trace >/tmp/cm.trace || fail "read trace"
    check_trace_wellformed /tmp/cm.trace
    record_lines /tmp/cm.trace | sed -n 's/^ *[^ ]* \[\([0-9]*\)\].*/\1/p' | sort -u | tr '\n' ' '
}
run xenhypfs write $T/set_function_filter 'do_softirq do_xen_version'
run xenhypfs write $T/current_tracer function
expect_eq "CPUs recording with mask 3" "000 001 " "$(cpus_seen 3)"
expect_eq "CPUs recording with mask 1" "000 " "$(cpus_seen 1)"
expect_eq "readback of 1" 1 "$(xenhypfs cat $T/tracing_cpumask)"
expect_eq "CPUs recording with mask 2" "001 " "$(cpus_seen 2)"
expect_eq "CPUs recording with mask 0" "" "$(cpus_seen 0)"
# Linux's forms: leading zeros, a comma between 32-bit groups, whitespace.
expect_eq "CPUs recording with mask 00000000,00000002" "001 " "$(cpus_seen 00000000,00000002)"
expect_eq "readback" 2 "$(xenhypfs cat $T/tracing_cpumask)"
run xenhypfs write $T/tracing_cpumask "$(xenhypfs cat $T/tracing_cpumask)"
expect_eq "written back" 2 "$(xenhypfs cat $T/tracing_cpumask)"

# Bad masks: refused, nothing changed, error_log names the word.
run xenhypfs write $T/trace ""
run xenhypfs write $T/error_log ""
bad_write "Invalid argument" $T/tracing_cpumask zz
bad_write "Invalid argument" $T/tracing_cpumask 4
bad_write "Invalid argument" $T/tracing_cpumask "1 2"
bad_write "Invalid argument" $T/tracing_cpumask ",1"
bad_write "Invalid argument" $T/tracing_cpumask ""
bad_raw EINVAL $T/tracing_cpumask 31
xenhypfs cat $T/error_log >/tmp/el
cat /tmp/el
grep -q "tracing_cpumask: 'zz': invalid value" /tmp/el || fail "error_log does not name zz"
grep -q "tracing_cpumask: '4': invalid value" /tmp/el || fail "error_log does not name 4"

# CPU hotplug (x86_64: Xen on Arm has no CPU offlining).
if [ "$(uname -m)" != x86_64 ]; then
    echo "(no CPU hotplug on Arm)"
elif sysctl_tools_refused; then
    echo "(xen-hptool: $SYSCTL_SKIP_REASON)"
else
    run xen-hptool cpu-offline 1
    expect_eq "CPUs recording with mask 2, CPU 1 offline" "" "$(cpus_seen 2)"
    run xen-hptool cpu-online 1
    expect_eq "mask after hotplug" 2 "$(xenhypfs cat $T/tracing_cpumask)"
    expect_eq "CPUs recording with mask 2, CPU 1 back" "001 " "$(cpus_seen 2)"
    # A CPU brought online while a domain rule is set and every function is
    # traced: its first traced calls (start_secondary()) come before it has
    # a current, which the scope must not read (second review, defect 1: a
    # triple fault).  A rule on a vCPU (the rules) and on a whole domain
    # (one bit, in the trampoline's path).
    run xenhypfs write $T/set_function_filter '*'
    for rule in '!d0v1' 'd0 idle'; do
        run xenhypfs write $T/set_domain_filter "$rule"
        run xenhypfs write $T/tracing_on 1
        run xen-hptool cpu-offline 1
        run xen-hptool cpu-online 1
        run xenhypfs write $T/tracing_on 0
        expect_eq "CPUs recording with '$rule', mask 3, after CPU 1 came back" "000 001 " "$(cpus_seen 3)"
    done
    run xenhypfs write $T/set_domain_filter ""
fi
reset_tracing
expect_eq "mask after reset" "$all" "$(xenhypfs cat $T/tracing_cpumask)"
