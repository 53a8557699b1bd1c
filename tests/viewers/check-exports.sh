#!/usr/bin/env bash
# check-exports.sh ARCH LOG: the host half of the dom0 suite "record". Takes the capture that
# tests/dom0/record/02-capture-for-the-host.sh printed into the serial LOG (gzip + base64, with its
# size and sha256), and opens what xen-dyntrace exports from it with real clients:
#   - trace.dat: Debian's `trace-cmd report` must list the same records as `xen-dyntrace report`
#     (count, and per record, in order: CPU, timestamp, function, and the task d<D>v<V>/<idle>),
#     line for line, in nanoseconds (-t) and in microseconds (both round them);
#   - JSON: it must parse, hold one slice per record named after its function alone and one
#     thread per pCPU, and open in speedscope (npm registry) in Debian's Chromium, headless
#     (speedscope-check.cjs), whose sandwich view must list the capture's busiest functions by
#     name; it saves screenshots;
#   - and record/04's function_graph capture (XDTGRAPH lines): its trace.dat events, read back raw
#     by trace-cmd, against the capture's records; its JSON in speedscope, the calls of a pCPU
#     listed by name.
# Prints TAP lines "ok BUILD/ARCH/record/host-..." and writes its files to BUILD_DIR/ARCH/exports.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"

arch=${1:?usage: check-exports.sh ARCH LOG}
log=${2:?usage: check-exports.sh ARCH LOG}
name=$XEN_VARIANT/$arch/record/host
out=$BUILD_DIR/$arch/exports
viewers=$BUILD_ROOT/host/viewers
tool_dir=$BUILD_ROOT/host/xen-dyntrace
tool=$tool_dir/xen-dyntrace
rm -rf "$out"
mkdir -p "$out" "$BUILD_ROOT/host"
# make check may run two record suites at once: one host half at a time (the tool's build and
# the viewers are shared).
exec 9>"$BUILD_ROOT/host/check-exports.lock"
flock 9

pass() { echo "ok $name-$1"; }
failed() { echo "not ok $name-$1"; }

# The host build: record (Debian 12's libxenhypfs).
if ! make -s -C "$REPO_ROOT/tools/misc/xen-dyntrace" O="$tool_dir" >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    failed "build: xen-dyntrace"
    exit 0
fi
pass "build: xen-dyntrace with libxenhypfs, -Wall -Wextra -Werror"

# receive MARK TEST WHAT: the file a dom0 test printed into the serial log with send_to_host
# (tests/dom0/lib.sh) as numbered MARK lines, twice (gzip + base64, with its size and sha256), into
# $out as $rcv_file; $rcv_words: the words after the line count on its MARK-BEGIN line. For each line
# number it keeps the longest copy made only of base64 characters, at most 76 of them (a console
# message printed into a line splits or garbles that copy). Prints TAP line TEST; returns 1 if the
# file did not arrive intact.
receive() {
    local mark=$1 test=$2 what=$3 file size sum lines missing
    read -r _ file size sum lines rcv_words < <(tr -d '\r' <"$log" |
        grep -E "^# $mark-BEGIN [^ ]+ [0-9]+ [0-9a-f]{64} [0-9]+( [A-Za-z0-9_=.-]+)*\$" | head -n1 | cut -c3-) || true
    rcv_file=$out/${file:-$mark.dat}
    tr -d '\r' <"$log" | sed -n "s/^# $mark:\([0-9][0-9]*\):/\1 /p" |
        awk -v n="${lines:-0}" -v miss="$out/$mark.missing" '
            NF == 2 && $2 ~ /^[A-Za-z0-9+\/=]+$/ && length($2) <= 76 && length($2) > length(got[$1]) {
                got[$1] = $2
            }
            END {
                m = 0
                for (i = 1; i <= n; i++) {
                    if (i in got) print got[i]; else m++
                }
                print m > miss
            }' >"$out/$mark.b64"
    missing=$(cat "$out/$mark.missing")
    base64 -d <"$out/$mark.b64" 2>/dev/null | gunzip >"$rcv_file" 2>/dev/null || true
    if [ -z "${sum:-}" ] || [ "$(sha256sum <"$rcv_file" | cut -d' ' -f1)" != "$sum" ] ||
        [ "$(wc -c <"$rcv_file")" != "$size" ]; then
        failed "$test: the dom0's $what arrived intact (size ${size:-?}, sha256; of ${lines:-?} lines, $missing had no well-formed copy)"
        return 1
    fi
    pass "$test: the dom0's $what arrived intact ($size bytes, sha256)"
}

# The capture of record/02.
receive XDTFILE transfer capture || exit 0
cap=$rcv_file

# Callers are named from the hypervisor's own symbols.
nm=nm
[ "$arch" = arm64 ] && nm=aarch64-linux-gnu-nm
$nm -n "$BUILD_DIR/$arch/xen/xen/xen-syms" >"$out/xen.map"

"$tool" report -t --symbols "$out/xen.map" "$cap" >"$out/report.txt"
records=$(grep -c '^ *\(d[0-9]*v[0-9]*\|<idle>\) \[' "$out/report.txt" || true)
cpus=$(sed -n 's/^# entries-in-buffer.*#P:\([0-9]*\)$/\1/p' "$out/report.txt")

# trace.dat, read back by Debian's trace-cmd.
if "$tool" export -f trace.dat --symbols "$out/xen.map" -o "$out/capture.trace.dat" "$cap" 2>"$out/export.err" &&
    trace-cmd report -t -i "$out/capture.trace.dat" >"$out/trace-cmd.txt" 2>"$out/trace-cmd.err"; then
    # Both with nanosecond timestamps (-t).
    # Ours: "   d0v1 [001] d..   12.345678901: func <-caller" -> "001 12.345678901 func d0v1".
    sed -nE 's/^ *([^ ]+) \[([0-9]+)\] [^ ]+ +([0-9]+\.[0-9]+): ([^ ]+) <-.*/\2 \3 \4 \1/p' \
        "$out/report.txt" >"$out/ours.cmp"
    # trace-cmd: "    d0v1-2  [001]  12.345678901: function:   func" (task-pid; <idle>-0).
    sed -nE 's/^ *(.+)-[0-9]+ +\[([0-9]+)\] +([0-9]+\.[0-9]+): function: +([^ ]+).*/\2 \3 \4 \1/p' \
        "$out/trace-cmd.txt" >"$out/theirs.cmp"
    n=$(wc -l <"$out/theirs.cmp")
    if [ "$n" = "$records" ] && [ "$records" -gt 0 ] && cmp -s "$out/ours.cmp" "$out/theirs.cmp"; then
        pass "trace.dat: trace-cmd report lists the $records records of the capture (CPU, time, function, d<D>v<V> task, in order) on $cpus CPUs"
    else
        diff "$out/ours.cmp" "$out/theirs.cmp" | head -n 6 >&2 || true
        failed "trace.dat: trace-cmd report lists $n records, xen-dyntrace report $records, or they differ (see $out)"
    fi
    # Microseconds (no -t): both round to the nearest, as ftrace does.
    "$tool" report --symbols "$out/xen.map" "$cap" >"$out/report-us.txt"
    trace-cmd report -i "$out/capture.trace.dat" >"$out/trace-cmd-us.txt" 2>/dev/null
    sed -nE 's/^ *([^ ]+) \[([0-9]+)\] [^ ]+ +([0-9]+\.[0-9]+): ([^ ]+) <-.*/\2 \3 \4 \1/p' \
        "$out/report-us.txt" >"$out/ours-us.cmp"
    sed -nE 's/^ *(.+)-[0-9]+ +\[([0-9]+)\] +([0-9]+\.[0-9]+): function: +([^ ]+).*/\2 \3 \4 \1/p' \
        "$out/trace-cmd-us.txt" >"$out/theirs-us.cmp"
    if [ "$(wc -l <"$out/theirs-us.cmp")" = "$records" ] && cmp -s "$out/ours-us.cmp" "$out/theirs-us.cmp"; then
        pass "trace.dat: trace-cmd report and xen-dyntrace report agree line for line in microseconds too ($records records: CPU, rounded time, function, task)"
    else
        diff "$out/ours-us.cmp" "$out/theirs-us.cmp" | head -n 6 >&2 || true
        failed "trace.dat: trace-cmd report and xen-dyntrace report differ in microseconds (see $out)"
    fi
else
    cat "$out/export.err" "$out/trace-cmd.err" 2>/dev/null | head -n 5 >&2
    failed "trace.dat: export or trace-cmd report failed"
fi

# JSON: well-formed, the right events, then a real viewer.
if "$tool" export -f json --symbols "$out/xen.map" -o "$out/capture.json" "$cap" 2>"$out/export.err" &&
    python3 - "$out/capture.json" "$records" "$cpus" "$out/top-names" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
funcs = [e for e in ev if e.get("ph") == "X" and e.get("cat") != "context" and e["tid"] < 65536]
threads = {e["tid"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"}
spans = [e for e in ev if e.get("cat") == "context"]
ok = len(funcs) == int(sys.argv[2]) and len(threads) == int(sys.argv[3]) and spans and \
    all(e["dur"] >= 0 for e in spans + funcs) and not [e for e in funcs if "args" in e or " " in e["name"]]
# The busiest functions of the busiest pCPU (speedscope's first profile is pCPU 0): by time.
cpu0 = {}
for e in funcs:
    if e["tid"] == 0:
        cpu0[e["name"]] = cpu0.get(e["name"], 0) + e["dur"]
top = sorted(cpu0, key=lambda k: -cpu0[k])[:3]
open(sys.argv[4], "w").write(",".join(top))
print(f"json: {len(funcs)} function slices, {len(spans)} context spans, {len(threads)} threads; pCPU 0's busiest: {top}")
sys.exit(0 if ok and top else 1)
PY
then
    pass "json: one slice per record ($records), named after its function alone (no args), one thread per pCPU ($cpus), context spans with durations"
else
    failed "json: malformed or not matching the capture"
fi

# speedscope from the npm registry, in Debian's Chromium.
if [ ! -d "$viewers/node_modules/speedscope" ] || [ ! -d "$viewers/node_modules/playwright-core" ]; then
    mkdir -p "$viewers"
    npm install --silent --no-save --no-package-lock --no-audit --no-fund --prefix "$viewers" \
        speedscope@1.25.0 playwright-core@1.65.2 >"$out/npm.log" 2>&1 || { cat "$out/npm.log" >&2; true; }
fi
threads=()
for ((c = 0; c < ${cpus:-0}; c++)); do threads+=("pCPU $c"); done
if node "$REPO_ROOT/tests/viewers/speedscope-check.cjs" "$viewers" "$out/capture.json" \
    "$out/speedscope-function" "$(cat "$out/top-names" 2>/dev/null)" "" "${threads[@]}" >"$out/speedscope.out" 2>&1; then
    pass "speedscope: in headless Chromium it opens the JSON and its sandwich view lists pCPU 0's busiest functions by name ($(cat "$out/top-names")): $(grep -c '^ok' "$out/speedscope.out") checks"
else
    cat "$out/speedscope.out" >&2
    failed "speedscope: in headless Chromium: $(grep '^not ok' "$out/speedscope.out" | head -n1)"
fi

# The function_graph capture of record/04 (XDTGRAPH lines): trace.dat read back by trace-cmd, its
# raw events (-R) against the capture's records as xen-dyntrace report prints them.
receive XDTGRAPH graph-transfer "function_graph capture" || exit 0
gcap=$rcv_file
gn=$rcv_words
"$tool" report --symbols "$out/xen.map" "$gcap" >"$out/graph-report.txt"
# Ours: "f() {" an entry, "f();" a leaf (entry and return), "}" a return.
opens=$(grep -c '|  *[^ ].*() {$' "$out/graph-report.txt" || true)
leaves=$(grep -c '|  *[^ ].*();$' "$out/graph-report.txt" || true)
closes=$(grep -c '|  *} ' "$out/graph-report.txt" || true)
if "$tool" export -f trace.dat --symbols "$out/xen.map" -o "$out/graph.trace.dat" "$gcap" 2>"$out/gexport.err" &&
    trace-cmd report -t -R -i "$out/graph.trace.dat" >"$out/graph-raw.txt" 2>"$out/graph-tc.err" &&
    trace-cmd report -t -i "$out/graph.trace.dat" >"$out/graph-tc.txt" 2>>"$out/graph-tc.err"; then
    res=$(python3 - "$out/graph-raw.txt" <<'PY'
import re, sys
ent = ex = xev = bad = off = 0
for line in open(sys.argv[1]):
    m = re.search(r"\] +(\d+)\.(\d{9}): (funcgraph_entry|funcgraph_exit): +(.*)$", line)
    if not m:
        continue
    f = dict(kv.split("=", 1) for kv in m.group(4).split())
    if m.group(3) == "funcgraph_entry":
        ent += 1
        xev += f["func"] == "xen_extra_version" and f["depth"] == "1"
    else:
        ex += 1
        ret, call = int(f["rettime"], 16), int(f["calltime"], 16)
        bad += ret < call
        off += ret != int(m.group(1)) * 10**9 + int(m.group(2))
print(ent, ex, xev, bad, off)
PY
)
    read -r ent ex xev bad off <<<"$res"
    if [ "$ent" = $((opens + leaves)) ] && [ "$ex" = $((leaves + closes)) ] && [ "$xev" -ge "${gn:-1}" ] &&
        [ "$bad" = 0 ] && [ "$off" = 0 ] && grep -q 'funcgraph_entry: .*|  do_xen_version() {$' "$out/graph-tc.txt"; then
        pass "graph-trace.dat: trace-cmd lists $ent funcgraph_entry (report: $opens entries + $leaves leaves) and $ex funcgraph_exit ($leaves leaves + $closes returns), $xev xen_extra_version at depth 1 for ${gn:-?} reads, every rettime its event's time and after its calltime"
    else
        failed "graph-trace.dat: trace-cmd: $ent entries, $ex exits, $xev xen_extra_version at depth 1, $bad exits before their call, $off rettimes off their time; report: $opens entries, $leaves leaves, $closes returns (see $out)"
    fi
else
    cat "$out/gexport.err" "$out/graph-tc.err" 2>/dev/null | head -n 5 >&2
    failed "graph-trace.dat: export or trace-cmd report failed"
fi

# The function_graph capture's JSON in speedscope: the calls of the pCPU with the most, by name.
"$tool" export -f json --symbols "$out/xen.map" -o "$out/graph.json" "$gcap" 2>/dev/null
read -r gtid gnames < <(python3 - "$out/graph.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
calls = [e for e in ev if e.get("ph") == "X" and e["tid"] >= 65536]
per = {}
for e in calls:
    per.setdefault(e["tid"], {}).setdefault(e["name"], 0)
    per[e["tid"]][e["name"]] += e["dur"]
tid = max(per, key=lambda t: len(per[t])) if per else 65536
names = sorted(per.get(tid, {}), key=lambda k: -per[tid][k])[:3]
print(tid - 65536, ",".join(names))
PY
) || true
# The pCPUs with calls: speedscope lists a thread only if it has events.
gthreads=()
gcpus=$(python3 - "$out/graph.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
print(" ".join(str(t - 65536) for t in sorted({e["tid"] for e in ev if e.get("ph") == "X" and e["tid"] >= 65536})))
PY
) || true
for c in ${gcpus:-}; do gthreads+=("pCPU $c calls"); done
if [ -n "${gnames:-}" ] && node "$REPO_ROOT/tests/viewers/speedscope-check.cjs" "$viewers" "$out/graph.json" \
    "$out/speedscope-graph" "$gnames" "pCPU $gtid calls" "${gthreads[@]}" >"$out/speedscope-graph.out" 2>&1; then
    pass "graph-speedscope: the function_graph JSON opens, and the sandwich view of 'pCPU $gtid calls' lists its costliest calls by name ($gnames): $(grep -c '^ok' "$out/speedscope-graph.out") checks"
else
    cat "$out/speedscope-graph.out" >&2 2>/dev/null || true
    failed "graph-speedscope: $(grep '^not ok' "$out/speedscope-graph.out" 2>/dev/null | head -n1)"
fi

# The capture of record/10 (XDTEVENTS lines): Xen's trace points with the functions, a domU d<D>
# at work. trace.dat in trace-cmd (every vCPU switch of report is a sched_switch there, the domU's
# vCPUs named as tasks) and in KernelShark under Xvfb (as an unprivileged user: as root it opens
# a warning first), with the domU's first vCPU's task plot: a screenshot. The JSON: a 'pCPU N
# vCPUs' track per pCPU with the vCPUs that ran as spans, a track per vCPU, and speedscope's
# view of pCPU 0's vCPUs listing the domU's by name: screenshots.
receive XDTEVENTS events-transfer "capture with events" || exit 0
ecap=$rcv_file
D=${rcv_words#D=}
"$tool" report -t --symbols "$out/xen.map" "$ecap" >"$out/events-report.txt"
esw=$(grep -c ': sched_switch: prev=[^ ]* ==> next=[^?]' "$out/events-report.txt" || true)
ecpus=$(sed -n 's/^# entries-in-buffer.*#P:\([0-9]*\)$/\1/p' "$out/events-report.txt")
if "$tool" export -f trace.dat --symbols "$out/xen.map" -o "$out/events.trace.dat" "$ecap" 2>"$out/export.err" &&
    trace-cmd report -t -i "$out/events.trace.dat" >"$out/events-tc.txt" 2>"$out/events-tc.err"; then
    tsw=$(grep -c ' sched_switch: ' "$out/events-tc.txt" || true)
    tasks=$(grep ' sched_switch: ' "$out/events-tc.txt" | grep -o "d${D}v[0-9]*:[0-9]*" | sort -u | tr '\n' ' ')
    if [ "$tsw" = "$esw" ] && [ "$esw" -gt 0 ] && [ -n "$tasks" ]; then
        pass "events-trace.dat: trace-cmd report lists the capture's $esw vCPU switches as sched_switch, the domU's vCPUs named as tasks ($tasks)"
    else
        head -n 5 "$out/events-tc.err" >&2 || true
        failed "events-trace.dat: trace-cmd lists $tsw sched_switch, report $esw; domU tasks '$tasks'"
    fi
else
    cat "$out/export.err" "$out/events-tc.err" 2>/dev/null | head -n 5 >&2
    failed "events-trace.dat: export or trace-cmd report failed"
fi
# KernelShark on an X server of its own (a free display Xvfb picks itself; no access control,
# loopback only), as nobody: its screenshot once it has drawn the task plot (its log names the
# file loaded; the plot's colours), both killed however this ends.
ks=$out/kernelshark
mkdir -p "$ks"
chmod 777 "$ks"
rm -f "$out/kernelshark-events.png"
colors=0
if [ -s "$out/events.trace.dat" ]; then
    cp "$out/events.trace.dat" "$ks/events.trace.dat"
    chmod 644 "$ks/events.trace.dat"
    Xvfb -displayfd 1 -screen 0 1600x1000x24 -nolisten tcp >"$ks/display" 2>"$ks/xvfb.log" &
    xvfb=$!
    kspid=
    trap 'kill $xvfb $kspid 2>/dev/null || true' EXIT
    for _ in $(seq 50); do [ -s "$ks/display" ] && break; sleep 0.2; done
    disp=:$(head -n1 "$ks/display" 2>/dev/null)
    DISPLAY=$disp HOME="$ks" XDG_RUNTIME_DIR="$ks" setpriv --reuid=65534 --regid=65534 \
        --clear-groups kernelshark -geometry 1600x1000+0+0 -i "$ks/events.trace.dat" \
        --cpu "0-$((ecpus - 1))" --task "d${D}v0" >"$ks/kernelshark.log" 2>&1 &
    kspid=$!
    # Loaded, then drawn: wait for the log line, then a few seconds for the plots.
    for _ in $(seq 60); do grep -q 'Loading .*events.trace.dat' "$ks/kernelshark.log" && break; sleep 0.5; done
    sleep 6
    DISPLAY=$disp import -window root "$out/kernelshark-events.png" 2>>"$ks/xvfb.log" || true
    kill "$kspid" "$xvfb" 2>/dev/null || true
    wait "$kspid" "$xvfb" 2>/dev/null || true
    trap - EXIT
    colors=$(identify -format %k "$out/kernelshark-events.png" 2>/dev/null || echo 0)
fi
if grep -q 'Loading .*events.trace.dat' "$ks/kernelshark.log" 2>/dev/null && [ "$colors" -gt 100 ]; then
    pass "events-kernelshark: KernelShark opens the trace.dat with its $ecpus pCPUs and the task plot of d${D}v0 (screenshot kernelshark-events.png, $colors colors)"
else
    tail -n 5 "$ks/kernelshark.log" >&2 || true
    failed "events-kernelshark: KernelShark did not open the trace.dat ($colors colors on screen)"
fi
if "$tool" export -f json --symbols "$out/xen.map" -o "$out/events.json" "$ecap" 2>"$out/export.err" &&
    python3 - "$out/events.json" "$D" "$esw" "$out/events-names" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
d, nsw = sys.argv[2], int(sys.argv[3])
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and "tid" in e}
spans = [(names.get(e["tid"], ""), e["name"]) for e in ev if e["ph"] == "X"]
res = [n for t, n in spans if t.endswith(" vCPUs")]
own = [t for t, n in spans if t.startswith(f"d{d}v") and n.startswith("pCPU ")]
funcs = [n for t, n in spans if t.startswith("pCPU ") and " " not in n and n == "do_xen_version"]
pcpus = sorted({t for t, _ in spans if t.endswith(" vCPUs")})
# A span per switch (each closes the one before; the last lasts to the CPU's last record).
assert len(res) == nsw, (len(res), nsw)
assert [n for n in res if n.startswith(f"d{d}v")] and own and funcs, (res[:5], own[:3], len(funcs))
cpu0 = {}
for e in ev:
    if e["ph"] == "X" and names.get(e["tid"]) == "pCPU 0 vCPUs":
        cpu0[e["name"]] = cpu0.get(e["name"], 0) + e["dur"]
open(sys.argv[4], "w").write(",".join(sorted(cpu0, key=lambda k: -cpu0[k])[:3]))
print(f"json: {len(res)} vCPU spans on {pcpus}, {len(own)} on the domU's own tracks, {len(funcs)} do_xen_version")
PY
then
    pass "events-json: a span per vCPU switch ($esw) on 'pCPU N vCPUs' tracks, the domU's vCPUs on tracks of their own, the functions beside"
else
    failed "events-json: malformed or not matching the capture"
fi
ethreads=()
for t in $(python3 -c "
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
names = {e['tid']: e['args']['name'] for e in ev if e['ph'] == 'M' and 'tid' in e}
print(' '.join(sorted({names[e['tid']].split()[1] for e in ev if e['ph'] == 'X' and names.get(e['tid'], '').endswith(' vCPUs')})))
" "$out/events.json" 2>/dev/null); do ethreads+=("pCPU $t vCPUs"); done
if [ -s "$out/events-names" ] && node "$REPO_ROOT/tests/viewers/speedscope-check.cjs" "$viewers" "$out/events.json" \
    "$out/speedscope-events" "$(cat "$out/events-names")" "pCPU 0 vCPUs" "${ethreads[@]}" >"$out/speedscope-events.out" 2>&1; then
    pass "events-speedscope: the JSON opens, and the sandwich view of 'pCPU 0 vCPUs' lists the vCPUs that ran there by name ($(cat "$out/events-names")): $(grep -c '^ok' "$out/speedscope-events.out") checks"
else
    cat "$out/speedscope-events.out" >&2 2>/dev/null || true
    failed "events-speedscope: $(grep '^not ok' "$out/speedscope-events.out" 2>/dev/null | head -n1)"
fi
# xentrace's file of the same run (XDTXENTRACE lines): the switches both recorded, compared per
# pCPU over the interval both covered whole: the number of switches and each vCPU's running time
# within 1 % (tests/viewers/compare-xentrace.py maps xentrace's TSC to Xen's ns through the
# switches in common, and leaves out where either lost records). Its table goes to the log
# either way, its reasons into the verdict.
receive XDTXENTRACE events-xentrace-transfer "xentrace file" || exit 0
if python3 "$REPO_ROOT/tests/viewers/compare-xentrace.py" "$rcv_file" "$out/events-report.txt" \
    >"$out/xentrace-compare.txt" 2>&1; then
    sed 's/^/# /' "$out/xentrace-compare.txt"
    pass "events-xentrace: per pCPU, the vCPU switches and each vCPU's running time agree with xentrace's within 1 % ($(grep -c ' switches ' "$out/xentrace-compare.txt") pCPUs, $(grep -vc ' switches \|^pCPU' "$out/xentrace-compare.txt") vCPU rows)"
else
    sed 's/^/# /' "$out/xentrace-compare.txt"
    failed "events-xentrace: $(sed -n 's/^FAIL //p; /^Traceback/,$p' "$out/xentrace-compare.txt" | tr '\n' ';' | cut -c1-400)"
fi
