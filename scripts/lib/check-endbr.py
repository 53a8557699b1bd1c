#!/usr/bin/env python3
# check-endbr.py OBJ...: with CONFIG_XEN_IBT, Xen gives ENDBR64 only to cf_check functions, and an
# indirect call (or jump) to a function without one is a #CP that panics the host (on every Intel
# CPU since Tiger Lake and AMD since Zen 3 that has IBT; QEMU's TCG has none, so no boot here can
# see it). This lists the C functions of the tracer's objects whose address is taken -- stored in
# data, or loaded by lea/mov in code -- and that start (after the patchable entry's NOPs) with
# anything but ENDBR64, and exits 1 if there is one. The functions of our assembly files, the
# fast entries (dyntrace_fast_*) and dyntrace_return() are left out: they are reached only by
# direct calls the rendezvous writes (arch/x86/dyntrace.c), or by RET.
import re
import subprocess
import sys


def objdump(*args):
    return subprocess.run(['objdump', *args], capture_output=True, text=True,
                          check=True).stdout


def functions(obj):
    """Each function of obj, and whether its first instruction past NOPs is ENDBR64."""
    found = {}
    cur = None
    for line in objdump('-d', '--no-show-raw-insn', obj).splitlines():
        m = re.match(r'^[0-9a-f]+ <(.+)>:$', line)
        if m:
            cur = m.group(1)
            found[cur] = None
            continue
        if cur and found[cur] is None and re.match(r'^\s+[0-9a-f]+:\s', line):
            insn = line.split('\t', 1)[-1].strip()
            if not insn.startswith('nop'):
                found[cur] = insn.startswith('endbr64')
    return found


def target(sym):
    sym = re.sub(r'[-+]0x[0-9a-f]+$', '', sym)
    return sym[len('.text.'):] if sym.startswith('.text.') else sym


SKIP_SECTIONS = re.compile(r'^\.(init\.)?text|^\.altinstr|^\.debug|^\.eh_frame|^\.fixup|'
                           r'^__ex_table|^\.bug_frames|^\.note|^\.discard|^\.rela')


def main(objs):
    asm, c = [o for o in objs if re.search(r'-(entry|return|graph)\.o$', o)], \
        [o for o in objs if not re.search(r'-(entry|return|graph)\.o$', o)]
    endbr = {}
    for o in c:
        endbr.update(functions(o))
    exempt = set()
    for o in asm:
        exempt.update(functions(o))
    bad = set()
    for o in c:
        sec = None
        for line in objdump('-r', o).splitlines():
            m = re.match(r'RELOCATION RECORDS FOR \[(.+)\]:', line)
            if m:
                sec = m.group(1)
                continue
            f = line.split()
            if len(f) >= 3 and f[1].startswith('R_X86_64') and not SKIP_SECTIONS.search(sec):
                t = target(f[2])
                if endbr.get(t) is False:
                    bad.add((t, o, 'stored in ' + sec))
        lines = objdump('-dr', '--no-show-raw-insn', o).splitlines()
        for i, line in enumerate(lines[1:], 1):
            m = re.search(r'R_X86_64_(PC32|32S|64)\s+(\S+)$', line)
            if m and re.search(r'\t(lea|mov)', lines[i - 1]):
                t = target(m.group(2))
                if endbr.get(t) is False:
                    bad.add((t, o, 'address loaded: ' + lines[i - 1].split('\t')[-1][:40]))
    bad = sorted(b for b in bad if b[0] not in exempt and b[0] != 'dyntrace_return' and
                 not b[0].startswith('dyntrace_fast_'))
    for t, o, why in bad:
        print(f'{o}: {t}() has no ENDBR64 (not cf_check) but its address is taken ({why})')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
