# options/funcgraph-retval: function_graph's returns with the value returned, as ftrace prints them
# ("f(); /* ret=0x0 */", "} /* f ret=-2 */"), in trace, in report and in the JSON export; and
# xen-dyntrace why, which names the function an error came from. The errors are known ones: HypFS's
# lookup of /nosuch/x, where hypfs_dir_findentry() returns ERR_PTR(-ENOENT) (a 64-bit -2) and
# do_hypfs_op() returns that; a read of an existing file returns 0; do_xen_version() returns 0 for
# XENVER_extraversion (the reads of /sys/hypervisor/version/extra).
. /opt/dyntrace/tests/lib.sh
needs_series 6 options/funcgraph-retval
reset_tracing
expect_eq "funcgraph-retval at boot" 0 "$(xenhypfs cat $T/options/funcgraph-retval)"
for v in 2 maybe ""; do
    bad_write "out of domain\|Invalid argument" $T/options/funcgraph-retval "$v"
done
bad_raw EINVAL $T/options/funcgraph-retval 02
bad_raw EDOM $T/options/funcgraph-retval 0100

# HypFS's calls under do_hypfs_op (the C return path: set_graph_function is set).
run xenhypfs write $T/set_function_filter "do_hypfs_op hypfs_*"
run xenhypfs write $T/set_graph_function do_hypfs_op
run xenhypfs write $T/current_tracer function_graph
run xenhypfs write $T/options/funcgraph-retval 1
expect_eq "read back" 1 "$(xenhypfs cat $T/options/funcgraph-retval)"
xenhypfs write $T/trace "" || fail "clear"
xenhypfs write $T/tracing_on 1 || fail "on"
xenhypfs cat /nosuch/x >/dev/null 2>&1 && fail "xenhypfs read /nosuch/x"
xenhypfs cat $T/max_graph_depth >/dev/null || fail "reading max_graph_depth"
xenhypfs write $T/tracing_on 0 || fail "off"
xenhypfs cat $T/trace >/tmp/h.txt || fail "reading the trace"
cat /tmp/h.txt
lines=$(record_lines /tmp/h.txt)
n=$(echo "$lines" | grep -c '|  *hypfs_dir_findentry(); /\* ret=-2 \*/$')
[ "$n" -ge 1 ] || fail "no 'hypfs_dir_findentry(); /* ret=-2 */' line"
n=$(echo "$lines" | grep -c '|  } /\* do_hypfs_op ret=-2 \*/$')
[ "$n" -ge 1 ] || fail "no '} /* do_hypfs_op ret=-2 */' at depth 1"
n=$(echo "$lines" | grep -c '|  } /\* do_hypfs_op ret=0x0 \*/$')
[ "$n" -ge 1 ] || fail "no '} /* do_hypfs_op ret=0x0 */' for the read that worked"
expect_eq "returns without a value" 0 "$(echo "$lines" | grep -v '/\* .*ret=' | grep -c '}\|();')"

# x86's hand-written usual return (no set_graph_function), and the C path of tracing_thresh.
run xenhypfs write $T/set_graph_function ""
run xenhypfs write $T/set_function_filter "do_xen_version xen_extra_version"
graph_run 3 /tmp/g1
expect_eq "do_xen_version returning 0" 3 "$(record_lines /tmp/g1 | grep -c '|  } /\* do_xen_version ret=0x0 \*/$')"
vals=$(record_lines /tmp/g1 | sed -n 's/.*|    xen_extra_version(); \/\* ret=\(0x[0-9a-f]*\) \*\/$/\1/p' | sort -u)
expect_eq "xen_extra_version's value, one address for 3 calls" 1 "$(echo "$vals" | grep -c '^0x[0-9a-f]\{9,\}$')"
run xenhypfs write $T/tracing_thresh 1
graph_run 3 /tmp/g2
[ "$(record_lines /tmp/g2 | grep -c '} /\* do_xen_version ret=0x0 \*/$')" -ge 1 ] ||
    fail "tracing_thresh: no '} /* do_xen_version ret=0x0 */'"
run xenhypfs write $T/tracing_thresh 0
run xenhypfs write $T/options/funcgraph-retval 0
graph_run 2 /tmp/g3
expect_eq "values with funcgraph-retval off" 0 "$(grep -c 'ret=' /tmp/g3)"
expect_eq "returns with funcgraph-retval off" 2 "$(record_lines /tmp/g3 | grep -c '|  } /\* do_xen_version \*/$')"
reset_tracing

# why: the chain from the hypercall to the function that made the error, first under a narrow
# filter, then under every function (its default).
xenhypfs cat /nosuch/x >/dev/null 2>&1
want_rc=$?
# (cet/07 under bochs: the narrow filter only; patching every function there takes minutes.)
for filter in "-l hypfs_*" ${retval_narrow_only:+-}""; do
    [ "$filter" = - ] && continue
    echo "\$ xen-dyntrace why $filter -- xenhypfs cat /nosuch/x"
    # shellcheck disable=SC2086 # $filter is two words or none
    xen-dyntrace why $filter -- xenhypfs cat /nosuch/x >/tmp/why.out 2>/tmp/why.err
    rc=$?
    cat /tmp/why.out /tmp/why.err
    expect_eq "why's exit status: the command's" "$want_rc" "$rc"
    # Each failed do_hypfs_op: its chain, one line per call, ending where the error appeared.
    awk '
        / do_hypfs_op returned -2 \(ENOENT\)$/ { inb = 1; n = 0; blocks++; next }
        inb && /^  / { line[++n] = $0; next }
        inb { inb = 0; check() }
        END { if (inb) check(); printf "blocks=%d bad=%d\n", blocks, bad }
        function check() {
            if (line[1] != "  do_hypfs_op() = -2 (ENOENT)") { bad++; print "first: " line[1] }
            if (line[n] !~ /^ +hypfs_dir_findentry\(\) = -2 \(ENOENT\)   <- the error appeared here$/) {
                bad++; print "last: " line[n]
            }
            for (i = 1; i <= n; i++) if (line[i] !~ / = -2 \(ENOENT\)/) { bad++; print "value: " line[i] }
        }' /tmp/why.out >/tmp/why.chk
    cat /tmp/why.chk
    grep -q '^blocks=[1-9][0-9]* bad=0$' /tmp/why.chk || fail "why $filter: the chain of /nosuch/x's ENOENT"
    grep -q '^why: [1-9][0-9]* hypercalls\? traced, [1-9][0-9]* returned an error' /tmp/why.out ||
        fail "why $filter: no summary line"
    expect_eq "funcgraph-retval after why" 0 "$(xenhypfs cat $T/options/funcgraph-retval)"
done
# A hypercall that succeeds is not listed; why puts buffer_size_kb back after its -b 4096.
kb=$(xenhypfs cat $T/buffer_size_kb)
xen-dyntrace why -l xen_extra_version -- cat /sys/hypervisor/version/extra >/tmp/why.out 2>&1 ||
    fail "why -- cat /sys/hypervisor/version/extra exited $?"
cat /tmp/why.out
expect_eq "do_xen_version listed as failing" 0 "$(grep -c 'do_xen_version returned' /tmp/why.out)"
grep -q '^why: [1-9][0-9]* hypercalls\? traced' /tmp/why.out || fail "no hypercall traced"
expect_eq "buffer_size_kb after why" "$kb" "$(xenhypfs cat $T/buffer_size_kb)"
# For a time, with no command: exit 0, and -o keeps a capture report reads.
xen-dyntrace why -l xen_extra_version -t 1 -o /tmp/why.dat >/tmp/why.out 2>&1 || fail "why -t 1 exited $?"
grep -q '^why: [0-9]* hypercalls\? traced' /tmp/why.out || { cat /tmp/why.out; fail "why -t 1: no summary"; }
xen-dyntrace report /tmp/why.dat >/dev/null || fail "report of why's -o capture exited $?"

# record -O funcgraph-retval: report and the JSON export show the values; record puts it back.
# (--no-filter: a one-vCPU dom0, cet/07's, runs the command on the recorder's vCPU.)
xen-dyntrace record -q --no-filter -l 'do_xen_version xen_extra_version' -O funcgraph-retval -o /tmp/rv.dat \
    -- sh -c 'cat /sys/hypervisor/version/extra; cat /sys/hypervisor/version/extra' >/dev/null ||
    fail "record -O funcgraph-retval exited $?"
expect_eq "funcgraph-retval after record" 0 "$(xenhypfs cat $T/options/funcgraph-retval)"
xen-dyntrace report /tmp/rv.dat >/tmp/rv.txt || fail "report exited $?"
cat /tmp/rv.txt
expect_eq "report: do_xen_version returning 0" 2 "$(grep -c '|  } /\* do_xen_version ret=0x0 \*/$' /tmp/rv.txt)"
xen-dyntrace export -f json -o /tmp/rv.json /tmp/rv.dat || fail "export exited $?"
expect_eq "JSON: do_xen_version's calls with retval 0x0" 2 \
    "$(grep -c '"name":"do_xen_version".*"args":{"retval":"0x0"}' /tmp/rv.json)"
bad=$(xen-dyntrace record -q -O no_such_option -t 1 -o /tmp/x.dat 2>&1) && fail "record -O no_such_option worked"
echo "$bad"
case "$bad" in *"no_such_option"*"No such file"*) ;; *) fail "record -O no_such_option: $bad" ;; esac
# reset puts it back to its boot value.
run xenhypfs write $T/options/funcgraph-retval 1
xen-dyntrace reset -q || fail "reset exited $?"
expect_eq "funcgraph-retval after reset" 0 "$(xenhypfs cat $T/options/funcgraph-retval)"
reset_tracing
