# tracer/28 under shadow stacks: set_graph_function's trees, through the dispatcher's C path
# (the fast entry hands every call to it while the list is set).
. /opt/dyntrace/tests/tracer/28-set-graph-function.sh
