#!/usr/bin/env python3
"""makefile-hunks.py: rewrite the xen/common/dyntrace/Makefile hunks of patches/ after an object
is added to, moved in or taken from the series (a maintainer's tool, not run by make).

xen/common/dyntrace/Makefile is ours: 0008 creates it with sites.o and the notrace line, and
each later entry adds the objects it brings, in link order (the initcalls' order). OBJECTS
below is that order, each object with the entry that adds it. For every patch in patches/ and
patches/BASE/ that has a hunk of that Makefile (and is not the one creating it), the hunk is
written anew from the Makefile before and after that entry, with git's three lines of context,
and the patch's diffstat line for the Makefile and its summary are corrected.
"""
import difflib
import glob
import os
import re
import sys

OBJECTS = [
    ("ring.o", "0009"), ("tracer.o", "0010"), ("state.o", "0011"), ("patch.o", "0011"),
    ("hypfs.o", "0012"), ("hypfs_snap.o", "0012"), ("hypfs_write.o", "0012"),
    ("output.o", "0013"), ("function.o", "0013"),
    ("scope.o", "0018"),
    ("return.o", "0019"), ("graph.o", "0020"),
    ("profile.o", "0021"), ("profile_stats.o", "0021"),
    ("events.o", "0024"),
]
PATH = "xen/common/dyntrace/Makefile"


def makefile(upto):
    """The Makefile once the entries numbered up to and including upto are applied."""
    lines = ["obj-y += sites.o", "",
             "# The tracer itself and everything its callbacks run: never traced."]
    lines += ["obj-y += %s" % o for o, e in OBJECTS if e <= upto]
    lines.append("notrace-y += $(obj-y)")
    return [l + "\n" for l in lines]


def hunk(entry):
    before = makefile("%04d" % (int(entry) - 1))
    after = makefile(entry)
    diff = list(difflib.unified_diff(before, after, "a/" + PATH, "b/" + PATH, n=3))
    added = sum(1 for l in diff[2:] if l.startswith("+"))
    removed = sum(1 for l in diff[2:] if l.startswith("-"))
    text = "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n" % (PATH, PATH, PATH, PATH)
    return text + "".join(diff[2:]), added, removed


def fix(path):
    s = open(path).read()
    m = re.search(r"^diff --git a/%s b/%s\n(?!new file)" % (PATH, PATH), s, re.M)
    if not m:
        return False
    end = s.find("\ndiff --git ", m.start() + 1)
    end = len(s) if end < 0 else end + 1
    entry = os.path.basename(path)[:4]
    new, added, removed = hunk(entry)
    old = s[m.start():end]
    old_added = sum(1 for l in old.split("\n")[4:] if l.startswith("+"))
    old_removed = sum(1 for l in old.split("\n")[4:] if l.startswith("-"))
    s = s[:m.start()] + new + s[end:]
    # The diffstat: the Makefile's line, then the summary's counts.
    n = added + removed
    s = re.sub(r"^( %s +\| +)\d+ [+-]*$" % re.escape(PATH),
               lambda mm: mm.group(1) + "%d %s" % (n, "+" * added + "-" * removed), s, count=1,
               flags=re.M)

    def summary(mm):
        ins = int(mm.group(2) or 0) - old_added + added
        dels = int(mm.group(3) or 0) - old_removed + removed
        out = mm.group(1)
        if ins:
            out += ", %d insertion%s(+)" % (ins, "" if ins == 1 else "s")
        if dels:
            out += ", %d deletion%s(-)" % (dels, "" if dels == 1 else "s")
        return out
    s = re.sub(r"^( \d+ files? changed)(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$",
               summary, s, count=1, flags=re.M)
    open(path, "w").write(s)
    return True


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    for p in sorted(glob.glob(os.path.join(root, "patches", "*.patch")) +
                    glob.glob(os.path.join(root, "patches", "*", "*.patch"))):
        if fix(p):
            print("rewrote the Makefile hunk of", os.path.relpath(p, root))


if __name__ == "__main__":
    sys.exit(main())
