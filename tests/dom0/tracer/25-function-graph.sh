# function_graph: N reads of /sys/hypervisor/version/extra give N groups
# "do_xen_version() {", "xen_extra_version();", "}" on one CPU, the child no
# longer than its parent (dom0 makes other version calls too, which do not
# call xen_extra_version: leaves "do_xen_version();"); max_graph_depth 1 leaves only the outer call;
# tracing_thresh keeps only the returns that took that long; a bad value is
# refused.  On x86_64 and arm64 (each vCPU's own return stack there).
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
reset_tracing
xenhypfs cat $T/available_tracers | grep -qw function_graph || fail "function_graph is not in available_tracers"
run xenhypfs write $T/set_function_filter "do_xen_version xen_extra_version"
run xenhypfs write $T/current_tracer function_graph
N=7

# groups FILE: per CPU, each "do_xen_version() {" followed by its leaf and its
# "}"; counts of each, of lines out of that order, and of parents shorter
# than their child.
groups() {
    record_lines "$1" | awk -F'|' '
    NF >= 3 { split($1, a, ")"); cpu = a[1] + 0; d = $2; gsub(/[^0-9.]/, "", d); f = $3
      if (f == "  do_xen_version() {") { if (st[cpu] != 0) bad++; st[cpu] = 1; opens++ }
      else if (f == "    xen_extra_version();") { if (st[cpu] != 1) bad++; st[cpu] = 2; child[cpu] = d + 0; leaf++ }
      else if (f == "  } /* do_xen_version */") { if (st[cpu] != 2) bad++; if (d + 0 < child[cpu]) shorter++; st[cpu] = 0; closes++ }
      else if (f == "  do_xen_version();") alone++
      else other++ }
    END { printf "groups=%d leaves=%d closes=%d out_of_order=%d parent_shorter=%d other=%d\n", opens, leaf, closes, bad, shorter, other }'
}

graph_run $N /tmp/g1
head -n1 /tmp/g1 | grep -q '^# tracer: function_graph$' || fail "no function_graph header"
expect_eq "nested groups" "groups=$N leaves=$N closes=$N out_of_order=0 parent_shorter=0 other=0" "$(groups /tmp/g1)"

# max_graph_depth 1: only the outer calls, as leaves (the N reads and dom0's
# other version calls).
run xenhypfs write $T/max_graph_depth 1
graph_run $N /tmp/g2
n=$(grep -c '|  do_xen_version();$' /tmp/g2)
[ "$n" -ge $N ] || fail "only $n outer calls at depth 1"
expect_eq "other lines at depth 1" 0 "$(record_lines /tmp/g2 | grep -vc '|  do_xen_version();$')"
bad_write "Invalid argument" $T/max_graph_depth 65
run xenhypfs write $T/max_graph_depth 0

# tracing_thresh: an hour keeps nothing; 1 us keeps returns only, each at least 1 us.
run xenhypfs write $T/tracing_thresh 3600000000
graph_run $N /tmp/g3
expect_eq "records over an hour" 0 "$(record_lines /tmp/g3 | wc -l)"
run xenhypfs write $T/tracing_thresh 1
graph_run $N /tmp/g4
n=$(record_lines /tmp/g4 | wc -l)
[ "$n" -ge 1 ] || fail "no return took 1 us"
expect_eq "lines that are not a return" 0 "$(record_lines /tmp/g4 | grep -vc '} /\* [a-z_]* \*/$')"
expect_eq "returns under 1 us" 0 "$(record_lines /tmp/g4 | awk -F'|' '{ d = $2; gsub(/[^0-9.]/, "", d); if (d + 0 < 1) n++ } END { print n + 0 }')"
bad_write "Invalid argument" $T/tracing_thresh 3600000001
reset_tracing
