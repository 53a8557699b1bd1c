"""rawformat: the raw record format of xen/include/public/dyntrace.h, read from that header (the
one place it is written down), for the synthetic captures of tests/host/test-capture.

    RECORD, HEADER   struct.Struct of xen_dyntrace_record and xen_dyntrace_raw_header ("<", in
                     field order)
    MAGIC, VERSION   XEN_DYNTRACE_RAW_MAGIC and _VERSION
    FLAG             {"IRQS_OFF": 0x1, ..., "GRAPH_TAIL": 0x40} (XEN_DYNTRACE_FLAG_*)
    raw_chunk_body(cpu, recs, lost, left): a raw read, header and records (each a tuple in the
                     record's field order)."""
import os
import re
import struct

HEADER_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                           "xen", "include", "public", "dyntrace.h")
_TYPES = {"uint8_t": "B", "uint16_t": "H", "uint32_t": "I", "uint64_t": "Q"}
_text = open(HEADER_PATH).read()


def _struct(name):
    body = re.search(r"struct %s \{(.*?)\};" % name, _text, re.S).group(1)
    fields = re.findall(r"^\s*(uint\d+_t) (\w+);", body, re.M)
    return struct.Struct("<" + "".join(_TYPES[t] for t, _ in fields)), [n for _, n in fields]


def _define(name):
    return int(re.search(r"#define %s\s+(0x[0-9a-fA-F]+|\d+)U?\b" % name, _text).group(1), 0)


RECORD, RECORD_FIELDS = _struct("xen_dyntrace_record")
HEADER, HEADER_FIELDS = _struct("xen_dyntrace_raw_header")
MAGIC = _define("XEN_DYNTRACE_RAW_MAGIC")
VERSION = _define("XEN_DYNTRACE_RAW_VERSION")
FLAG = {m: _define("XEN_DYNTRACE_FLAG_" + m)
        for m in re.findall(r"#define XEN_DYNTRACE_FLAG_(\w+)", _text)}
assert RECORD.size == 32 and HEADER.size == 32, "public/dyntrace.h: unexpected sizes"


def raw_chunk_body(cpu, recs, lost=0, left=0):
    """A raw read of CPU cpu: its header, then recs (tuples in RECORD_FIELDS' order)."""
    head = HEADER.pack(MAGIC, VERSION, HEADER.size, RECORD.size, cpu, len(recs), lost, left)
    return head + b"".join(RECORD.pack(*r) for r in recs)
