# xen-livepatch talks to the hypervisor.
. /opt/dyntrace/tests/lib.sh
need_sysctl_tools
run xen-livepatch list
