#!/usr/bin/env python3
"""bench-report.py ARCH RUNS LOGDIR BASE_SYMS OURS_SYMS: turn the serial logs of
`make bench` (lines "# BENCH key k=v ...", and Xen's "dyntrace: N entries
rewritten, R rendezvous, U us" lines) into one markdown table per run and the
summary line."""
import re
import subprocess
import os
import sys

RECORD_BYTES = 32           # sizeof(struct dyntrace_record), BUILD_BUG_ON'd in Xen


def parse(path):
    figures, ops = {}, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "").rstrip("\n")
            m = re.match(r"^# BENCH (\S+)(.*)$", line)
            if m:
                figures[m.group(1)] = dict(kv.split("=", 1) for kv in m.group(2).split())
                continue
            m = re.search(r"dyntrace: (\d+) entries rewritten, (\d+) rendezvous, (\d+) us, rc (-?\d+)",
                          line)
            if m:
                ops.append(tuple(int(x) for x in m.groups()))
    return figures, ops


def text_bytes(syms):
    out = subprocess.run(["nm", syms], check=True, capture_output=True, text=True).stdout
    addr = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in ("_stext", "_etext"):
            addr[parts[2]] = int(parts[0], 16)
    return addr["_etext"] - addr["_stext"]


def ring_records(repo_ring_c):
    """Records per CPU at boot: the default buffer size (KiB) over 32-byte records."""
    with open(repo_ring_c) as f:
        m = re.search(r"#define DT_RING_DEFAULT_KB (\d+)", f.read())
    if not m:
        sys.exit("bench-report: DT_RING_DEFAULT_KB not found in " + repo_ring_c)
    return int(m.group(1)) * 1024 // 32


def main():
    arch, runs, logdir, base_syms, our_syms = sys.argv[1:6]
    runs = int(runs)
    repo = __file__.rsplit("/scripts/", 1)[0]
    records = ring_records(repo + "/xen/common/dyntrace/ring.c")
    text_base, text_ours = text_bytes(base_syms), text_bytes(our_syms)
    summary = None

    for run in range(1, runs + 1):
        base, _ = parse(f"{logdir}/bench-baseline-{run}.log")
        ours, ops = parse(f"{logdir}/bench-{run}.log")
        calls = int(ours["off"]["calls"])
        r1 = float(base["baseline"]["ns_per_call"])
        r2 = float(ours["off"]["ns_per_call"])
        r3 = float(ours["traced"]["ns_per_call"])
        r4 = float(base["xentrace"]["ns_per_call"])
        r5 = float(ours["traced_all"]["ns_per_call"])
        r3b = float(ours["domfiltered"]["ns_per_call"]) if "domfiltered" in ours else None
        r3c = float(ours["graph"]["ns_per_call"]) if "graph" in ours else None
        r3d = float(ours["profile"]["ns_per_call"]) if "profile" in ours else None
        r3e = float(ours["events_idle"]["ns_per_call"]) if "events_idle" in ours else None
        r3f = float(ours["events"]["ns_per_call"]) if "events" in ours else None
        r3g = float(ours["graph_retval"]["ns_per_call"]) if "graph_retval" in ours else None
        # Records per call: over every call made while recording (the
        # runs before three-measurement rows counted them against one).
        hits3 = (int(ours["traced_records"]["written"]) /
                 int(ours["traced_records"].get("calls", calls)))
        hits5 = (int(ours["traced_all_records"]["written"]) /
                 int(ours["traced_all_records"].get("calls", calls)))
        nfun3 = int(ours["traced_records"]["functions"])
        nall = int(ours["traced_all_records"]["functions"])
        xt = r4 - r1

        def ratio(delta):
            return f"{delta / xt:.2f}" if xt > 0 else "n/a"

        print(f"\n### Run {run} ({arch}, QEMU TCG -icount shift=0, 1 pCPU, 1 dom0 vCPU, "
              f"{calls} calls per row; 1 instruction = 1 ns)\n")
        print("| row | what | instructions per call | vs row 1 | per traced event | "
              "ratio to xentrace's overhead |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        print(f"| 1 | baseline: pristine Xen {os.environ.get('XEN_BASE', '')}, no patchable entries | {r1:.1f} | 0 | | |")
        print(f"| 2 | ours, tracer compiled in, nothing traced | {r2:.1f} | {r2 - r1:+.1f} | | |")
        print(f"| 3 | function tracer on {nfun3} functions of the path "
              f"({hits3:.2f} records per call) | {r3:.1f} | {r3 - r1:+.1f} | "
              f"{(r3 - r2) / hits3:.1f} | {ratio(r3 - r1)} |")
        if r3b is not None:
            nfun3b = int(ours["domfiltered_records"]["functions"])
            print(f"| 3b | row 3 with dom0 filtered out (set_domain_filter !d0: "
                  f"{nfun3b} calls per call, none recorded) | {r3b:.1f} | {r3b - r1:+.1f} | "
                  f"{(r3b - r2) / nfun3b:.1f} per filtered call | |")
        if r3c is not None:
            g = ours["graph_records"]
            if "leaves" in g:
                # A record per line of the buffer's last lines; a call
                # hooked per leaf line ("f();") or "}".
                opens, leaves, closes = (int(g["opens"]), int(g["leaves"]),
                                         int(g["closes"]))
                per_call = (opens + leaves + closes) / (leaves + closes)
            else:
                # Before leaf records: an entry and a return record each.
                per_call = 2
            calls3c = int(g["written"]) / per_call / int(g["calls"])
            print(f"| 3c | function_graph on row 3's functions ({calls3c:.2f} calls hooked "
                  f"per call, {per_call:.2f} records each) | {r3c:.1f} | {r3c - r1:+.1f} | "
                  f"{(r3c - r2) / calls3c:.1f} per call (entry + return) | {ratio(r3c - r1)} |")
        if r3g is not None:
            g = ours["graph_retval_records"]
            per_g = ((int(g["opens"]) + int(g["leaves"]) + int(g["closes"])) /
                     (int(g["leaves"]) + int(g["closes"])))
            calls3g = int(g["written"]) / per_g / int(g["calls"])
            print(f"| 3g | row 3c with options/funcgraph-retval ({calls3g:.2f} calls hooked "
                  f"per call, {per_g:.2f} records each) | {r3g:.1f} | {r3g - r1:+.1f} | "
                  f"{(r3g - r2) / calls3g:.1f} per call (entry + return) | {ratio(r3g - r1)} |")
        if r3d is not None:
            hits3d = int(ours["profile_hits"]["hits"])
            calls3d = hits3d / int(ours["profile_hits"]["calls"])
            timed3d = int(ours["profile_hits"].get("timed", 0))
            print(f"| 3d | function profiler on row 3's functions, nop tracer ({calls3d:.2f} "
                  f"calls counted per call, {100.0 * timed3d / hits3d:.1f} % of them timed) | "
                  f"{r3d:.1f} | {r3d - r1:+.1f} | {(r3d - r2) / calls3d:.1f} per call | "
                  f"{ratio(r3d - r1)} |")
        if r3e is not None:
            print(f"| 3e | an event on that the path does not hit (dom0:dom_add): each trace "
                  f"point of the path calls trace() | {r3e:.1f} | {r3e - r1:+.1f} | "
                  f"{(r3e - r2) / 2:.1f} per trace point (2 per call) | {ratio(r3e - r1)} |")
        if r3f is not None:
            ev3f = (int(ours["events_records"]["written"]) /
                    int(ours["events_records"]["calls"]))
            print(f"| 3f | the path's own event on (pv:hypercall, under nop: {ev3f:.2f} events "
                  f"per call) | {r3f:.1f} | {r3f - r1:+.1f} | {(r3f - r2) / ev3f:.1f} | "
                  f"{ratio(r3f - r1)} |")
        print(f"| 4 | xentrace -e all on the baseline (2 hypercall events per call: "
              f"xen_version and the iret back to user space) | {r4:.1f} | {xt:+.1f} | "
              f"{xt / 2:.1f} | 1.00 |")
        print(f"| 5 | function tracer on every traceable function ({nall}; "
              f"{hits5:.2f} records per call) | {r5:.1f} | {r5 - r1:+.1f} | "
              f"{(r5 - r2) / hits5:.1f} | {ratio(r5 - r1)} |")

        # Row 6: the last six operations that rewrote entries are the latency test's
        # patch/unpatch pairs for 1, 100 and all functions.
        rewrites = [op for op in ops if op[0] > 0][-6:]
        print("\n| row 6: patching latency | functions | entries rewritten | write to return (ns) | "
              "rendezvous | time in Xen (us) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        labels = [("patch", "1"), ("unpatch", "1"), ("patch", "100"), ("unpatch", "100"),
                  ("patch", "all"), ("unpatch", "all")]
        for (kind, n), op in zip(labels, rewrites):
            fig = ours[f"{kind}_{n}"]
            to = "function" if kind == "patch" else "nop"
            print(f"| current_tracer {to}, filter of {n} | {fig['functions']} | {op[0]} | "
                  f"{int(fig['ns'])} | {op[1]} | {op[2]} |")
        patch_all_ms = int(ours["patch_all"]["ns"]) / 1e6

        print("\n| row 7: memory | bytes |")
        print("| --- | ---: |")
        print(f"| per record | {RECORD_BYTES} |")
        print(f"| buffer per CPU ({records} records) | {records * RECORD_BYTES} |")
        print(f"| .text, baseline (build 1) | {text_base} |")
        print(f"| .text, ours (build 2) | {text_ours} ({text_ours - text_base:+d}, "
              f"{100.0 * (text_ours - text_base) / text_base:+.1f} %) |")

        print(f"\nFunctions executed per call (row 5's records per call): {hits5:.2f}; "
              f"off cost per executed function: {(r2 - r1) / hits5:.2f} instructions.")
        summary = (f"bench: off_per_call={r2 - r1:.1f} traced_per_call={(r3 - r2) / hits3:.1f} "
                   f"xentrace_per_call={xt / 2:.1f} patch_all_ms={patch_all_ms:.2f} "
                   f"record_bytes={RECORD_BYTES}")
        if r3b is not None:
            summary += f" domfiltered_per_call={(r3b - r2) / nfun3b:.1f}"
        if r3c is not None:
            summary += f" graph_per_call={(r3c - r2) / calls3c:.1f}"
        if r3g is not None:
            summary += f" graph_retval_per_call={(r3g - r2) / calls3g:.1f}"
        if r3d is not None:
            summary += f" profile_per_call={(r3d - r2) / calls3d:.1f}"
        if r3e is not None:
            summary += f" event_off_per_tracepoint={(r3e - r2) / 2:.1f}"
        if r3f is not None:
            summary += f" event_per_event={(r3f - r2) / ev3f:.1f}"
        if "record_max_rate" in ours:
            rm = ours["record_max_rate"]
            print(f"\nxen-dyntrace record, default poll interval (100 ms) and buffer ({records} "
                  f"records per CPU): highest sustained rate with no loss {rm['rate']} records/s "
                  f"of guest time (first loss at {rm['lost_at']}/s)")
            summary += f" record_max_rate={rm['rate']}"
    print()
    print(summary)


main()
