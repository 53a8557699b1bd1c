# set_graph_function: function_graph shows only the call trees under its
# functions.  With the filter "do_xen_version xen_extra_version" and N reads
# of /sys/hypervisor/version/extra: set to xen_extra_version, the trace holds
# exactly N "xen_extra_version();" leaves and nothing else; set to
# do_xen_version, N groups with their child one level deeper; emptied, every
# call again.  It is read back as written, an unknown name is refused and
# changes nothing.  The roots are at depth 1 even after tracer/26 traced the
# scheduler: x86 empties a CPU's return stack where it resets the stack
# (before that, entries of abandoned frames added to the depth).
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
reset_tracing
N=6
expect_eq "set_graph_function at boot" "" "$(xenhypfs cat $T/set_graph_function)"
run xenhypfs write $T/set_function_filter "do_xen_version xen_extra_version"
bad_write "No such file or directory" $T/set_graph_function no_such_function_here
run xenhypfs write $T/set_graph_function xen_extra_version
expect_eq "read back" xen_extra_version "$(xenhypfs cat $T/set_graph_function)"
run xenhypfs write $T/current_tracer function_graph

graph_run $N /tmp/s1
expect_eq "leaves of xen_extra_version" $N "$(record_lines /tmp/s1 | grep -c '|  *xen_extra_version();$')"
expect_eq "other lines" 0 "$(record_lines /tmp/s1 | grep -vc '|  *xen_extra_version();$')"
expect_eq "leaves at depth 1" $N "$(record_lines /tmp/s1 | grep -c '|  xen_extra_version();$')"

run xenhypfs write $T/set_graph_function do_xen_version
graph_run $N /tmp/s2
expect_eq "groups under do_xen_version" $N "$(record_lines /tmp/s2 | grep -c '|  *do_xen_version() {$')"
expect_eq "lines that are not do_xen_version's tree" 0 \
    "$(record_lines /tmp/s2 | grep -vc '|  *do_xen_version() {$\||  *xen_extra_version();$\||  *} /\* do_xen_version \*/$\||  *do_xen_version();$')"
# Each child one level (two spaces) below the call open on its CPU.
expect_eq "children one level below their parent" $N "$(record_lines /tmp/s2 | awk -F'|' '
    { split($1, a, ")"); cpu = a[1] + 0; match($3, /^ */); ind = RLENGTH; f = substr($3, RLENGTH + 1) }
    f == "do_xen_version() {" { open[cpu] = ind }
    f == "xen_extra_version();" && (cpu in open) && ind == open[cpu] + 2 { n++ }
    END { print n + 0 }')"

# An edit in place: "!do_xen_version" empties it, every call is shown again.
run xenhypfs write $T/set_graph_function '!do_xen_version'
expect_eq "after the edit" "" "$(xenhypfs cat $T/set_graph_function)"
graph_run $N /tmp/s3
expect_eq "groups with the set empty" $N "$(record_lines /tmp/s3 | grep -c '|  *do_xen_version() {$')"
reset_tracing
