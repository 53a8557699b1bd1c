# Helpers for the end-to-end tests that run in dom0 (busybox sh). Source it.
# A test is a script that exits 0 when every check passed; fail() stops it with a message.

fail() {
    echo "FAIL: $*"
    exit 1
}

note() { echo "$*"; }

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
