# A domain with neither HypFS access nor the livepatch operation (domU_t, the default policy's
# label of a domU) gets nothing: the domU suite of tests/dom0/privilege runs in it and gets EPERM
# for every HypFS operation (do_hypfs_op() returns EPERM for any XSM refusal), each a denial of
# FLASK's that Xen logs (avc: denied { hypfs_op }); dom0's state is unchanged.
. /opt/dyntrace/tests/lib.sh
setup_state
save_state /tmp/state.before

start_domu neither domu 1
run xl list -Z
grep -E '^neither .*system_u:system_r:domU_t' /tmp/run.out || fail "the domU is not labelled domU_t"
log=/var/log/xen/console/guest-neither.log
domid=$(xl domid neither)
wait_domu neither 180
xl destroy neither 2>/dev/null || true

domu_hypfs_refused $log
# The refusals are FLASK's: Xen logged them.
n=$(xl dmesg | grep -c "avc:  denied  { hypfs_op } for current=d$domid scontext=system_u:system_r:domU_t ")
echo "FLASK denials of hypfs_op to d$domid: $n"
[ "$n" -ge 1 ] || fail "Xen logged no FLASK denial of hypfs_op to the domU"
check_state /tmp/state.before
reset_tracing
