# tracer/26 under shadow stacks: function_graph on the scheduler and the context switch, whose
# stacks Xen abandons (R7: reset_stack_and_jump() unwinds the shadow stack too); every "}"
# closes the call open at its depth, no duration is negative.
. /opt/dyntrace/tests/tracer/26-function-graph-context-switch.sh
