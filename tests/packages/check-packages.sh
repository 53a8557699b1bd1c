#!/usr/bin/env bash
# check-packages.sh: the Debian 13 packages of make deb, checked as a Debian 13 operator would meet
# them; prints TAP (make check runs it once 4.20 is built for both architectures).
#   packages/build            make deb for amd64 and arm64: xen-dyntrace, the hypervisor, its -dbg
#   packages/lintian          Debian's lintian on every package: no error, no warning (its
#                             output is shown whole, info tags included)
#   packages/apt-install-amd64  apt installs the amd64 packages into a fresh Debian 13 root made by
#                             debootstrap (scripts/make-debian-root.sh), fetching their real
#                             dependencies; each file is where Debian's layout puts it, the tool
#                             runs there, Debian's hypervisor naming is kept
#   packages/boot-image-amd64  (with BOOT_BUILD_DIR) apt installs Debian 13's kernel there too, and
#                             the boot of that installed system is made in BOOT_BUILD_DIR/x86_64:
#                             Xen from the root's /boot, the kernel from its /boot, the modules
#                             from its /usr/lib/modules, the installed xen-dyntrace (make-initramfs.sh
#                             INSTALLED_ROOT=); the suite "installed" boots it (tests/suites, 4.20+deb)
#   packages/apt-remove-amd64   apt purges them: nothing of them is left
#   packages/apt-install-arm64  the same for arm64, as a foreign architecture of that root
#   packages/apt-remove-arm64
set -euo pipefail
export XEN_BASE=4.20 CLANG=0 FLASK=0 SERIES=
. "$(dirname "$0")/../../scripts/lib/common.sh"

n=0
ok() { n=$((n + 1)); echo "ok $n - packages/$1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - packages/$1"; }
show() { sed 's/^/# /' "$@"; }
debdir=$BUILD_DIR/deb
root=$BUILD_DIR/debian-root

rm -rf "$debdir"
built=1
for arch in x86_64 arm64; do
    if ! "$REPO_ROOT/scripts/make-deb.sh" "$arch" >"$BUILD_DIR/make-deb-$arch.log" 2>&1; then
        show "$BUILD_DIR/make-deb-$arch.log"
        built=0
    fi
done
if [ $built = 1 ]; then
    ok "build: $(cd "$debdir" && ls -- *.deb | tr '\n' ' ')"
else
    not_ok "build: make deb failed"
    exit 1
fi

if lintian --fail-on error,warning --tag-display-limit 0 -I "$debdir"/*.deb >"$debdir/lintian.log" 2>&1; then
    grep -v 'running with root privileges' "$debdir/lintian.log" | show || true
    ok "lintian: $(lintian --version): no error, no warning on $(ls "$debdir"/*.deb | wc -l) packages ($(grep -c '^[IP]: ' "$debdir/lintian.log" || true) info tags)"
else
    show "$debdir/lintian.log"
    not_ok "lintian: errors or warnings (above)"
fi

if ! "$REPO_ROOT/scripts/make-debian-root.sh" "$root" >"$BUILD_DIR/debian-root.log" 2>&1; then
    show "$BUILD_DIR/debian-root.log"
    not_ok "apt-install-amd64: no Debian 13 root (scripts/make-debian-root.sh failed)"
    exit 1
fi
cleanup() { umount -l "$root/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$root/proc"
mkdir -p "$root/tmp/debs"
cp "$debdir"/*.deb "$root/tmp/debs/"
if ! chroot "$root" apt-get -q update >"$root.apt-update.log" 2>&1; then
    show "$root.apt-update.log"
    not_ok "apt-install-amd64: apt-get update in the Debian 13 root failed"
    exit 1
fi

# in_root CMD...: run CMD in the root, its output into /tmp/pkg-out (shown by the caller).
in_root() { chroot "$root" "$@" >/tmp/pkg-out 2>&1; }

# boot_image DIR: Debian 13's kernel installed with apt into the root (the dom0 tests' own kernel
# package, from the cache), then DIR/{out/xen,vmlinuz,initramfs.cpio.gz} made from the root.
boot_image() {
    local dir=$1 kdeb
    kdeb=$(ls "$CACHE_DIR/dom0/$(dom0_suite 4.20)/x86_64/debs/"linux-image-*.deb | head -n1)
    # By its file; and in apt's own cache too, where apt takes it from rather than download it
    # again while the archive still has that version.
    cp "$kdeb" "$root/var/cache/apt/archives/"
    cp "$kdeb" "$root/tmp/debs/"
    kpkg=/tmp/debs/$(basename "$kdeb")
    echo "# \$ apt-get install --no-install-recommends $kpkg"
    # No initramfs: dom0 boots the test image (INITRD=No skips the kernel's initramfs hook).
    if ! in_root env DEBIAN_FRONTEND=noninteractive INITRD=No apt-get install -y -q -o Dpkg::Use-Pty=0 \
        --no-install-recommends "$kpkg"; then
        show /tmp/pkg-out
        not_ok "boot-image-amd64: apt could not install the kernel"
        return
    fi
    show /tmp/pkg-out
    rm -rf "$dir"
    mkdir -p "$dir/out"
    # The dom0 test programs build against the public headers of the tree the package came from.
    ln -s "$BUILD_DIR/x86_64/xen" "$dir/xen"
    zcat "$root/boot/xen-4.20-amd64-dyntrace.gz" >"$dir/out/xen"
    # Xen's livepatch test payloads of the build the package was made from (the tests check entry
    # bytes with one; a payload loads only on the Xen of its build id).
    cmp -s "$dir/out/xen" "$BUILD_DIR/x86_64/out/xen" && cp -r "$BUILD_DIR/x86_64/out/livepatch" "$dir/out/"
    cp "$root/boot/xen-4.20-amd64-dyntrace.config" "$dir/out/.config"
    if INSTALLED_ROOT=$root BUILD_DIR=$(dirname "$dir") "$REPO_ROOT/scripts/make-initramfs.sh" x86_64 \
        >"$dir.image.log" 2>&1; then
        ok "boot-image-amd64: Xen $(zcat "$root/boot/xen-4.20-amd64-dyntrace.gz" | wc -c) bytes from /boot/xen-4.20-amd64-dyntrace.gz, kernel $(cd "$root/boot" && ls vmlinuz-*), the installed /usr/sbin/xen-dyntrace"
    else
        show "$dir.image.log"
        rm -f "$dir/initramfs.cpio.gz"
        not_ok "boot-image-amd64: the dom0 image of the installed system failed"
    fi
}

for darch in amd64 arm64; do
    hv=xen-hypervisor-4.20-dyntrace-$darch
    image=/boot/xen-4.20-$darch-dyntrace
    [ $darch = amd64 ] && image=$image.gz
    # The packages, as paths in the root.
    mapfile -t debs < <(cd "$root" && for d in tmp/debs/xen-dyntrace_*_"$darch".deb tmp/debs/"$hv"_*_"$darch".deb tmp/debs/"$hv"-dbg_*_"$darch".deb; do echo "/$d"; done)
    echo "# \$ apt-get install --no-install-recommends ${debs[*]}"
    if ! in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Use-Pty=0 --no-install-recommends "${debs[@]}"; then
        show /tmp/pkg-out
        not_ok "apt-install-$darch: apt could not install the packages"
        continue
    fi
    show /tmp/pkg-out
    why=
    for p in xen-dyntrace:$darch "$hv" "$hv-dbg"; do
        [ "$(chroot "$root" dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null)" = "ii " ] || why="$why $p not installed;"
    done
    # Dependencies apt fetched from the archive, not from us.
    dep=$(grep -o "Setting up libxenhypfs1:$darch ([^)]*)" /tmp/pkg-out | head -1 | sed 's/Setting up //' || true)
    [ -n "$dep" ] || why="$why apt did not install libxenhypfs1:$darch from the archive;"
    for f in "$image" "/boot/xen-4.20-$darch-dyntrace.config" "/usr/lib/debug/boot/xen-syms-4.20-$darch-dyntrace" \
        /usr/sbin/xen-dyntrace /usr/share/man/man1/xen-dyntrace.1.gz \
        /usr/share/bash-completion/completions/xen-dyntrace /usr/share/doc/xen-dyntrace/copyright; do
        [ -s "$root$f" ] || why="$why $f missing;"
    done
    grep -qx 'CONFIG_LIVEPATCH_TRACER=y' "$root/boot/xen-4.20-$darch-dyntrace.config" || why="$why the config has no tracer;"
    case $darch in
    amd64)
        zcat "$root$image" >/tmp/pkg-xen && file /tmp/pkg-xen | grep -q 'ELF 32-bit.*Intel' ||
            why="$why $image is not a gzipped multiboot ELF;"
        # The tool runs there, against the root's own libraries.
        in_root xen-dyntrace --version && show /tmp/pkg-out || why="$why xen-dyntrace --version failed in the root;"
        ;;
    arm64)
        file "$root$image" | grep -q 'Linux kernel ARM64 boot executable Image' || why="$why $image is not an arm64 Image;"
        file "$root/usr/sbin/xen-dyntrace" | grep -q 'ARM aarch64' || why="$why the tool is not an arm64 binary;"
        ;;
    esac
    # GRUB's 20_linux_xen takes every /boot/xen* but xen-syms-*, xenpolicy-* and *.config: the
    # image is named to be offered.
    case "$(basename "$image")" in xen-syms-* | xenpolicy-* | *.config) why="$why GRUB would skip $image;" ;; esac
    if [ -z "$why" ]; then
        ok "apt-install-$darch: $(chroot "$root" dpkg-query -W -f '${Package} ${Version}, ' xen-dyntrace:$darch "$hv" "$hv-dbg")installed with their dependencies from Debian 13 ($dep)"
    else
        not_ok "apt-install-$darch:$why"
    fi
    if [ $darch = amd64 ] && [ -n "${BOOT_BUILD_DIR:-}" ] && [ -z "$why" ]; then
        boot_image "$BOOT_BUILD_DIR/x86_64"
    fi
    echo "# \$ apt-get purge xen-dyntrace:$darch $hv $hv-dbg"
    if in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q -o Dpkg::Use-Pty=0 "xen-dyntrace:$darch" "$hv" "$hv-dbg"; then
        show /tmp/pkg-out
        left=$(cd "$root" && ls -d boot/xen-4.20-*-dyntrace* usr/sbin/xen-dyntrace usr/lib/debug/boot/xen-syms-* usr/share/doc/xen-dyntrace 2>/dev/null || true)
        if [ -z "$left" ]; then ok "apt-remove-$darch: purged, nothing left"; else not_ok "apt-remove-$darch: left $left"; fi
    else
        show /tmp/pkg-out
        not_ok "apt-remove-$darch: apt purge failed"
    fi
done
