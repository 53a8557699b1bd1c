# HypFS is reachable from dom0 with Debian's xenhypfs.
. /opt/dyntrace/tests/lib.sh
run xenhypfs ls /
grep -q 'buildinfo' /tmp/run.out || fail "/buildinfo missing from 'xenhypfs ls /'"
run xenhypfs cat /buildinfo/version/major
