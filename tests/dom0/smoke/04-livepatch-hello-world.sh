# Xen's own xen_hello_world payload (built from the same tree) loads, applies, reverts, unloads.
. /opt/dyntrace/tests/lib.sh
need_sysctl_tools
p=$payload_dir/xen_hello_world.livepatch
[ -f "$p" ] || fail "payload $p missing"
before=$(cat /sys/hypervisor/version/extra)
note "extra before: '$before'"
run xen-livepatch upload xen_hello_world "$p"
run livepatch_retry apply xen_hello_world
applied=$(cat /sys/hypervisor/version/extra)
note "extra applied: '$applied'"
[ "$applied" != "$before" ] || fail "applying did not change version/extra"
expect_eq "extra while applied" "Hello World" "$applied"
run livepatch_retry revert xen_hello_world
expect_eq "extra after revert" "$before" "$(cat /sys/hypervisor/version/extra)"
run xen-livepatch unload xen_hello_world
xen-livepatch list >/tmp/list 2>&1
cat /tmp/list
grep -q xen_hello_world /tmp/list && fail "payload still listed after unload"
exit 0
