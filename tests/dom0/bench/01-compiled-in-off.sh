# Row 2: patchable entries and the tracer compiled in, nothing traced.
. /opt/dyntrace/tests/bench/lib-bench.inc
reset_tracing
hypercall_loop off
