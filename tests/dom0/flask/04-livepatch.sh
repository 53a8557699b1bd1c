# xen-livepatch under the FLASK policy (smoke/04): dom0 uploads, applies, reverts and unloads
# Xen's own xen_hello_world payload.
. /opt/dyntrace/tests/smoke/04-livepatch-hello-world.sh
