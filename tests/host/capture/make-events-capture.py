#!/usr/bin/env python3
"""make-events-capture.py OUT: a synthetic capture with events of Xen's trace points (record -e;
public/dyntrace_events.h) beside function records, for tests/host/test-capture: a vCPU switch
(a head and its continuation), a run state change, an irq event with half-word fields, a
hypercall of seven words, an id the table does not know, a continuation whose head was lost (at a
read's start: skipped), and a switch whose continuation is missing (its last word shows as "?").
Prints the records as `report -t` must print them (without the header)."""
import struct
import sys

import rawformat

FUNCS = {0xffff82d040200000: "do_xen_version", 0xffff82d040200100: "xen_extra_version"}
EVENT, MORE = 0x80, 0x80


def chunk(ctype, cpu, data):
    return struct.pack("<IIQ", ctype, cpu, len(data)) + data


def raw(cpu, recs):
    return chunk(3, cpu, rawformat.raw_chunk_body(cpu, recs))


def function(ts, ip, dom, vcpu, cpu):
    return [(ts, ip, 0xffff82d040300010, dom, vcpu, cpu, 0, 0)]


def event(ts, eid, words, dom, vcpu, cpu, cont=True):
    """The records of an event: its head, and its continuation past three words."""
    w = list(words) + [0] * (7 - len(words))
    recs = [(ts, eid | w[0] << 32, w[1] | w[2] << 32, dom, vcpu, cpu, EVENT, len(words))]
    if len(words) > 3 and cont:
        recs.append((ts, w[3] | w[4] << 32, w[5] | w[6] << 32, dom, vcpu, cpu, EVENT, MORE))
    return recs


f = list(FUNCS)
expect = []


def line(cpu, ts, dom, vcpu, text):
    ctx = f"d{dom}v{vcpu}"
    expect.append((ts, cpu, f"{ctx:>12} [{cpu:03d}] ... {ts // 10**9:5d}.{ts % 10**9:09d}: {text}"))


T = 5_000_000_000
cpu0a = function(T + 100, f[0], 0, 0, 0)
line(0, T + 100, 0, 0, "do_xen_version <-0xffff82d040300010")
cpu0a += event(T + 200, 0x0002800a, [0, 0, 1, 1], 0, 0, 0)
line(0, T + 200, 0, 0, "sched_switch: prev=d0v0 ==> next=d1v1")
cpu0a += event(T + 300, 0x00021021, [1 << 16 | 1], 1, 1, 0)
line(0, T + 300, 1, 1, "runstate_change: vcpu=d1v1 old=running new=blocked")
cpu0a += event(T + 400, 0x00802003, [48 << 16 | 5, 3], 1, 1, 0)
line(0, T + 400, 1, 1, "bind_vector: irq=5 vector=48 mask=0x3")
# The next read starts with a continuation whose head was overwritten, and ends with a switch
# whose continuation it does not have.
cpu0b = [(T + 450, 7, 8, 1, 1, 0, EVENT, MORE)]
cpu0b += event(T + 500, 0x0002800a, [1, 1, 32767, 0], 1, 1, 0, cont=False)
line(0, T + 500, 1, 1, "sched_switch: prev=d1v1 ==> next=?")
cpu1 = event(T + 150, 0x0020100d, [1 << 20 | 36, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], 0, 1, 1)
line(1, T + 150, 0, 1, "hypercall: op=domctl(36) 0x100024 0x11 0x22 0x33 0x44 0x55 0x66")
cpu1 += event(T + 250, 0x0ffff123, [1, 2], 0, 1, 1)
line(1, T + 250, 0, 1, "event_0xffff123: 0x1 0x2")
cpu1 += function(T + 350, f[1], 0, 1, 1)
line(1, T + 350, 0, 1, "xen_extra_version <-0xffff82d040300010")

data = b"XDTCAPT\n" + struct.pack("<IIIIQ", 1, 32, 16, 0, 0)
data += chunk(1, 0, b"tool=test\ntracer=function\nevents=sched irq pv\ncpus=0,1\n")
data += chunk(2, 0, "\n".join(f"{a:016x} {n}" for a, n in FUNCS.items()).encode())
data += raw(0, cpu0a) + raw(1, cpu1) + raw(0, cpu0b)
nrec = len(cpu0a) + len(cpu0b) + len(cpu1)
data += chunk(4, 0, f"seconds=1.000\nrecords={nrec}\nlost=0\n".encode())
open(sys.argv[1], "wb").write(data)
for _, _, text in sorted(expect):
    print(text)
