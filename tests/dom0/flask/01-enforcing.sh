# The boot is under FLASK, enforcing, with the default policy (scripts/build-flask-policy.sh):
# Xen says so at boot, xl getenforce says Enforcing, and dom0 is labelled dom0_t.
. /opt/dyntrace/tests/lib.sh
start_toolstack
run xl dmesg
grep -q "Flask:  Starting in enforcing mode" /tmp/run.out || fail "Xen did not start FLASK enforcing"
grep -Ei "FLASK: (Denying|Allowing) unknown|not defined in policy" /tmp/run.out &&
    fail "the policy does not know every class and permission of this Xen"
# xl getenforce exits with the mode it prints (1: enforcing; xl_flask.c returns it as is).
echo "\$ xl getenforce"
mode=$(xl getenforce 2>&1)
rc=$?
echo "$mode (exit $rc)"
expect_eq "xl getenforce" "Enforcing 1" "$mode $rc"
run xl list -Z
grep -E '^Domain-0 .*system_u:system_r:dom0_t' /tmp/run.out || fail "dom0 is not labelled dom0_t"
exit 0
