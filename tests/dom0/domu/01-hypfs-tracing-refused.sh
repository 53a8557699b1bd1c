# Runs inside the unprivileged PV domU that privilege/01 starts (not in dom0):
# every HypFS access to /tracing must be refused with EPERM, through Debian's
# xenhypfs (which fails already at opening libxenhypfs, whose first hypercall,
# get_version, is refused) and through raw hypercalls. Each result is printed as a line
# "DOMU-RESULT name outcome" that the dom0 test reads from the console log.
. /opt/dyntrace/tests/lib.sh
result() { echo "DOMU-RESULT $1 $2"; }
xenhypfs cat $T/trace >/tmp/o 2>&1 && result xenhypfs-cat-trace succeeded || result xenhypfs-cat-trace "failed: $(tr '\n' ' ' </tmp/o)"
xenhypfs cat $T/current_tracer >/tmp/o 2>&1 && result xenhypfs-cat-current_tracer succeeded || result xenhypfs-cat-current_tracer "failed: $(tr '\n' ' ' </tmp/o)"
xenhypfs write $T/tracing_on 1 >/tmp/o 2>&1 && result xenhypfs-write-tracing_on succeeded || result xenhypfs-write-tracing_on "failed: $(tr '\n' ' ' </tmp/o)"
xenhypfs write $T/current_tracer function >/tmp/o 2>&1 && result xenhypfs-write-current_tracer succeeded || result xenhypfs-write-current_tracer "failed: $(tr '\n' ' ' </tmp/o)"
xenhypfs write $T/trace "" >/tmp/o 2>&1 && result xenhypfs-write-trace succeeded || result xenhypfs-write-trace "failed: $(tr '\n' ' ' </tmp/o)"
result raw-get-version "$(hypfs-raw version)"
result raw-read-trace "$(hypfs-raw read $T/trace 65536)"
result raw-write-tracing_on "$(hypfs-raw write $T/tracing_on 01)"
result raw-write-current_tracer "$(hypfs-raw write $T/current_tracer 6e6f7000)"
echo "DOMU-DONE"
