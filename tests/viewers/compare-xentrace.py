#!/usr/bin/env python3
"""compare-xentrace.py XENTRACE REPORT: the vCPU switches that Debian's xentrace (XENTRACE, its
binary file of the sched class) and xen-dyntrace (REPORT: `xen-dyntrace report -t` of a capture
of `record -e sched:sched_switch`) recorded of the same run, compared per pCPU and per vCPU.

The two use different clocks (xentrace: the TSC, or on Arm the generic timer's count; xen-dyntrace:
Xen's NOW() in ns) and start and stop at different times. So, per pCPU: the switches both recorded
are found (the runs of identical (prev, next) pairs, difflib), and the TSC is mapped to ns
piecewise, a least-squares line through the two times of each PIECE matched switches (about
70 ms). NOW() is not a fixed multiple of the TSC: Xen recalibrates each CPU's time against the
platform timer every second, and under QEMU TCG on a loaded host NOW()'s rate against the TSC
changes by up to 0.7 % at a calibration, and NOW() can step by milliseconds (CI's run at
609ca2a, x86 pCPU 1: 0.3846, 0.3818, then 0.3860 ns per TSC cycle, and a 7 ms step at 2.1 s);
on Arm NOW() is the count scaled, but the two stamps of a switch are taken a few hundred
instructions apart (ours first, in the same trace() call), and a host that deschedules QEMU's
vCPU thread between them moves one by as long as that lasted (3.7 ms seen once in CI). Each line
is fitted twice, the second time without the switches more than MAX_RESIDUAL_NS off the first:
those left off the map (a step, a stall) may be at most MAX_OFF_PCT % of the matched switches,
and the running time on either side of them is left out of both tracers' sums alike.

The comparison is over the interval both recorded whole: from the first matched switch to the
last (no extrapolation), less any stretch where either lost records (xentrace's
TRC_LOST_RECORDS; our `[LOST N EVENTS]` lines, which come before the first record of the read
that counted the loss: OUR_LOSS_NS after it too): the longest stretch without a loss, at least
MIN_SPAN_NS. There: each trace's number of switches, and each vCPU's running time (from a switch
to it to the pCPU's next switch). Both must have seen the same pCPUs. Prints a table; exits 1 if
a count or a vCPU's running time (of at least 10 ms) differs by more than 1 %, or too many
switches are off the lines, or nothing matched.

xentrace's file (tools/xentrace/xentrace.c, public/trace.h): records of 32-bit words, a header
(event in bits 0-27, extra words in 28-30, a TSC in the next two words if bit 31), each CPU's
buffer window after a TRC_TRACE_CPU_CHANGE record (0x0001f003: its CPU, the window's bytes)."""
import difflib
import re
import struct
import sys

SWITCH, LOST, CPU_CHANGE = 0x0002800a, 0x0001f001, 0x0001f003
PIECE = 50
MAX_OFF_PCT = 5
MAX_RESIDUAL_NS = 1_000_000
MIN_SPAN_NS = 10**9
OUR_LOSS_NS = 10**9 // 2
IDLE = 32767


def vcpu(dom, v):
    return "idle" if dom == IDLE else f"d{dom}v{v}"


def xentrace(path):
    """Per CPU: [(tsc, prev, next, lost)], lost: records were lost since the CPU's last switch."""
    data, off, cpu, out, lost = open(path, "rb").read(), 0, 0, {}, set()
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
        elif event == LOST:
            lost.add(cpu)
        elif event == SWITCH and tsc is not None and extra >= 4:
            out.setdefault(cpu, []).append((tsc, vcpu(words[0], words[1]),
                                            vcpu(words[2], words[3]), cpu in lost))
            lost.discard(cpu)
    return out


def ours(path):
    out, lost = {}, set()
    pat = re.compile(r"\[(\d+)\] \S+ +(\d+)\.(\d{9}): sched_switch: prev=(\S+) ==> next=(\S+)$")
    loss = re.compile(r"^CPU:(\d+) \[LOST \d+ EVENTS\]")
    for line in open(path):
        line = line.rstrip("\n")
        m = loss.match(line)
        if m:
            lost.add(int(m.group(1)))
            continue
        m = pat.search(line)
        if m and m.group(5) != "?":
            cpu = int(m.group(1))
            out.setdefault(cpu, []).append((int(m.group(2)) * 10**9 + int(m.group(3)),
                                            m.group(4), m.group(5), cpu in lost))
            lost.discard(cpu)
    return out


def running(sw, lo, hi, skip=frozenset()):
    """Each vCPU's running time in [lo, hi] from switches (t, prev, next, _, key) of one pCPU,
    less the spans that begin or end at a switch whose key is in skip; the switches in [lo, hi];
    the time left out."""
    t, out = {}, 0
    for (a, _, nxt, _, ka), (b, _, _, _, kb) in zip(sw, sw[1:]):
        s, e = max(a, lo), min(b, hi)
        if e > s:
            if ka in skip or kb in skip:
                out += e - s
            else:
                t[nxt] = t.get(nxt, 0) + e - s
    return t, sum(lo <= x[0] <= hi for x in sw), out


def fit(seg):
    n = len(seg)
    mx, my = sum(q[0] for q in seg) / n, sum(q[1] for q in seg) / n
    den = sum((q[0] - mx) ** 2 for q in seg) or 1
    return mx, my, sum((q[0] - mx) * (q[1] - my) for q in seg) / den


def mapping(pairs):
    """The piecewise map from the TSC to ns through the matched pairs (tsc, ns), and the pairs
    more than MAX_RESIDUAL_NS off it."""
    # Pieces of PIECE pairs; a last one of less than half that joins the one before.
    segs = [pairs[i:i + PIECE] for i in range(0, len(pairs), PIECE)]
    if len(segs) > 1 and len(segs[-1]) < PIECE // 2:
        segs[-2] += segs.pop()
    lines = []
    for seg in segs:
        mx, my, slope = fit(seg)
        kept = [q for q in seg if abs(my + (q[0] - mx) * slope - q[1]) <= MAX_RESIDUAL_NS]
        if len(kept) >= 2:
            mx, my, slope = fit(kept)
        lines.append((seg[-1][0], mx, my, slope))

    def to_ns(t):
        for end, mx, my, slope in lines:
            if t <= end:
                break
        return my + (t - mx) * slope
    return to_ns, len(lines)


def loss_free(lo, hi, windows):
    """The longest stretch of [lo, hi] that overlaps no window (a, b)."""
    best, start = (lo, lo), lo
    for a, b in sorted(windows) + [(hi, hi)]:
        if a > start and min(a, hi) - start > best[1] - best[0]:
            best = (start, min(a, hi))
        start = max(start, b)
    return best


xt, us = xentrace(sys.argv[1]), ours(sys.argv[2])
bad, matched = [], 0
if set(xt) != set(us):
    print(f"pCPUs with switches: xentrace {sorted(xt)}, xen-dyntrace {sorted(us)}")
    bad.append("not the same pCPUs")
print(f"{'pCPU':>4} {'what':<10} {'xentrace':>14} {'xen-dyntrace':>14} {'diff %':>7}")
for cpu in sorted(set(xt) & set(us)):
    a, b = xt[cpu], us[cpu]
    sm = difflib.SequenceMatcher(None, [x[1:3] for x in a], [x[1:3] for x in b], autojunk=False)
    blks = [m for m in sm.get_matching_blocks() if m.size >= 3]
    pairs = [(a[m.a + k][0], b[m.b + k][0]) for m in blks for k in range(m.size)]
    if len(pairs) < 10:
        print(f"{cpu:>4} only {len(pairs)} switches in common")
        bad.append(f"pCPU {cpu}: {len(pairs)} switches in common")
        continue
    to_ns, pieces = mapping(pairs)
    a_ns = [(to_ns(t), p, q, lost, t) for t, p, q, lost in a]
    b_k = [(t, p, q, lost, t) for t, p, q, lost in b]
    resid = sorted(abs(to_ns(x) - y) for x, y in pairs)
    outliers = [(x, y) for x, y in pairs if abs(to_ns(x) - y) > MAX_RESIDUAL_NS]
    off = len(outliers)
    if off * 100 > MAX_OFF_PCT * len(resid):
        bad.append(f"pCPU {cpu}: {off} of {len(resid)} switches more than "
                   f"{MAX_RESIDUAL_NS / 1e6:g} ms off the clock map")
    # Where either lost records: xentrace's, from the switch before its lost-records record to
    # the one after; ours, up to OUR_LOSS_NS after (a read's [LOST N] comes before its first
    # record, and counts what was dropped anywhere in the span that read covers).
    windows = [(a_ns[k - 1][0], a_ns[k][0]) for k in range(1, len(a_ns)) if a_ns[k][3]]
    windows += [(b[k - 1][0], b[k][0] + OUR_LOSS_NS) for k in range(1, len(b)) if b[k][3]]
    lo, hi = loss_free(pairs[0][1], pairs[-1][1], windows)
    if hi - lo < MIN_SPAN_NS:
        print(f"{cpu:>4} records lost: only {(hi - lo) / 1e9:.3f} s without a loss")
        bad.append(f"pCPU {cpu}: {len(windows)} losses, {(hi - lo) / 1e9:.3f} s without one")
        continue
    ta, na, out_a = running(a_ns, lo, hi, {x for x, _ in outliers})
    tb, nb, out_b = running(b_k, lo, hi, {y for _, y in outliers})
    matched += len(pairs)
    d = abs(na - nb) / max(na, nb) * 100
    if d > 1:
        bad.append(f"pCPU {cpu}: switches {na} and {nb}")
    print(f"{cpu:>4} {'switches':<10} {na:>14} {nb:>14} {d:>7.3f}   ({len(pairs)} matched, "
          f"{(hi - lo) / 1e9:.3f} s compared, {len(windows)} losses, {pieces} pieces, residual "
          f"median {resid[len(resid) // 2] / 1e3:.1f} us, largest {resid[-1] / 1e3:.1f} us, "
          f"{off} over {MAX_RESIDUAL_NS / 1e6:g} ms: {out_a / 1e6:.1f} and {out_b / 1e6:.1f} ms "
          f"around them left out)")
    for v in sorted(set(ta) | set(tb)):
        x, y = ta.get(v, 0), tb.get(v, 0)
        d = abs(x - y) / max(x, y) * 100 if max(x, y) else 0
        if d > 1 and max(x, y) >= 10**7:
            bad.append(f"pCPU {cpu}: {v} ran {x / 1e6:.3f} and {y / 1e6:.3f} ms")
        print(f"{cpu:>4} {v:<10} {x / 1e6:>11.3f} ms {y / 1e6:>11.3f} ms {d:>7.3f}")
if not matched:
    print("no switch in common")
    bad.append("no switch in common")
for why in bad:
    print(f"FAIL {why}")
sys.exit(1 if bad else 0)
