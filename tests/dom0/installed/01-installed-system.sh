# The boot of the system make deb's packages were installed into with apt (tests/packages/): Xen
# is the package's /boot/xen-4.20-amd64-dyntrace.gz (4.20), built from Debian 13's configuration with the
# tracer; the kernel and its modules are Debian 13's, installed in the same root; xen-dyntrace is
# the file dpkg unpacked, byte for byte (the md5sums dpkg recorded from the package).
. /opt/dyntrace/tests/lib.sh
[ -f /opt/dyntrace/xen-dyntrace.md5sums ] || fail "no md5sums of the installed package: not the installed system's image"
echo "\$ md5sum -c (the xen-dyntrace package's md5sums)"
(cd / && md5sum -c /opt/dyntrace/xen-dyntrace.md5sums 2>&1 | grep -E 'usr/(sbin|share/man)/') >/tmp/md5.out
cat /tmp/md5.out
expect_eq "files of the package checked" 2 "$(grep -c ': OK$' /tmp/md5.out)"
run xen-dyntrace --version
run uname -r
echo "Xen $(cat /sys/hypervisor/version/major).$(cat /sys/hypervisor/version/minor)$(cat /sys/hypervisor/version/extra)"
expect_eq "Xen's version" 4.20 "$(cat /sys/hypervisor/version/major).$(cat /sys/hypervisor/version/minor)"
xenhypfs cat /buildinfo/config >/tmp/config || fail "reading Xen's configuration"
for o in CONFIG_LIVEPATCH_TRACER=y CONFIG_X86_PATCHABLE_FUNCTION_ENTRY=y CONFIG_XEN_SHSTK=y CONFIG_XEN_IBT=y; do
    grep -qx "$o" /tmp/config || fail "Xen's configuration lacks $o"
done
echo "Xen's configuration: the tracer's options and Debian's (shadow stacks, IBT)"
