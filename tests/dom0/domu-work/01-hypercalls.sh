# Runs inside the domU that scope/01 starts (not in dom0): work for the
# domain filter to see.  On each vCPU (taskset), a loop of xen_version
# hypercalls: a read of /sys/hypervisor/version/extra every 100 ms, enough
# to be seen without starving dom0 under emulation.  It runs until dom0
# destroys the domU.  The start is announced on the console at once
# ("DOMU-WORKING"): the suite runner shows a test's output only when it ends.
n=$(nproc)
cat /sys/hypervisor/version/extra >/dev/null || echo "DOMU-WORKING failed: cannot read /sys/hypervisor/version/extra" >/dev/console
v=0
while [ $v -lt "$n" ]; do
    taskset -c $v sh -c 'while :; do cat /sys/hypervisor/version/extra >/dev/null; usleep 100000; done' &
    v=$((v + 1))
done
echo "DOMU-WORKING vcpus=$n" >/dev/console
wait
