# Helpers for the end-to-end tests that run in dom0 (busybox sh). Source it.
# A test is a script that exits 0 when every check passed; fail() stops it with a message.

fail() {
    echo "FAIL: $*"
    exit 1
}

note() { echo "$*"; }

# skip REASON: this test cannot run here; reported as "ok ... # SKIP REASON".
skip() {
    echo "SKIP: $*"
    exit 77
}

# needs_series N WHAT: the test needs WHAT (a tracer, or a file of /tracing), which series N of
# the mailed series adds (patches/series). A boot of the first K series only (SERIES=K:
# dyntrace_series=K on the dom0 command line, scripts/boot.sh) skips the test when K < N, after
# checking that WHAT is indeed absent there (so that the first series is seen to stand alone).
needs_series() {
    [ -n "${dyntrace_series:-}" ] && [ "$dyntrace_series" -lt "$1" ] || return 0
    if xenhypfs cat /tracing/available_tracers | grep -qw "$2" ||
        xenhypfs cat "/tracing/$2" >/dev/null 2>&1; then
        fail "$2 is here, in a boot of series 1 to $dyntrace_series: series $1 should add it"
    fi
    skip "$2 comes with series $1; this Xen has series 1 to $dyntrace_series only"
}

# xen_cpus: the pCPUs that own a trace buffer (per_cpu/cpuN): every CPU Xen brought up. Where
# per_cpu/ is absent (series 4 adds it), the CPUs trace's header counts (#P:N, the present ones:
# the same on these boots, which bring every CPU up). Use as n=$(xen_cpus) || fail "$n": it
# exits non-zero, with the reason as its output, when it finds neither.
xen_cpus() {
    if xenhypfs ls /tracing/per_cpu >/dev/null 2>&1; then
        xenhypfs ls /tracing/per_cpu | grep -o 'cpu[0-9]*' | wc -l
        return
    fi
    _n=$(xenhypfs cat /tracing/trace | sed -n 's/.*#P:\([0-9]*\).*/\1/p' | head -n1)
    [ -n "$_n" ] || { echo "xen_cpus: neither per_cpu/ nor a '#P:' in trace's header"; return 1; }
    echo "$_n"
}

# The Xen base this dom0 runs on (4.17, 4.20 or staging), written by make-initramfs.sh.
base=$(cat /opt/dyntrace/base 2>/dev/null || echo unknown)

# sysctl_tools_refused: the Debian tools that use sysctl (xen-livepatch,
# xen-hptool, xentrace, xl) speak another interface version than this
# hypervisor, which refuses them (EACCES). Only on staging, whose
# XEN_SYSCTL_INTERFACE_VERSION is newer than Debian 13's 4.20 tools; checked
# for real, so a tool that fails for another reason is not mistaken for it.
sysctl_tools_refused() {
    [ "$base" = staging ] || return 1
    xen-livepatch list >/tmp/lp-probe.out 2>&1 && return 1
    grep -q "Permission denied" /tmp/lp-probe.out
}
SYSCTL_SKIP_REASON="Debian 13's 4.20 tools speak sysctl interface 0x15, staging's is 0x16: the hypervisor refuses them (EACCES)"

# need_sysctl_tools: skip this test when the sysctl tools cannot talk to this hypervisor.
need_sysctl_tools() {
    if sysctl_tools_refused; then skip "$SYSCTL_SKIP_REASON"; fi
}

# LP: the livepatch tool. Debian's xen-livepatch, or where the hypervisor
# refuses it, livepatch-raw: the same commands (upload, apply, revert, unload)
# as raw sysctls built against the tree under test (tests/dom0-tools).
LP=xen-livepatch
if sysctl_tools_refused; then
    LP=livepatch-raw
    echo "(livepatch actions through livepatch-raw: $SYSCTL_SKIP_REASON)"
fi

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
    [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}

# run CMD...: run a command that must succeed, showing it and its output.
run() {
    echo "\$ $*"
    "$@" >/tmp/run.out 2>&1
    rc=$?
    cat /tmp/run.out
    [ "$rc" -eq 0 ] || fail "'$*' exited $rc"
}

# expect_errno ERRNO-TEXT CMD...: the command must fail and print the given error text
# (xenhypfs reports errors with perror, e.g. "No such file or directory").
expect_error() {
    want=$1
    shift
    echo "\$ $*  (must fail: $want)"
    "$@" >/tmp/run.out 2>&1 && { cat /tmp/run.out; fail "'$*' succeeded"; }
    cat /tmp/run.out
    grep -q "$want" /tmp/run.out || fail "'$*' did not report '$want'"
}

payload_dir=/opt/dyntrace/livepatch

# Tracer helpers.
T=/tracing

# headers_ok PATH N HEADER: N back-to-back reads of PATH with a buffer of one
# 12-byte entry header (what xenhypfs reads first) must each fail ENOBUFS with
# exactly HEADER ("content_len=L type=T encoding=E max_write_len=M") filled in.
# Prints hypfs-raw's result.
headers_ok() {
    out=$(hypfs-raw read "$1" 12 "$2")
    echo "$out"
    [ "$out" = "rc=-1 errno=ENOBUFS $3
count ok=0 EBUSY=0 other=$2 changed=0" ]
}

# record_lines FILE: the record lines of a trace (everything but the # header).
record_lines() { grep -v '^#' "$1" | grep -v '^$' || true; }

# count_records FILE FUNC: records whose function is FUNC.
count_records() { record_lines "$1" | grep -c ": $2 <-" || true; }

# check_trace_wellformed FILE: every record line has the ftrace layout and the
# header's entries-in-buffer equals the number of record lines.
check_trace_wellformed() {
    head -n1 "$1" | grep -q '^# tracer: ' || fail "trace does not start with '# tracer:'"
    hdr=$(grep '^# entries-in-buffer/entries-written: ' "$1") || fail "no entries header"
    e=$(echo "$hdr" | sed 's/.*: \([0-9]*\)\/\([0-9]*\) .*/\1/')
    w=$(echo "$hdr" | sed 's/.*: \([0-9]*\)\/\([0-9]*\) .*/\2/')
    n=$(record_lines "$1" | wc -l)
    [ "$e" = "$n" ] || fail "header says $e entries, $n record lines"
    [ "$w" -ge "$e" ] || fail "entries-written $w < entries $e"
    # A function's line, or an event's (series 5: "NAME: FIELDS").
    re='^ *(d[0-9]+v[0-9]+|<idle>) \[[0-9]{3}\] [d.][h.][z.] +[0-9]+\.[0-9]{6}: ([^ ]+ <-[^ ]+|[a-z0-9_]+: .*)$'
    bad=$(record_lines "$1" | grep -vcE "$re" || true)
    [ "$bad" = 0 ] || { record_lines "$1" | grep -vE "$re" | head -3; fail "$bad malformed record lines"; }
}

# tracing_cpumask as this boot started (every CPU): the first test saves it.
[ -f /tmp/cpumask.boot ] || xenhypfs cat $T/tracing_cpumask >/tmp/cpumask.boot 2>/dev/null || true
[ -f /tmp/bufsize.boot ] || xenhypfs cat $T/buffer_size_kb >/tmp/bufsize.boot 2>/dev/null || true

# save_settings FILE: every /tracing setting as "name=value" lines (a value's lines joined by
# spaces), with what is patched (enabled_functions) and error_log. The first test of a boot saves
# them as /tmp/settings.boot: what xen-dyntrace reset must bring back (record/05).
save_settings() {
    for f in current_tracer set_function_filter set_function_notrace set_graph_function \
        set_domain_filter tracing_cpumask tracing_on buffer_size_kb max_graph_depth \
        tracing_thresh options/funcgraph-retval function_profile_enabled set_event enabled_functions \
        error_log; do
        echo "$f=$(xenhypfs cat $T/$f 2>&1 | tr '\n' ' ' | sed 's/ *$//')"
    done >"$1"
}
[ -f /tmp/settings.boot ] || save_settings /tmp/settings.boot

# reset_tracing: back to the boot state (nop, no filter, no trigger, every
# domain and CPU, off, empty, error_log empty, the boot's buffer size), with
# `xen-dyntrace reset`: one process, where xenhypfs takes one per file (the
# tracer suite's tests took 163 s instead of about 190). Should it fail, its
# output is shown and the same is done file by file.
reset_tracing() {
    xen-dyntrace reset -q ${bufsize_boot:+-b "$bufsize_boot"} >/tmp/reset.out 2>&1 &&
        return 0
    echo "reset_tracing: xen-dyntrace reset failed:"
    cat /tmp/reset.out
    reset_tracing_by_file
}
[ -s /tmp/bufsize.boot ] && bufsize_boot=$(cat /tmp/bufsize.boot)

reset_tracing_by_file() {
    xenhypfs write $T/tracing_on 0
    xenhypfs write $T/function_profile_enabled 0
    xenhypfs write $T/set_function_notrace ""
    xenhypfs write $T/set_function_filter ""
    # Triggers stay until removed one by one ("!name:command").
    for trig in $(xenhypfs cat $T/set_function_filter | grep ':'); do
        xenhypfs write $T/set_function_filter "!${trig%:*}"
    done
    xenhypfs write $T/set_domain_filter ""
    xenhypfs write $T/set_event "" 2>/dev/null
    [ -s /tmp/cpumask.boot ] && xenhypfs write $T/tracing_cpumask "$(cat /tmp/cpumask.boot)"
    if [ -s /tmp/bufsize.boot ] && [ "$(xenhypfs cat $T/buffer_size_kb)" != "$(cat /tmp/bufsize.boot)" ]; then
        xenhypfs write $T/buffer_size_kb "$(cat /tmp/bufsize.boot)"
    fi
    xenhypfs write $T/current_tracer nop
    xenhypfs write $T/max_graph_depth 0
    xenhypfs write $T/tracing_thresh 0
    xenhypfs write $T/options/funcgraph-retval 0 2>/dev/null
    xenhypfs write $T/set_graph_function ""
    xenhypfs write $T/function_profile_enabled 0
    xenhypfs write $T/trace ""
    xenhypfs write $T/error_log ""
}

# A known, non-trivial state: function tracer on xen_extra_version, two
# records, recording off.
setup_state() {
    reset_tracing
    xenhypfs write $T/set_function_filter xen_extra_version || fail "setup: filter"
    xenhypfs write $T/current_tracer function || fail "setup: tracer"
    xenhypfs write $T/tracing_on 1 || fail "setup: on"
    cat /sys/hypervisor/version/extra >/dev/null
    cat /sys/hypervisor/version/extra >/dev/null
    xenhypfs write $T/tracing_on 0 || fail "setup: off"
}

# save_state FILE / check_state FILE: everything a bad write must not change.
save_state() {
    {
        echo "tracer=$(xenhypfs cat $T/current_tracer)"
        echo "filter=$(xenhypfs cat $T/set_function_filter | tr '\n' ' ')"
        echo "notrace=$(xenhypfs cat $T/set_function_notrace | tr '\n' ' ')"
        echo "domains=$(xenhypfs cat $T/set_domain_filter)"
        echo "cpumask=$(xenhypfs cat $T/tracing_cpumask)"
        echo "bufsize=$(xenhypfs cat $T/buffer_size_kb) $(xenhypfs cat $T/buffer_total_size_kb)"
        echo "enabled=$(xenhypfs cat $T/enabled_functions | tr '\n' ' ')"
        echo "on=$(xenhypfs cat $T/tracing_on)"
        echo "profile=$(xenhypfs cat $T/function_profile_enabled)"
        echo "graph=$(xenhypfs cat $T/set_graph_function | tr '\n' ' ')"
        echo "events=$(xenhypfs cat $T/set_event 2>/dev/null | tr '\n' ' ')"
        echo "retval=$(xenhypfs cat $T/options/funcgraph-retval 2>/dev/null)"
        xenhypfs cat $T/trace | grep -v '^#'
    } >"$1"
}
check_state() {
    save_state /tmp/state.after
    if ! cmp -s "$1" /tmp/state.after; then
        echo "state before:"; cat "$1"; echo "state after:"; cat /tmp/state.after
        fail "the rejected write changed the state"
    fi
    echo "state unchanged"
}

# bad_write ERRTEXT PATH VALUE: xenhypfs write must fail with ERRTEXT and
# change nothing.
bad_write() {
    save_state /tmp/state.before
    expect_error "$1" xenhypfs write "$2" "$3"
    check_state /tmp/state.before
}

# bad_raw ERRNO PATH HEX: a raw HypFS write must fail with ERRNO, changing nothing.
bad_raw() {
    save_state /tmp/state.before
    echo "\$ hypfs-raw write $2 $3"
    out=$(hypfs-raw write "$2" "$3")
    echo "$out"
    case "$out" in *"errno=$1") ;; *) fail "expected errno=$1" ;; esac
    check_state /tmp/state.before
}

# livepatch_retry ACTION NAME: $LP ACTION NAME (apply, revert or
# another rendezvous action), showing its output. xen-livepatch uses Xen's stock
# 30 ms rendezvous wait, which expires now and then with 4 emulated pCPUs on 2
# host cores; the action then fails EBUSY and changes nothing, so it is retried
# (up to 5 attempts). Any other failure is returned at once.
livepatch_retry() {
    tries=1
    until $LP "$@" >/tmp/lp.out 2>&1; do
        cat /tmp/lp.out
        grep -q "Device or resource busy" /tmp/lp.out || return 1
        [ $tries -lt 5 ] || return 1
        tries=$((tries + 1))
        echo "($LP $*: EBUSY, attempt $tries)"
        sleep 1
    done
    cat /tmp/lp.out
}

# entry_is_untraced: xen_extra_version's entry holds the untraced site bytes
# (checked by livepatch expectations: the xen_dyntrace_expect payload applies;
# it is reverted and unloaded again). An expectation mismatch (EINVAL) fails
# it at once.
entry_is_untraced() {
    $LP upload xen_dyntrace_expect \
        $payload_dir/xen_dyntrace_expect.livepatch >/tmp/lp.out 2>&1 ||
        { cat /tmp/lp.out; return 1; }
    livepatch_retry apply xen_dyntrace_expect ||
        { $LP unload xen_dyntrace_expect >/dev/null 2>&1; return 1; }
    ok=1
    [ "$(cat /sys/hypervisor/version/extra)" = "Hello World" ] || ok=0
    livepatch_retry revert xen_dyntrace_expect || return 1
    $LP unload xen_dyntrace_expect || return 1
    [ $ok = 1 ]
}

# start_toolstack: Debian's xenstored, xen-init-dom0 and xenconsoled, once per
# boot (xl needs them).
start_toolstack() {
    [ ! -f /var/run/xenconsoled.pid ] || return 0
    mkdir -p /var/run/xen /var/run/xenstored /var/lib/xen /var/lib/xenstored \
        /var/log/xen/console /run/xen /var/lock
    run xenstored --pid-file=/var/run/xenstored.pid
    run xen-init-dom0
    run xenconsoled --pid-file=/var/run/xenconsoled.pid --log=guest \
        --log-dir=/var/log/xen/console
}

# start_domu NAME SUITE VCPUS [SECLABEL]: start an unprivileged domU (PV on x86_64, the
# one guest type on Arm) with Debian's toolstack (xenstored, xenconsoled and
# xl, started once per boot), from dom0's own kernel and root file system;
# its /init runs the dom0 test directory SUITE (tests/dom0/SUITE) and ends
# with a line DOMU-DONE.  Its console goes to
# /var/log/xen/console/guest-NAME.log.  SECLABEL: its FLASK label (xl's
# seclabel; the flask suite).  xen_privcmd.unrestricted=1: Linux's privcmd in a
# domU otherwise refuses every raw hypercall itself with EPERM (its
# restriction to a device model's target domain, in Debian 13's 6.12 too), and
# the domU's HypFS calls would never reach Xen's checks that the tests are
# about.
start_domu() {
    start_toolstack
    # The domU's root: this dom0's own, without the pseudo file systems and
    # the domU kernel.
    if [ ! -f /tmp/domu.cpio.gz ]; then
        (cd / && find . -xdev -path ./opt/dyntrace/domu -prune -o -print |
            cpio -o -H newc 2>/dev/null | gzip) >/tmp/domu.cpio.gz
        echo "domU image: $(wc -c </tmp/domu.cpio.gz) bytes"
    fi
    type=pv
    [ "$(uname -m)" = aarch64 ] && type=pvh
    cat >/tmp/$1.cfg <<CFG
name = "$1"
type = "$type"
kernel = "/opt/dyntrace/domu/vmlinuz"
ramdisk = "/tmp/domu.cpio.gz"
extra = "console=hvc0 dyntrace_suite=$2 xen_privcmd.unrestricted=1"
memory = 256
vcpus = $3
on_poweroff = "destroy"
on_crash = "destroy"
CFG
    [ -z "${4:-}" ] || echo "seclabel = \"$4\"" >>/tmp/$1.cfg
    run xl create /tmp/$1.cfg
    run xl list
}

# start_domu_working NAME SUITE VCPUS: start_domu, then wait up to 180 s for the domU's line
# DOMU-WORKING (tests/dom0/domu-work). A domU whose kernel panicked while booting (a guest-side
# failure seen once under a heavily loaded host, before any tracing was set up) is shown,
# destroyed and started once more; a second failure, or a domU that neither works nor panicked,
# fails the test with the head and tail of its console. Sets DOMU_WAITED (seconds waited).
start_domu_working() {
    for attempt in 1 2; do
        [ ! -d /var/log/xen/console ] || : >/var/log/xen/console/guest-$1.log
        start_domu "$1" "$2" "$3"
        DOMU_WAITED=0
        while [ $DOMU_WAITED -lt 180 ] && ! grep -q "DOMU-WORKING" /var/log/xen/console/guest-$1.log 2>/dev/null; do
            grep -q "Kernel panic" /var/log/xen/console/guest-$1.log 2>/dev/null && break
            sleep 1
            DOMU_WAITED=$((DOMU_WAITED + 1))
        done
        grep -q "DOMU-WORKING" /var/log/xen/console/guest-$1.log && return 0
        grep -B2 -A12 "Kernel panic" /var/log/xen/console/guest-$1.log | head -40
        tail -20 /var/log/xen/console/guest-$1.log
        xl destroy "$1" 2>/dev/null || true
        grep -q "Kernel panic" /var/log/xen/console/guest-$1.log 2>/dev/null && [ $attempt = 1 ] || break
        echo "start_domu_working: the domU's kernel panicked while booting: starting it once more"
    done
    fail "the domU $1 did not start working in 180 s"
}

# wait_domu NAME SECONDS: wait for the domU's DOMU-DONE; show its results.
wait_domu() {
    i=0
    while [ $i -lt $2 ] && ! grep -q DOMU-DONE /var/log/xen/console/guest-$1.log 2>/dev/null; do
        sleep 1
        i=$((i + 1))
    done
    tr -d '\r' </var/log/xen/console/guest-$1.log | grep -E 'DOMU-RESULT|DOMU-DONE|DYNTRACE|FAIL' || true
    grep -q DOMU-DONE /var/log/xen/console/guest-$1.log ||
        { tail -30 /var/log/xen/console/guest-$1.log; fail "the domU $1 did not finish in $2 s"; }
}

# domu_hypfs_refused LOG: the results the domU suite tests/dom0/domu printed in
# its console log LOG: every HypFS operation on /tracing refused with EPERM,
# through Debian's xenhypfs (which fails already at opening libxenhypfs, whose
# first hypercall, get_version, is refused) and through raw hypercalls.
# do_hypfs_op() answers any XSM refusal, the dummy module's or FLASK's, with EPERM.
domu_hypfs_refused() {
    for r in xenhypfs-cat-trace xenhypfs-cat-current_tracer xenhypfs-write-tracing_on \
             xenhypfs-write-current_tracer xenhypfs-write-trace; do
        line=$(tr -d '\r' <"$1" | grep "DOMU-RESULT $r ")
        echo "$line" | grep -qE "failed: .*(Operation not permitted|Could not open libxenhypfs)" ||
            fail "$r in the domU: $line"
    done
    for r in raw-get-version raw-read-trace raw-write-tracing_on raw-write-current_tracer; do
        line=$(tr -d '\r' <"$1" | grep "DOMU-RESULT $r ")
        echo "$line" | grep -q "errno=EPERM" || fail "$r in the domU: $line"
    done
}

# graph_run N FILE: clear, N reads of /sys/hypervisor/version/extra with
# tracing on, then the trace into FILE (and shown).
graph_run() {
    xenhypfs write $T/trace "" || fail "clear"
    xenhypfs write $T/tracing_on 1 || fail "on"
    i=0
    while [ $i -lt $1 ]; do cat /sys/hypervisor/version/extra >/dev/null; i=$((i + 1)); done
    xenhypfs write $T/tracing_on 0 || fail "off"
    xenhypfs cat $T/trace >"$2" || fail "reading the trace"
    cat "$2"
}

# graph_nesting FILE: the nesting of a function_graph trace, per stack: every
# "}" must close the call open at its depth with the same name (a "}" whose
# entry the ring already overwrote may only come before any call at or above
# its depth opened on that stack: early_closes; else unopened); no duration is
# negative.  Prints "opens=... misattributed=N negative=N other=N".
graph_nesting() {
    # Calls nest per stack: a pCPU's on x86_64 (a vCPU's frames are abandoned
    # when it is switched out), a vCPU's on arm64 (it keeps them, and may return
    # from them on another pCPU); an idle vCPU never leaves its pCPU.
    per_vcpu=0
    [ "$(uname -m)" = aarch64 ] && per_vcpu=1
    record_lines "$1" | awk -F'|' -v per_vcpu=$per_vcpu '
        NF >= 3 { split($1, a, ")"); cpu = a[1] + 0; d = $2; f = $3
          ctx = a[2]; gsub(/ /, "", ctx)
          if (per_vcpu && ctx != "<idle>") cpu = ctx
          if (d ~ /-/) neg++
          match(f, /^ */); depth = RLENGTH / 2; name = substr(f, RLENGTH + 1)
          if (name ~ /\(\) \{$/) {
              sub(/\(\) \{$/, "", name); opens++
              for (k = depth + 1; k <= 64; k++) delete open[cpu ":" k]
              open[cpu ":" depth] = name
              if (top[cpu] == "" || depth < top[cpu]) top[cpu] = depth
          } else if (name ~ /^\} \/\* /) {
              sub(/^\} \/\* /, "", name); sub(/ \*\/$/, "", name); closes++
              if (open[cpu ":" depth] != "") {
                  if (open[cpu ":" depth] != name) {
                      mis++
                      if (mis < 4) print "misattributed: cpu " cpu " depth " depth " open " open[cpu ":" depth] " closed " name > "/dev/stderr"
                  } else matched++
                  delete open[cpu ":" depth]
              } else if (top[cpu] != "" && top[cpu] <= depth) {
                  orphan++
                  if (orphan < 4) print "unopened: cpu " cpu " depth " depth " " name > "/dev/stderr"
              } else early++
          } else if (name ~ /\(\);$/) leaves++
          else other++ }
        END { printf "opens=%d closes=%d matched=%d leaves=%d early_closes=%d unopened=%d misattributed=%d negative=%d other=%d\n", opens, closes, matched, leaves, early + 0, orphan + 0, mis + 0, neg + 0, other + 0 }'
}

# tracedat_written CAPTURE: export -f trace.dat works in the dom0 too (no library needed): a
# version 6 trace-cmd file, its CPU data page-aligned after the header (trace-cmd itself reads the
# host's export of the same capture: send_to_host, tests/viewers/check-exports.sh).
tracedat_written() {
    local size
    rm -f /tmp/dom0.trace.dat
    xen-dyntrace export -f trace.dat -o /tmp/dom0.trace.dat "$1" 2>/tmp/err.out ||
        { cat /tmp/err.out; fail "export -f trace.dat in the dom0 failed"; }
    head -c 12 /tmp/dom0.trace.dat >/tmp/dom0.magic
    printf '\027\010Dtracing6\0' >/tmp/dom0.want
    cmp -s /tmp/dom0.magic /tmp/dom0.want ||
        fail "the dom0's trace.dat does not begin as a version 6 trace-cmd file"
    size=$(wc -c </tmp/dom0.trace.dat)
    [ $((size % 4096)) = 0 ] && [ "$size" -gt 4096 ] ||
        fail "the dom0's trace.dat is $size bytes: no page-aligned CPU data"
    rm -f /tmp/dom0.trace.dat
}

# send_to_host MARK FILE [WORD...]: FILE through the serial log to make check's host half
# (tests/viewers/check-exports.sh): "MARK-BEGIN name size sha256 lines [WORD...]" (WORDs of
# letters, digits and _=.-), then the lines of its gzip in base64, each as "MARK:N:line", then
# both again, then "MARK-END". The serial line is shared with Xen's console and the dom0 kernel's:
# a message printed meanwhile can split or garble a line, and the host keeps a well-formed
# BEGIN line and, for each N, a well-formed copy (the sha256 judges the whole).
send_to_host() {
    local mark=$1 file=$2 sum size
    shift 2
    sum=$(sha256sum <"$file" | cut -d' ' -f1)
    size=$(wc -c <"$file")
    gzip -c "$file" | base64 >/tmp/send.b64
    begin="$mark-BEGIN ${file##*/} $size $sum $(wc -l </tmp/send.b64)${*:+ $*}"
    for _ in 1 2; do
        echo "$begin"
        awk -v m="$mark" '{ printf "%s:%d:%s\n", m, NR, $0 }' /tmp/send.b64
    done
    echo "$mark-END"
}
