#!/usr/bin/env bash
# Host test of the harness itself: TAP collection from a serial log must count interleaved
# hypervisor lines out, missing results and crashes in, and the summary must fail on them.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib/tap.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=0 bad=0
check() { # NAME EXPECTED ACTUAL
    n=$((n + 1))
    if [ "$2" = "$3" ]; then echo "ok $n - $1"; else echo "not ok $n - $1: expected '$2', got '$3'"; bad=1; fi
}

printf '%s\r\n' "(XEN) boot" "DYNTRACE: suite s begin" "1..3" "# out" "ok 1 - s/a (1s)" \
    "(XEN) livepatch: applied" "# why b failed" "not ok 2 - s/b (exit 1, 2s)" "ok 3 - s/c (0s)" "DYNTRACE: suite s end" \
    "ok 9 - after the end marker" >"$t/log"
collect_tap x s "$t/log" 3 0 >"$t/r1.tap"
check "passed lines" 2 "$(grep -c '^ok ' "$t/r1.tap")"
check "failed lines" 1 "$(grep -c '^not ok ' "$t/r1.tap")"
check "names carry the arch" "ok x/s/a (1s)" "$(grep -m1 '^ok ' "$t/r1.tap")"
check "failure details" "# why b failed" "$(tap_failure_details "$t/log" s | head -n1)"

printf '%s\n' "DYNTRACE: suite s begin" "1..3" "ok 1 - s/a" "(XEN) Panic on CPU 0:" >"$t/log2"
collect_tap x s "$t/log2" 3 2 >"$t/r2.tap"
check "missing results and crash are failures" 3 "$(grep -c '^not ok ' "$t/r2.tap")"

# dom0's own int3 (booted again), told apart from Xen's crashes and from other dom0 crashes.
printf '%s\n' "[    3.2] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI" "[    3.2] RIP: e030:sched_clock_cpu+0x9/0x1d0" \
    "[    3.2] Kernel panic - not syncing: Fatal exception in interrupt" >"$t/int3"
check "dom0's own int3 is booted again" 0 "$(dom0_int3 "$t/int3"; echo $?)"
{ cat "$t/int3"; echo "(XEN) Xen call trace:"; } >"$t/int3x"
check "not with a Xen crash beside it" 1 "$(dom0_int3 "$t/int3x"; echo $?)"
printf '%s\n' "[    9.1] BUG: kernel NULL pointer dereference" "[    9.1] Oops: 0000 [#1] SMP" "[    9.1] RIP: e030:f+0x1/0x2" >"$t/null"
check "nor another dom0 crash" 1 "$(dom0_int3 "$t/null"; echo $?)"

mkdir "$t/d1" "$t/d2" "$t/d3"
cp "$t/r1.tap" "$t/d1/"
check "summary with a failure" "2 passed, 1 failed, 0 skipped/1" "$(summarize "$t/d1")/$(summarize "$t/d1" >/dev/null; echo $?)"
grep '^ok ' "$t/r1.tap" >"$t/d2/ok.tap"
check "summary all passed" "2 passed, 0 failed, 0 skipped/0" "$(summarize "$t/d2")/$(summarize "$t/d2" >/dev/null; echo $?)"
check "summary of nothing fails" "0 passed, 0 failed, 0 skipped/1" "$(summarize "$t/d3")/$(summarize "$t/d3" >/dev/null; echo $?)"
mkdir "$t/d4" "$t/d5"
cp "$t/d2/ok.tap" "$t/d4/"
echo "ok 4.20/x/s/d # SKIP the tool is refused" >"$t/d4/skip.tap"
check "a skip is counted apart, with its reason" "skipped:|  4.20/x/s/d # SKIP the tool is refused|2 passed, 0 failed, 1 skipped/0" \
    "$(summarize "$t/d4" | tr '\n' '|' | sed 's/|$//')/$(summarize "$t/d4" >/dev/null; echo $?)"
echo "ok 4.20/x/s/d # SKIP the tool is refused" >"$t/d5/skip.tap"
check "skips alone do not pass" "1" "$(summarize "$t/d5" >/dev/null; echo $?)"
printf '%s\r\n' "(XEN) dyntrace: 3270 traceable functions" "(XEN) dyntrace: 3270 of 3270 sites made one NOP" >"$t/sites1"
check "boot-sites: every site converted" "ok b/boot-sites (3270 of 3270 sites made one NOP)" "$(boot_sites_tap b/boot-sites "$t/sites1")"
printf '%s\n' "(XEN) dyntrace: 3269 of 3270 sites made one NOP" >"$t/sites2"
check "boot-sites: a site left as the compiler made it fails" "not ok" "$(boot_sites_tap b "$t/sites2" | cut -c1-6)"
printf '%s\n' "(XEN) dyntrace: 0 of 0 sites made one NOP" >"$t/sites3"
check "boot-sites: no sites at all fails" "not ok" "$(boot_sites_tap b "$t/sites3" | cut -c1-6)"
check "boot-sites: no line fails" "not ok" "$(boot_sites_tap b "$t/log2" | cut -c1-6)"
exit $bad
