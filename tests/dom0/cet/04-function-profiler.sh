# tracer/27 under shadow stacks: the profiler's hits are exact and its calls are timed, alone
# (its fast entry) and under function_graph (a shared entry, R6).
. /opt/dyntrace/tests/tracer/27-function-profiler.sh
