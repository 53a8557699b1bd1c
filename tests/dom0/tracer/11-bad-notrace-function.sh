# Functions that exist but cannot be traced (notrace: NMI entry, the tracer
# itself; init-only code) are refused with EPERM; nothing changes.
. /opt/dyntrace/tests/lib.sh
setup_state
for f in do_nmi dyntrace_dispatch __start_xen; do
    xenhypfs cat $T/available_functions | grep -qx "$f" && fail "$f is listed as traceable"
    bad_write "Operation not permitted" $T/set_function_filter "$f"
done
reset_tracing
