# xen-livepatch talks to the hypervisor.
. /opt/dyntrace/tests/lib.sh
run xen-livepatch list
