#!/usr/bin/env bash
# make-initramfs.sh ARCH: build the dom0 initramfs: busybox, the Xen kernel modules, Debian's Xen
# tools (xenhypfs, xen-livepatch, xen-hptool, xentrace) with exactly the libraries they need, our
# dom0 /init, the end-to-end test scripts and Xen's livepatch test payloads from our build.
# Writes BUILD_DIR/ARCH/initramfs.cpio.gz and BUILD_DIR/ARCH/vmlinuz; prints the directory.
# INSTALLED_ROOT: a Debian root where make deb's packages and a kernel were installed with apt
# (tests/packages/): the kernel, its modules and xen-dyntrace come from there instead (the rest,
# busybox and Debian's Xen tools, from the dom0 packages as always); no livepatch payloads.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: make-initramfs.sh ARCH}
check_arch "$arch"
pkgroot=$("$REPO_ROOT/scripts/fetch-dom0-packages.sh" "$arch")
out=$BUILD_DIR/$arch
payloads=$out/out/livepatch
stage=$out/initramfs
case "$arch" in
x86_64) triplet=x86_64-linux-gnu ;;
arm64) triplet=aarch64-linux-gnu ;;
esac

rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib/modules,lib/$triplet,proc,sys,dev,tmp,run,var/run,var/log,opt/dyntrace}

bb=$pkgroot/bin/busybox
[ -f "$bb" ] || bb=$pkgroot/usr/bin/busybox
install -m 0755 "$bb" "$stage/bin/busybox"

# Debian 13 is usr-merged: modules and libraries live under usr/ only.
kroot=${INSTALLED_ROOT:-$pkgroot}
moddir=$kroot/lib/modules
[ -d "$moddir" ] || moddir=$kroot/usr/lib/modules
kver=$(basename "$(ls -d "$moddir"/*/ | head -n1)")
modules=(xen-evtchn xen-privcmd xenfs)
# What the privilege test needs to start an unprivileged domU with Xen's toolstack.
modules+=(xen-gntdev)
for m in "${modules[@]}"; do
    ko=$(find "$moddir/$kver" -name "$m.ko*" | head -n1)
    [ -n "$ko" ] || die "module $m not found in $kver"
    # busybox insmod takes uncompressed modules only.
    case "$ko" in
    *.ko.xz) xz -dc "$ko" >"$stage/lib/modules/$m.ko" ;;
    *) cp "$ko" "$stage/lib/modules/$m.ko" ;;
    esac
done
cp "$kroot/boot/vmlinuz-$kver" "$out/vmlinuz"
# The same kernel for the privilege test's domU.
mkdir -p "$stage/opt/dyntrace/domu"
cp "$out/vmlinuz" "$stage/opt/dyntrace/domu/vmlinuz"

# Tools, linked under their usual names. Debian builds xen-hptool for x86 only.
bin=usr/lib/xen-$(dom0_tools_minor "$XEN_BASE")/bin
tools=(usr/sbin/xenhypfs $bin/xen-livepatch $bin/xentrace)
[ "$arch" = x86_64 ] && tools+=($bin/xen-hptool)
# The toolstack for the privilege test (a domU booted from dom0's own kernel and image).
tools+=($bin/xl $bin/xenstored $bin/xenconsoled $bin/xen-init-dom0)
for t in "${tools[@]}"; do
    mkdir -p "$stage/$(dirname "$t")"
    cp "$pkgroot/$t" "$stage/$t"
    [ "$t" = usr/sbin/xenhypfs ] || ln -sf "/$t" "$stage/usr/sbin/$(basename "$t")"
done

# Libraries: follow DT_NEEDED from the tools, resolved inside the unpacked packages.
libdirs=("$pkgroot/lib/$triplet" "$pkgroot/usr/lib/$triplet")
find_lib() {
    local d
    for d in "${libdirs[@]}"; do
        [ -e "$d/$1" ] && { echo "$d/$1"; return 0; }
    done
    return 1
}
declare -A seen=()
queue=()
for t in "${tools[@]}"; do queue+=("$pkgroot/$t"); done
while [ "${#queue[@]}" -gt 0 ]; do
    f=${queue[0]}
    queue=("${queue[@]:1}")
    for n in $(readelf -d "$f" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
        [ -n "${seen[$n]:-}" ] && continue
        seen[$n]=1
        lib=$(find_lib "$n") || die "library $n (needed by ${f#"$pkgroot"/}) not in the dom0 packages"
        cp -L "$lib" "$stage/lib/$triplet/$n"
        queue+=("$lib")
    done
done
# xl cancels threads, for which glibc loads libgcc_s at run time (not a DT_NEEDED).
cp -L "$(find_lib libgcc_s.so.1)" "$stage/lib/$triplet/libgcc_s.so.1"
mkdir -p "$stage/etc/xen"
: >"$stage/etc/xen/xl.conf"
# The dynamic loader, at the path the binaries name.
interp=$(readelf -l "$pkgroot/usr/sbin/xenhypfs" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
mkdir -p "$stage/$(dirname "$interp")"
cp -L "$(find_lib "$(basename "$interp")")" "$stage/$interp"

# Our dom0 side: /init, the test suites, Xen's livepatch payloads.
install -m 0755 "$REPO_ROOT/dom0/init" "$stage/init"
cp -r "$REPO_ROOT/tests/dom0" "$stage/opt/dyntrace/tests"
if [ -d "$payloads" ]; then
    cp -r "$payloads" "$stage/opt/dyntrace/livepatch"
fi
# Our dom0 test tools: static binaries for the guest's architecture.
case "$arch" in
x86_64) cc=gcc ;;
arm64) cc=aarch64-linux-gnu-gcc ;;
esac
mkdir -p "$out/dom0-bin" "$stage/opt/dyntrace/bin"
public=$out/xen/xen/include/public/sysctl.h
[ -f "$public" ] || die "$public missing: prepare the tree first"
for src in "$REPO_ROOT"/tests/dom0-tools/*.c; do
    bin=$out/dom0-bin/$(basename "$src" .c)
    # Against the public headers of the tree under test (livepatch-raw speaks its sysctl).
    if [ ! -x "$bin" ] || [ "$src" -nt "$bin" ] || [ "$public" -nt "$bin" ] ||
        [ "$(dirname "$public")/dyntrace.h" -nt "$bin" ]; then
        $cc -Wall -Wextra -Werror -O2 -static -D__XEN_TOOLS__ -I "$out/xen/xen/include" \
            -o "$bin" "$src" || die "building $src failed"
    fi
    cp "$bin" "$stage/opt/dyntrace/bin/"
done
# xen-dyntrace, the dom0 command: against the dom0's own libxenhypfs and headers (libxen-dev of
# the base's Xen version). The host's C library is older than the dom0's, so the libraries' own
# dependencies are left for the dom0's loader to resolve (--allow-shlib-undefined).
libdir=$pkgroot/usr/lib/$triplet
if [ -n "${INSTALLED_ROOT:-}" ]; then
    # The package's files, and its md5sums to check them against in dom0 (tests/dom0/installed).
    for f in usr/sbin/xen-dyntrace usr/share/man/man1/xen-dyntrace.1.gz; do
        install -D "$INSTALLED_ROOT/$f" "$stage/$f"
    done
    cp "$INSTALLED_ROOT/var/lib/dpkg/info/xen-dyntrace.md5sums" "$stage/opt/dyntrace/xen-dyntrace.md5sums"
else
    # The same variables for the build and the install (other flags would rebuild it).
    tool_make=(make -s -C "$REPO_ROOT/tools/misc/xen-dyntrace" O="$out/xen-dyntrace" CC="$cc"
        HYPFS_CFLAGS="-I$pkgroot/usr/include" HYPFS_LIBS="-L$libdir -lxenhypfs"
        LDFLAGS="-Wl,--allow-shlib-undefined -Wl,-rpath-link,$libdir:$pkgroot/lib/$triplet")
    "${tool_make[@]}" || die "building xen-dyntrace failed"
    "${tool_make[@]}" DESTDIR="$stage" install >/dev/null || die "installing xen-dyntrace failed"
fi
echo "$arch" >"$stage/opt/dyntrace/arch"
# Which Xen the tests run on, and what the dom0 tools can do there (tests/dom0/lib.sh).
echo "$XEN_BASE" >"$stage/opt/dyntrace/base"

(cd "$stage" && find . -print0 | sort -z | cpio --null -o -H newc --quiet -R 0:0) |
    gzip -1 >"$out/initramfs.cpio.gz.new"
mv "$out/initramfs.cpio.gz.new" "$out/initramfs.cpio.gz"
echo "$out"
