# tracer/25 under shadow stacks: nested groups of a known call, every "}" matched, the child no
# longer than its parent, max_graph_depth, tracing_thresh (the fast entry and return, R10).
. /opt/dyntrace/tests/tracer/25-function-graph.sh
