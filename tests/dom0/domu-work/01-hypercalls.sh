# Runs inside the domU that scope/01 starts (not in dom0): work for the
# domain filter to see.  One loop of xen_version hypercalls (reads of
# /sys/hypervisor/version/extra, 20 ms apart: enough to be seen, without
# starving dom0) pinned to each vCPU, for up to 600 s (dom0
# destroys the domU when it is done).  The start is announced on the console
# at once ("DOMU-WORKING"): the suite runner shows a test's output only when
# it ends.
seconds=600
n=$(nproc)
cat /sys/hypervisor/version/extra >/dev/null || echo "DOMU-RESULT work cannot read /sys/hypervisor/version/extra"
v=0
while [ $v -lt "$n" ]; do
    taskset -c $v sh -c "end=\$((\$(date +%s) + $seconds)); i=0
        while [ \$(date +%s) -lt \$end ]; do cat /sys/hypervisor/version/extra >/dev/null; i=\$((i + 1)); usleep 20000; done
        echo \"DOMU-RESULT vcpu $v: \$i reads\"" &
    v=$((v + 1))
done
echo "DOMU-WORKING vcpus=$n" >/dev/console
wait
echo "DOMU-DONE"
