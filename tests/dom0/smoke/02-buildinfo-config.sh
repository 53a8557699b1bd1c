# The running hypervisor was built with Livepatch and HypFS.
. /opt/dyntrace/tests/lib.sh
xenhypfs cat /buildinfo/config >/tmp/config || fail "cannot read /buildinfo/config"
for opt in CONFIG_LIVEPATCH=y CONFIG_HYPFS=y; do
    grep -qx "$opt" /tmp/config || fail "$opt not in /buildinfo/config"
    echo "found $opt"
done
