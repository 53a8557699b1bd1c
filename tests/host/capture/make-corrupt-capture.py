#!/usr/bin/env python3
"""make-corrupt-capture.py KIND OUT: a small capture (docs/user-guide.md, "Capture file") that
breaks the format in one field, for tests/host/test-capture and the fuzzer's seeds
(tests/host/test-capture-fuzz). Two CPUs, each a raw read of two records, the function list and
the summary; KIND is what is wrong:
  cpu=N       CPU 0's second record says CPU N (2: the first CPU beyond the chunks')
  flags=X     CPU 0's second record has flags X (e.g. 0x08, a bit the format does not have)
  depth=N     CPU 0's second record, of the function tracer, has depth N in its last byte
  graph-depth0  a function_graph capture whose CPU 0 second record (a leaf) has depth 0
  valid       nothing
  funcs-end   the function list is the last chunk and its last line, without a newline, is a
              number that runs to the chunk's end (no name)
  funcs-text  not a capture: only such a function list's text (for tests/host/capture/symtab-guard)
  funcs-empty a valid capture whose function list is empty (its records are named by address)
Prints what the error must say after "FILE: " (nothing for valid, funcs-empty and funcs-text)."""
import struct
import sys

import rawformat

FUNCS = {0xffff82d040200000: "do_xen_version", 0xffff82d040200100: "xen_extra_version"}
ENT, RET = rawformat.FLAG["GRAPH_ENT"], rawformat.FLAG["GRAPH_RET"]
# The flags a read may carry: all but RAW_TS.
KNOWN = sum(rawformat.FLAG.values()) & ~rawformat.FLAG["RAW_TS"]


def chunk(ctype, cpu, data):
    return struct.pack("<IIQ", ctype, cpu, len(data)) + data


def raw(cpu, recs):
    return chunk(3, cpu, rawformat.raw_chunk_body(cpu, recs))


kind, out = sys.argv[1], sys.argv[2]
f = list(FUNCS)
tracer = "function"
# (ts, ip, parent_ip, domid, vcpu, cpu, flags, depth)
cpu0 = [[1000, f[0], 0xffff82d040300010, 0, 0, 0, 0, 0], [3000, f[1], f[0] + 0x1c, 0, 0, 0, 0, 0]]
cpu1 = [[2000, f[0], 0xffff82d040300010, 1, 2, 1, 0, 0], [4000, f[1], f[0] + 0x1c, 1, 2, 1, 0, 0]]
funcs = "\n".join(f"{a:016x} {n}" for a, n in FUNCS.items()).encode() + b"\n"
funcs_last = False
if kind.startswith("cpu="):
    cpu0[1][5] = int(kind[4:])
    why = f"record 1: CPU {int(kind[4:])}, not the chunk's"
elif kind.startswith("flags="):
    flags = cpu0[1][6] = int(kind[6:], 0)
    why = (f"record 1: unknown flags 0x{flags:02x}" if flags & ~KNOWN else
           f"record 1: flags 0x{flags:02x}: a tail that is not a return")
elif kind.startswith("depth="):
    cpu0[1][7] = int(kind[6:])
    why = f"record 1: a function record with depth {int(kind[6:])}"
elif kind == "event-graph":
    # An event (XEN_DYNTRACE_FLAG_EVENT, public/dyntrace_events.h) with a function_graph flag.
    cpu0[1][6] = 0x80 | ENT
    why = f"record 1: an event with flags 0x{0x80 | ENT:02x}"
elif kind == "event-words":
    cpu0[1][6], cpu0[1][7] = 0x80, 9
    why = "record 1: an event of 9 words"
elif kind == "graph-depth0":
    tracer = "function_graph"
    cpu0 = [[1000, f[0], 0xffff82d040300010, 0, 0, 0, ENT, 1], [3000, f[1], 2000, 0, 0, 0, ENT | RET, 0]]
    cpu1 = [[4000, f[0], 2000, 1, 2, 1, ENT | RET, 1]]
    why = "record 1: a function_graph record with depth 0"
elif kind in ("funcs-end", "funcs-text"):
    # The address's digits run to the end: a reader that does not stop there reads on.
    funcs += b"ffff82d040200200"
    funcs_last = True
    why = "malformed function list"
elif kind == "funcs-empty":
    funcs = b""
    why = ""
elif kind == "valid":
    why = ""
else:
    sys.exit(f"make-corrupt-capture.py: unknown kind {kind}")

if kind == "funcs-text":
    open(out, "wb").write(funcs)
    sys.exit(0)
data = b"XDTCAPT\n" + struct.pack("<IIIIQ", 1, 32, 16, 0, 0)
data += chunk(1, 0, f"tool=test\ntracer={tracer}\ncpus=0,1\n".encode())
if not funcs_last:
    data += chunk(2, 0, funcs)
bad_chunk = len(data)
data += raw(0, cpu0) + raw(1, cpu1)
data += chunk(4, 0, b"seconds=1.000\nrecords=4\nlost=0\n")
if funcs_last:
    bad_chunk = len(data)
    data += chunk(2, 0, funcs)
open(out, "wb").write(data)
if funcs_last:
    print(f"chunk at byte {bad_chunk}: {why}")
elif why:
    print(f"chunk at byte {bad_chunk} (CPU 0): {why}")
