# Row 1: Xen built without patchable entries (the pristine tree).
. /opt/dyntrace/tests/bench/lib-bench.inc
hypercall_loop baseline
