# TAP collection for dom0 suites. Source it.
# shellcheck shell=bash

# collect_tap ARCH SUITE LOG EXPECTED VERDICT: print the suite's results as lines
# "ok ARCH/SUITE/TEST ..." or "not ok ...", read from the serial LOG between the suite's markers.
# Tests that did not report (EXPECTED minus reported) and a crash (VERDICT 2) are failures.
collect_tap() {
    local arch=$1 suite=$2 log_file=$3 expected=$4 verdict=$5 tap got
    tap=$(tr -d '\r' <"$log_file" |
        sed -n "/DYNTRACE: suite $suite begin/,/DYNTRACE: suite $suite end/p" |
        grep -E '^(not ok|ok) [0-9]+ - ' || true)
    echo "# $arch $suite (boot verdict $verdict)"
    [ -n "$tap" ] && echo "$tap" | sed -E "s#^(not ok|ok) [0-9]+ - #\1 $arch/#"
    got=0
    [ -n "$tap" ] && got=$(echo "$tap" | wc -l)
    while [ "$got" -lt "$expected" ]; do
        got=$((got + 1))
        echo "not ok $arch/$suite: test result $got missing (boot verdict $verdict)"
    done
    if [ "$verdict" -eq 2 ]; then echo "not ok $arch/$suite: the machine crashed"; fi
    return 0
}

# boot_sites_tap NAME LOG: one TAP line on the boot's conversion of the patch sites: every site
# the compiler left (gcc's five one-byte NOPs or clang's one 5-byte NOP; arm64's two NOPs) must have
# been rewritten, i.e. Xen's line "dyntrace: N of M sites made ..." has N = M > 0.
boot_sites_tap() {
    local line n m
    line=$(tr -d '\r' <"$2" | grep -oE 'dyntrace: [0-9]+ of [0-9]+ sites made .*' | head -n1 || true)
    if [ -z "$line" ]; then
        echo "not ok $1: no line \"dyntrace: N of M sites made ...\" in the boot log"
        return 0
    fi
    read -r n m < <(echo "$line" | sed -E 's/^dyntrace: ([0-9]+) of ([0-9]+) .*/\1 \2/')
    if [ "$n" = "$m" ] && [ "$m" -gt 0 ]; then
        echo "ok $1 (${line#dyntrace: })"
    else
        echo "not ok $1: only ${line#dyntrace: }"
    fi
}

# tap_failure_details LOG SUITE: the "# " output of each failed test, for the reader.
tap_failure_details() {
    tr -d '\r' <"$1" | sed -n "/DYNTRACE: suite $2 begin/,/DYNTRACE: suite $2 end/p" |
        awk '/^# /{buf = buf $0 "\n"; next}
             /^not ok/{printf "%s", buf; print; buf=""; next}
             /^ok /{buf=""}'
}

# summarize DIR: count the result lines of every DIR/*.tap; print "N passed, N failed, N skipped"
# (a skip is an "ok ... # SKIP reason" line, listed with its reason before the count).
# Returns non-zero when anything failed or nothing passed.
summarize() {
    local passed failed skipped
    skipped=$(cat "$1"/*.tap 2>/dev/null | grep -c '^ok .*# SKIP' || true)
    passed=$(cat "$1"/*.tap 2>/dev/null | grep '^ok ' | grep -vc '# SKIP' || true)
    failed=$(cat "$1"/*.tap 2>/dev/null | grep -c '^not ok ' || true)
    if [ "$skipped" -gt 0 ]; then
        echo "skipped:"
        cat "$1"/*.tap | grep '^ok .*# SKIP' | sed 's/^ok /  /'
    fi
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

# The serial log LOG less the call traces a test provokes on purpose (tracer/02: the WARN of
# the xen_dyntrace_warn test payload): its "Xen call trace:" line and the frames after it. What
# the crash checks read.
log_without_test_warns() { # LOG
    awk '/Xen WARN at .*xen_dyntrace_warn\.c/ { w = 1 }
         w && /Xen call trace:/ { t = 1; next }
         w && t && !/\[</ { w = 0; t = 0 }
         !(w && t)' "$1"
}

# Did dom0's Linux die of an int3 of its own text patching (a PV kernel RIP), with no crash of
# Xen's in the serial log LOG?  tests/run-dom0-suite.sh boots such a suite again.
dom0_int3() { # LOG
    grep -q 'Oops: int3' "$1" && grep -q 'RIP: e030:' "$1" &&
        ! log_without_test_warns "$1" |
        grep -Eq 'Panic on CPU|FATAL TRAP|Xen BUG at|Assertion .* failed at|Xen call trace' 
}
