# The negative control of the cet suite (scripts/boot.sh, EMULATOR=bochs): the xen_dyntrace_noshstk
# payload makes arch_dyntrace_shstk_divert() divert a return on the stack alone, as before shadow
# stacks were handled (the divert of the dispatcher's path, and of the fast entries' unusual
# cases).  The first hooked return must then be a #CP, which Xen reports by a
# panic: the host side (tests/run-dom0-suite.sh) passes this suite only on "CONTROL-FLOW
# PROTECTION FAULT: #CP[0001] near ret" after the marker below.  It shows that the cet suite runs
# where shadow stacks are enforced, and that it would catch a divert that forgot the shadow copy.
. /opt/dyntrace/tests/lib.sh
needs_series 3 function_graph
reset_tracing
run $LP upload xen_dyntrace_noshstk $payload_dir/xen_dyntrace_noshstk.livepatch
run livepatch_retry apply xen_dyntrace_noshstk
run xenhypfs write $T/set_function_filter do_xen_version
# Through the dispatcher's C path (set_graph_function makes the fast entry hand every call to
# it), which calls arch_dyntrace_shstk_divert(): the fast entries check and write the usual case
# inline, and the cet suite's function_graph and profiler tests cover those.
run xenhypfs write $T/set_graph_function do_xen_version
run xenhypfs write $T/current_tracer function_graph
# Through the kernel's log, which dom0 writes to Xen's console at once (a tty's write may still
# wait in dom0 when Xen panics; the test's own output is shown only once it ends, which it must
# not).
# Before tracing starts: the first call of do_xen_version, whoever makes it, is due to end in
# the #CP.
echo "DYNTRACE: a #CP is due" >/dev/kmsg
sleep 1
xenhypfs write $T/tracing_on 1
cat /sys/hypervisor/version/extra
fail "a return diverted on the stack alone came back without a #CP"
