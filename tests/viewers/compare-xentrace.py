#!/usr/bin/env python3
"""compare-xentrace.py XENTRACE REPORT: the vCPU switches that Debian's xentrace (XENTRACE, its
binary file of the sched class) and xen-dyntrace (REPORT: `xen-dyntrace report -t` of a capture
of `record -e sched:sched_switch`) recorded of the same run, compared per pCPU and per vCPU.

The two use different clocks (xentrace: the TSC; xen-dyntrace: Xen's NOW() in ns) and start and
stop at different times. So, per pCPU: the switches both recorded are found (the longest run of
identical (prev, next) pairs, difflib), and the TSC is mapped to ns piecewise: a least-squares
line through the two times of the matched switches of each second (Xen recalibrates NOW()
against the platform timer every second; under QEMU TCG the emulated TSC drifts from it, the
dom0 kernel itself reports its TSC skewed by 2 ms over 0.5 s, so one line for the whole capture
is up to 1 % off over 3 s). A line per second cannot absorb what a timestamp gets wrong within the
second: every matched switch's residual is checked (at most MAX_RESIDUAL_NS), as well as the
counts and running times. Both must have seen the same pCPUs. The comparison is over the interval
both recorded, from
the later first switch to the earlier last one, in ns: each trace's number of switches there, and
each vCPU's running time there (from a switch to it to the pCPU's next switch). Prints a table;
exits 1 if a count or a vCPU's running time (of at least 10 ms) differs by more than 1 %, or
nothing matched.

xentrace's file (tools/xentrace/xentrace.c, public/trace.h): records of 32-bit words, a header
(event in bits 0-27, extra words in 28-30, a TSC in the next two words if bit 31), each CPU's
buffer window after a TRC_TRACE_CPU_CHANGE record (0x0001f003: its CPU, the window's bytes)."""
import difflib
import re
import struct
import sys

SWITCH, CPU_CHANGE = 0x0002800a, 0x0001f003
PIECE_NS = 10**9
MAX_RESIDUAL_NS = 1_000_000
IDLE = 32767


def vcpu(dom, v):
    return "idle" if dom == IDLE else f"d{dom}v{v}"


def xentrace(path):
    data, off, cpu, out = open(path, "rb").read(), 0, 0, {}
    while off + 4 <= len(data):
        (hdr,) = struct.unpack_from("<I", data, off)
        event, extra, cyc = hdr & 0x0fffffff, (hdr >> 28) & 7, hdr >> 31
        off += 4
        tsc = None
        if cyc:
            lo, hi = struct.unpack_from("<II", data, off)
            tsc = hi << 32 | lo
            off += 8
        words = struct.unpack_from("<%dI" % extra, data, off)
        off += 4 * extra
        if event == CPU_CHANGE:
            cpu = words[0] & 0xffff
        elif event == SWITCH and tsc is not None and extra >= 4:
            out.setdefault(cpu, []).append((tsc, vcpu(words[0], words[1]), vcpu(words[2], words[3])))
    return out


def ours(path):
    out = {}
    pat = re.compile(r"\[(\d+)\] \S+ +(\d+)\.(\d{9}): sched_switch: prev=(\S+) ==> next=(\S+)$")
    for line in open(path):
        m = pat.search(line.rstrip("\n"))
        if m and m.group(5) != "?":
            out.setdefault(int(m.group(1)), []).append(
                (int(m.group(2)) * 10**9 + int(m.group(3)), m.group(4), m.group(5)))
    return out


def running(sw, lo, hi):
    """Each vCPU's running time in [lo, hi] from switches (t, prev, next) of one pCPU; and the
    switches in [lo, hi]."""
    t = {}
    for (a, _, nxt), (b, _, _) in zip(sw, sw[1:]):
        s, e = max(a, lo), min(b, hi)
        if e > s:
            t[nxt] = t.get(nxt, 0) + e - s
    return t, sum(lo <= x[0] <= hi for x in sw)


xt, us = xentrace(sys.argv[1]), ours(sys.argv[2])
bad, matched = 0, 0
if set(xt) != set(us):
    print(f"pCPUs with switches: xentrace {sorted(xt)}, xen-dyntrace {sorted(us)}")
    bad += 1
print(f"{'pCPU':>4} {'what':<10} {'xentrace':>14} {'xen-dyntrace':>14} {'diff %':>7}")
for cpu in sorted(set(xt) & set(us)):
    a, b = xt[cpu], us[cpu]
    sm = difflib.SequenceMatcher(None, [x[1:] for x in a], [x[1:] for x in b], autojunk=False)
    blk = max(sm.get_matching_blocks(), key=lambda m: m.size)
    if blk.size < 10:
        print(f"{cpu:>4} only {blk.size} switches in common")
        bad += 1
        continue
    pairs = [(a[blk.a + k][0], b[blk.b + k][0]) for k in range(blk.size)]
    # Pieces of a second of the matched switches; a last piece of less than half a second joins
    # the one before (a line through a few close points extrapolates wildly).
    segs = [[]]
    for p in pairs:
        if segs[-1] and p[1] - segs[-1][0][1] > PIECE_NS:
            segs.append([])
        segs[-1].append(p)
    if len(segs) > 1 and segs[-1][-1][1] - segs[-1][0][1] < PIECE_NS // 2:
        segs[-2] += segs.pop()
    lines = []
    for seg in segs:
        n = len(seg)
        mx, my = sum(q[0] for q in seg) / n, sum(q[1] for q in seg) / n
        den = sum((q[0] - mx) ** 2 for q in seg) or 1
        lines.append((seg[-1][0], mx, my, sum((q[0] - mx) * (q[1] - my) for q in seg) / den))

    def to_ns(t):
        for end, mx, my, slope in lines:
            if t <= end:
                break
        return my + (t - mx) * slope

    a_ns = [(to_ns(t), p, q) for t, p, q in a]
    resid = max(abs(to_ns(x) - y) for x, y in pairs)
    bad += resid > MAX_RESIDUAL_NS
    lo, hi = max(a_ns[0][0], b[0][0]), min(a_ns[-1][0], b[-1][0])
    ta, na = running(a_ns, lo, hi)
    tb, nb = running(b, lo, hi)
    matched += blk.size
    d = abs(na - nb) / max(na, nb) * 100
    bad += d > 1
    print(f"{cpu:>4} {'switches':<10} {na:>14} {nb:>14} {d:>7.3f}   ({blk.size} matched, "
          f"{(hi - lo) / 1e9:.3f} s in common, {len(lines)} pieces, largest residual "
          f"{resid / 1e3:.1f} us)")
    for v in sorted(set(ta) | set(tb)):
        x, y = ta.get(v, 0), tb.get(v, 0)
        d = abs(x - y) / max(x, y) * 100 if max(x, y) else 0
        bad += d > 1 and max(x, y) >= 10**7
        print(f"{cpu:>4} {v:<10} {x / 1e6:>11.3f} ms {y / 1e6:>11.3f} ms {d:>7.3f}")
if not matched:
    print("no switch in common")
sys.exit(1 if bad or not matched else 0)
