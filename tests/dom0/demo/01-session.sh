# The main session `make demo` shows. Until the tracer exists: the harness's smoke session.
. /opt/dyntrace/tests/lib.sh
run xenhypfs ls /
run xenhypfs cat /buildinfo/version/major
run cat /sys/hypervisor/version/extra
run xen-livepatch list
