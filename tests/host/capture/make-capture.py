#!/usr/bin/env python3
"""make-capture.py OUT: a small synthetic xen-dyntrace capture (docs/user-guide.md, "Capture
file"), for tests/host/test-capture: three traced functions, two CPUs, interleaved timestamps, a
loss on CPU 1 before its third record, a raw read with no records but a loss at CPU 0's end, and
the summary chunk. Prints the records as `report -t` must print them (without the header)."""
import struct
import sys

import rawformat

FUNCS = {0xffff82d040200000: "do_xen_version", 0xffff82d040200100: "xen_extra_version",
         0xffff82d040200200: "common/softirq.c#__do_softirq"}
IDLE = 32767


def chunk(ctype, cpu, data):
    return struct.pack("<IIQ", ctype, cpu, len(data)) + data


def raw(cpu, recs, lost=0, left=0):
    full = [(ts, ip, parent, dom, vcpu, cpu, flags, 0) for ts, ip, parent, dom, vcpu, flags in recs]
    return chunk(3, cpu, rawformat.raw_chunk_body(cpu, full, lost, left))


f = list(FUNCS)
cpu0 = [(1_000_000_100, f[0], 0xffff82d040300010, 0, 0, 0), (1_000_000_300, f[1], f[0] + 0x1c, 0, 0, 0),
        (1_000_000_500, f[2], 0xffff82d040300020, IDLE, 0, 1)]
cpu1 = [(1_000_000_200, f[0], 0xffff82d040300010, 1, 2, 2), (1_000_000_300, f[1], f[0] + 0x1c, 1, 2, 3),
        (1_000_000_900, f[2], 0xffff82d040300020, IDLE, 1, 4)]
data = b"XDTCAPT\n" + struct.pack("<IIIIQ", 1, 32, 16, 0, 0)
data += chunk(1, 0, b"tool=test\ntracer=function\ncpus=0,1\n")
data += chunk(2, 0, "\n".join(f"{a:016x} {n}" for a, n in FUNCS.items()).encode())
data += raw(0, cpu0[:2]) + raw(1, cpu1[:2], left=1) + raw(1, cpu1[2:], lost=5) + raw(0, cpu0[2:])
data += raw(0, [], lost=2)
data += chunk(4, 0, b"seconds=1.000\nrecords=6\nlost=7\n")
open(sys.argv[1], "wb").write(data)

# The expected report lines (merged by time, ties: lower CPU first; losses before their CPU's
# next record, or after its last).
def line(cpu, r):
    ts, ip, parent, dom, vcpu, flags = r
    ctx = "<idle>" if dom == IDLE else f"d{dom}v{vcpu}"
    fl = ("d" if flags & 1 else ".") + ("h" if flags & 2 else ".") + ("z" if flags & 4 else ".")
    return f"{ctx:>12} [{cpu:03d}] {fl} {ts // 10**9:5d}.{ts % 10**9:09d}: {FUNCS[ip]} <-0x{parent:x}"


print(line(0, cpu0[0]))
print(line(1, cpu1[0]))
print(line(0, cpu0[1]))
print(line(1, cpu1[1]))
print(line(0, cpu0[2]))
print("CPU:0 [LOST 2 EVENTS]")
print("CPU:1 [LOST 5 EVENTS]")
print(line(1, cpu1[2]))
