#!/bin/sh
# run-suite.sh SUITE: run every test of tests/dom0/SUITE/ (sorted by name) in this dom0 and print
# TAP between two markers that the host looks for in the serial log. A test passes when it exits 0,
# is skipped when it exits 77 (after printing "SKIP: reason"); what it prints is shown as TAP
# comments.
suite=$1
dir=/opt/dyntrace/tests/$suite
if [ ! -d "$dir" ]; then
    echo "DYNTRACE: suite $suite begin"
    echo "1..1"
    echo "not ok 1 - $suite: no such suite"
    echo "DYNTRACE: suite $suite end"
    exit 0
fi
tests=$(ls "$dir" | grep '\.sh$' | sort)
n=$(echo "$tests" | grep -c .)
echo "DYNTRACE: suite $suite begin"
echo "1..$n"
i=0
for t in $tests; do
    i=$((i + 1))
    name=${t%.sh}
    start=$(date +%s)
    timeout "${DYNTRACE_TEST_TIMEOUT:-$((${dyntrace_stress_seconds:-0} + ${dyntrace_fuzz_seconds:-0} + 600))}" sh "$dir/$t" >/tmp/test.out 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    sed 's/^/# /' /tmp/test.out
    if [ "$rc" -eq 0 ]; then
        echo "ok $i - $suite/$name (${secs}s)"
    elif [ "$rc" -eq 77 ]; then
        echo "ok $i - $suite/$name # SKIP $(sed -n 's/^SKIP: //p' /tmp/test.out | tail -n1)"
    else
        echo "not ok $i - $suite/$name (exit $rc, ${secs}s)"
    fi
done
echo "DYNTRACE: suite $suite end"
