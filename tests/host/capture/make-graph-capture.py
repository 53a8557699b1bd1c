#!/usr/bin/env python3
"""make-graph-capture.py OUT [--retval]: a small synthetic function_graph capture
(docs/user-guide.md, "Raw format" and "Capture file"), for tests/host/test-capture: on CPU 0,
do_xen_version's entry record, a leaf xen_extra_version inside it and do_xen_version's return; on
CPU 1, a leaf do_xen_version of d1v2 that lasted over 10 us. Prints the lines `report` must print
for them (without the header). --retval: the returns as options/funcgraph-retval has Xen record
them (bit 7 of depth; the value in parent_ip; the function's low 32 bits and the duration in ns in
ip): xen_extra_version returns an address, do_xen_version -22 as an int (upper half 0) on CPU 0
and -2 as a long on CPU 1."""
import struct
import sys

import rawformat

FUNCS = {0xffff82d040200000: "do_xen_version", 0xffff82d040200100: "xen_extra_version"}
ENT, RET = rawformat.FLAG["GRAPH_ENT"], rawformat.FLAG["GRAPH_RET"]
T = 2_000_000_000


def chunk(ctype, cpu, data):
    return struct.pack("<IIQ", ctype, cpu, len(data)) + data


def raw(cpu, recs):
    full = [(ts, ip, parent, dom, vcpu, cpu, flags, depth)
            for ts, ip, parent, dom, vcpu, flags, depth in recs]
    return chunk(3, cpu, rawformat.raw_chunk_body(cpu, full))


f = list(FUNCS)
RETVAL = "--retval" in sys.argv[2:]


def ret(ts, func, call, value):
    """A return's ip and parent_ip: as usual, or packed with its value (--retval)."""
    if not RETVAL:
        return func, call
    return (ts - call) << 32 | (func & 0xffffffff), value


def depth(d):
    return d | 0x80 if RETVAL else d


# (ts, ip, parent_ip, domid, vcpu, flags, depth): an entry's parent_ip is its caller, a return's
# or a leaf's the call's time.
cpu0 = [(T + 100, f[0], 0xffff82d040300010, 0, 0, ENT, 1),
        (T + 300, *ret(T + 300, f[1], T + 250, 0xffff82d0403b5926), 0, 0, ENT | RET, depth(2)),
        (T + 400, *ret(T + 400, f[0], T + 100, 0xffffffea), 0, 0, RET, depth(1))]
cpu1 = [(T + 12_350, *ret(T + 12_350, f[0], T + 200, 0xfffffffffffffffe), 1, 2, ENT | RET,
         depth(1))]
data = b"XDTCAPT\n" + struct.pack("<IIIIQ", 1, 32, 16, 0, 0)
data += chunk(1, 0, b"tool=test\ntracer=function_graph\ncpus=0,1\n")
data += chunk(2, 0, "\n".join(f"{a:016x} {n}" for a, n in FUNCS.items()).encode())
data += raw(0, cpu0) + raw(1, cpu1)
data += chunk(4, 0, b"seconds=1.000\nrecords=4\nlost=0\n")
open(sys.argv[1], "wb").write(data)

if RETVAL:
    print("  0)       d0v0 |                 |  do_xen_version() {")
    print("  0)       d0v0 |        0.050 us |    xen_extra_version(); /* ret=0xffff82d0403b5926 */")
    print("  0)       d0v0 |        0.300 us |  } /* do_xen_version ret=-22 (EINVAL) */")
    print("  1)       d1v2 | +     12.150 us |  do_xen_version(); /* ret=-2 (ENOENT) */")
else:
    print("  0)       d0v0 |                 |  do_xen_version() {")
    print("  0)       d0v0 |        0.050 us |    xen_extra_version();")
    print("  0)       d0v0 |        0.300 us |  } /* do_xen_version */")
    print("  1)       d1v2 | +     12.150 us |  do_xen_version();")
