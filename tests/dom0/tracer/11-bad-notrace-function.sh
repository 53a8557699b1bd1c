# Functions that exist but cannot be traced (notrace: NMI entry on x86, the
# patching path on arm64, the tracer itself; init-only code) are refused with EPERM; nothing changes.
. /opt/dyntrace/tests/lib.sh
setup_state
case $(uname -m) in
x86_64) funcs="do_nmi dyntrace_dispatch __start_xen" ;;
*) funcs="arch_livepatch_quiesce dyntrace_dispatch start_xen" ;;
esac
for f in $funcs; do
    xenhypfs cat $T/available_functions | grep -qx "$f" && fail "$f is listed as traceable"
    bad_write "Operation not permitted" $T/set_function_filter "$f"
done
reset_tracing
