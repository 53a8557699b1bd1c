# tracer/29 under shadow stacks: return values read where the return trampoline saved %rax, on
# its shadow-stack way out (dyntrace_return_shstk), by the C path and the hand-written return;
# why under the narrow filter only.
retval_narrow_only=1
. /opt/dyntrace/tests/tracer/29-funcgraph-retval.sh
