# Runs inside the domU that privilege/02 starts (not in dom0): work for the
# domain filter to see.  One loop of xen_version hypercalls (reads of
# /sys/hypervisor/version/extra) pinned to each vCPU, for 90 seconds,
# then "DOMU-DONE".
seconds=90
n=$(nproc)
echo "DOMU-RESULT work vcpus=$n seconds=$seconds"
v=0
while [ $v -lt "$n" ]; do
    taskset -c $v sh -c "end=\$((\$(date +%s) + $seconds)); while [ \$(date +%s) -lt \$end ]; do cat /sys/hypervisor/version/extra >/dev/null; done" &
    v=$((v + 1))
done
wait
echo "DOMU-DONE"
