#!/usr/bin/env bash
# make-deb.sh ARCH: Debian 13 packages of xen-dyntrace for ARCH (x86_64 -> amd64, arm64), into
# BUILD_DIR/deb/ (make deb):
#   xen-dyntrace_1.0+dyntrace.N_DEBARCH.deb  the dom0 command, its man page and bash completion, linked
#       against Debian 13's libxenhypfs (the dom0 packages' unpacked root,
#       scripts/fetch-dom0-packages.sh) and depending on Debian 13's libraries by their shlibs;
#   xen-hypervisor-4.20-dyntrace-DEBARCH_XENVERSION+dyntrace.N_DEBARCH.deb  the hypervisor with
#       the tracer, as scripts/build-xen.sh builds it (4.20: Debian 13's own configuration plus the
#       tracer's options), from XEN_SRC (your own 4.20 tree, e.g. your distribution's source) or the
#       4.20 tarball (XEN_TARBALL). It installs beside Debian's xen-hypervisor-4.20-DEBARCH:
#       /boot/xen-4.20-DEBARCH-dyntrace[.gz] and its .config (xen-syms: the -dbg package). GRUB's
#       20_linux_xen offers it as "Xen hypervisor, version 4.20-DEBARCH-dyntrace"; the name sorts
#       below Debian's own, which stays the default entry (GRUB_TOP_LEVEL_XEN picks ours).
# Both are built with dpkg-deb as Debian's rules would lay them out (copyright, changelog, md5sums,
# stripped binary with Debian's hardening flags); tests/packages/check-packages.sh checks them with
# lintian and installs them with apt into a Debian 13 root.
# Needs a built tree: scripts/build-xen.sh ARCH (XEN_BASE=4.20) first; make deb does it.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: make-deb.sh ARCH}
darch=$(deb_arch "$arch")
[ "$XEN_BASE" = 4.20 ] || die "make deb packages the 4.20 hypervisor (XEN_BASE=4.20), not $XEN_BASE"
[ "$CLANG" = 0 ] && [ "$FLASK" = 0 ] && [ -z "$SERIES" ] || die "make deb packages the plain 4.20 build"
out=$BUILD_DIR/$arch/out
tree=$BUILD_DIR/$arch/xen
for f in xen xen-syms .config; do [ -f "$out/$f" ] || die "$out/$f missing: build first (scripts/build-xen.sh $arch)"; done
debdir=$BUILD_DIR/deb
mkdir -p "$debdir"
work=$BUILD_DIR/$arch/deb
rm -rf "$work"
mkdir -p "$work"
maintainer="xen-dyntrace maintainers <maintainers@users.noreply.a-seed-17a08b7f.example>"
# Reproducible: every file and changelog dated by the last commit.
epoch=$(git -C "$REPO_ROOT" log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH=$epoch
rfc_date=$(LC_ALL=C date -u -R -d "@$epoch")
commit=$(git -C "$REPO_ROOT" log -1 --format=%h 2>/dev/null || echo unknown)

case "$arch" in
x86_64) cc=gcc strip=strip triplet=x86_64-linux-gnu ;;
arm64) cc=aarch64-linux-gnu-gcc strip=aarch64-linux-gnu-strip triplet=aarch64-linux-gnu ;;
esac

# pkg_skeleton ROOT NAME: /usr/share/doc/NAME with the copyright (Debian's machine-readable format,
# GPL-2 by reference) and a one-entry changelog of VERSION (native: changelog.gz).
pkg_skeleton() {
    local root=$1 name=$2 version=$3 doc=$1/usr/share/doc/$2
    mkdir -p "$doc"
    cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: xen-dyntrace
Source: https://xenbits.xen.org/ (Xen); xen-dyntrace's patch series (make patches)

Files: *
Copyright: 2002-2025 The Xen project contributors
           2026 xen-dyntrace maintainers
License: GPL-2
 This package is free software; you can redistribute it and/or modify it under
 the terms of the GNU General Public License version 2 as published by the Free
 Software Foundation.
 .
 On Debian systems, the complete text of the GNU General Public License version 2
 can be found in /usr/share/common-licenses/GPL-2.
EOF
    {
        echo "$name ($version) unstable; urgency=medium"
        echo
        echo "  * Built by xen-dyntrace's make deb from commit $commit."
        echo
        echo " -- $maintainer  $rfc_date"
    } | gzip -9n >"$doc/changelog.gz"
}

# finish ROOT: the modes Debian's tools would give, the control files' md5sums, then the .deb.
finish() {
    local root=$1 deb
    find "$root" -type d -exec chmod 0755 {} +
    find "$root" -type f ! -path "$root/DEBIAN/*" ! -perm -0100 -exec chmod 0644 {} +
    (cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
    chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
    find "$root" -newermt "@$epoch" -exec touch -h -d "@$epoch" {} +
    deb=$debdir/$(sed -n 's/^Package: //p' "$root/DEBIAN/control")_$(sed -n 's/^Version: //p' "$root/DEBIAN/control")_$darch.deb
    dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
    echo "$deb"
}

# ---- xen-dyntrace, the dom0 command ----
pkgroot=$CACHE_DIR/dom0/$(dom0_suite 4.20)/$arch/root
libdir=$pkgroot/usr/lib/$triplet
[ -f "$libdir/libxenhypfs.so" ] || "$REPO_ROOT/scripts/fetch-dom0-packages.sh" "$arch" >/dev/null
[ -f "$libdir/libxenhypfs.so" ] || die "no libxenhypfs.so in the dom0 packages ($libdir)"
# Every build a newer version (apt upgrades it): the tool's own version plus the commit count
# (a shallow clone counts less: clone whole to build packages that upgrade).
build_n=$(git -C "$REPO_ROOT" rev-list --count HEAD 2>/dev/null || echo 1)
tool_version=$(sed -n 's/^VERSION := //p' "$REPO_ROOT/tools/misc/xen-dyntrace/GNUmakefile")+dyntrace.$build_n
# Debian's build flags (hardening: fortify, stack protector, PIE, relro, now), for the host's compiler.
cflags="$(DEB_HOST_ARCH=$darch dpkg-buildflags --get CFLAGS) $(DEB_HOST_ARCH=$darch dpkg-buildflags --get CPPFLAGS)"
ldflags="$(DEB_HOST_ARCH=$darch dpkg-buildflags --get LDFLAGS) -Wl,-z,now"
# The same variables for the build and the install (other flags would rebuild it).
tool_make=(make -s -C "$REPO_ROOT/tools/misc/xen-dyntrace" O="$work/tool-build" CC="$cc" CFLAGS="$cflags"
    HYPFS_CFLAGS="-I$pkgroot/usr/include" HYPFS_LIBS="-L$libdir -lxenhypfs"
    LDFLAGS="$ldflags -Wl,--allow-shlib-undefined -Wl,-rpath-link,$libdir:$pkgroot/lib/$triplet")
"${tool_make[@]}" || die "building xen-dyntrace failed"
troot=$work/xen-dyntrace
"${tool_make[@]}" DESTDIR="$troot" install >/dev/null
$strip --strip-unneeded --remove-section=.comment --remove-section=.note "$troot/usr/sbin/xen-dyntrace"
gzip -9n "$troot/usr/share/man/man1/xen-dyntrace.1"
install -D -m 0644 "$REPO_ROOT/tools/misc/xen-dyntrace/xen-dyntrace.bash-completion" \
    "$troot/usr/share/bash-completion/completions/xen-dyntrace"
pkg_skeleton "$troot" xen-dyntrace "$tool_version"
# Depends, as dpkg-shlibdeps would write them: each NEEDED library's package by its shlibs entry,
# and libc6 at the newest GLIBC symbol version the binary uses.
depends=()
for lib in $(readelf -d "$troot/usr/sbin/xen-dyntrace" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
    case "$lib" in
    libc.so.6)
        glibc=$(readelf -V "$troot/usr/sbin/xen-dyntrace" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
        depends+=("libc6 (>= $glibc)")
        ;;
    *)
        base=${lib%%.so*} soname=${lib##*.so.} shlibs=
        for deb in "$CACHE_DIR/dom0/$(dom0_suite 4.20)/$arch/debs/"*.deb; do
            shlibs=$(dpkg-deb -I "$deb" shlibs 2>/dev/null |
                awk -v l="$base" -v s="$soname" '$1 == l && $2 == s { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' || true)
            [ -z "$shlibs" ] || break
        done
        [ -n "$shlibs" ] || die "no shlibs entry for $lib among the dom0 packages"
        depends+=("$shlibs")
        ;;
    esac
done
mkdir -p "$troot/DEBIAN"
cat >"$troot/DEBIAN/control" <<EOF
Package: xen-dyntrace
Version: $tool_version
Architecture: $darch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$troot" | cut -f1)
Depends: $(IFS=,; echo "${depends[*]}" | sed 's/,/, /g')
Suggests: trace-cmd
Section: admin
Priority: optional
Homepage: https://xenbits.xen.org/
Description: dom0 command of Xen's dynamic function tracer
 xen-dyntrace drives the dynamic function tracer of a Xen hypervisor built
 with it (its /tracing files in HypFS): record sets a tracer up and streams
 every CPU's buffer into a capture file, reset puts every setting back to its
 boot value, report prints a capture as ftrace text, and export writes it as
 trace-cmd's trace.dat or as trace-event JSON for Perfetto and speedscope.
 .
 It needs a hypervisor with the tracer, such as xen-hypervisor-4.20-dyntrace.
EOF
finish "$troot"

# ---- the hypervisor ----
xen_version=$(make -s -C "$tree/xen" XEN_TARGET_ARCH="$arch" xenversion 2>/dev/null | tail -1)
[ -n "$xen_version" ] || die "cannot read the Xen version of $tree"
hv_name=xen-hypervisor-4.20-dyntrace-$darch
hv_version=$xen_version+dyntrace.$build_n
hroot=$work/hypervisor
mkdir -p "$hroot/boot" "$hroot/DEBIAN"
image=xen-4.20-$darch-dyntrace
case "$arch" in
x86_64) gzip -9n <"$out/xen" >"$hroot/boot/$image.gz" ;; # as Debian's: a gzipped multiboot image
arm64) cp "$out/xen" "$hroot/boot/$image" ;;            # as Debian's: the raw Image
esac
cp "$out/.config" "$hroot/boot/$image.config"
chmod 0644 "$hroot"/boot/*
pkg_skeleton "$hroot" "$hv_name" "$hv_version"
# As Debian's own hypervisor packages: let GRUB offer (or forget) this Xen.
for script in postinst:configure postrm:remove; do
    cat >"$hroot/DEBIAN/${script%:*}" <<EOF
#!/bin/sh
set -e
# Let GRUB offer (or forget) this Xen, as Debian's own hypervisor packages do.
if [ "\$1" = ${script#*:} ] && command -v update-grub >/dev/null 2>&1 && [ -d /boot/grub ]; then
    update-grub || true
fi
EOF
    chmod 0755 "$hroot/DEBIAN/${script%:*}"
done
cat >"$hroot/DEBIAN/control" <<EOF
Package: $hv_name
Version: $hv_version
Architecture: $darch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$hroot" | cut -f1)
Provides: xen-hypervisor, xen-hypervisor-4.20
Recommends: xen-hypervisor-common, xen-utils-4.20, xen-dyntrace
Suggests: $hv_name-dbg
Section: kernel
Priority: optional
Homepage: https://xenbits.xen.org/
Description: Xen hypervisor $xen_version with the dynamic function tracer ($darch)
 The Xen hypervisor built from $xen_version with xen-dyntrace's patch
 series: its functions carry patchable entries, and HypFS's /tracing turns
 any of them into a traced call at run time (ftrace's function,
 function_graph and the function profiler), through Livepatch's rendezvous.
 .
 It installs beside Debian's xen-hypervisor-4.20-$darch, configured as
 Debian 13 configures that one plus the tracer's options, as
 /boot/$image, with its configuration beside it. GRUB offers it
 among the Xen entries; Debian's own stays the default unless
 GRUB_TOP_LEVEL_XEN names this one.
EOF
finish "$hroot"

# ---- its symbols: xen-syms, for naming addresses (xen-dyntrace report --symbols) ----
# Where Xen's own make install puts it, in a directory of its own (lintian: no file directly in
# /usr/lib/debug), in a -dbg package.
droot=$work/hypervisor-dbg
mkdir -p "$droot/usr/lib/debug/boot" "$droot/DEBIAN"
cp "$out/xen-syms" "$droot/usr/lib/debug/boot/xen-syms-4.20-$darch-dyntrace"
chmod 0644 "$droot/usr/lib/debug/boot/xen-syms-4.20-$darch-dyntrace"
pkg_skeleton "$droot" "$hv_name-dbg" "$hv_version"
cat >"$droot/DEBIAN/control" <<EOF
Package: $hv_name-dbg
Version: $hv_version
Architecture: $darch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$droot" | cut -f1)
Depends: $hv_name (= $hv_version)
Section: debug
Priority: optional
Homepage: https://xenbits.xen.org/
Description: symbols of the Xen hypervisor with the dynamic function tracer ($darch)
 xen-syms of $hv_name: the hypervisor's ELF image with
 its symbols and debugging information, as
 /usr/lib/debug/boot/xen-syms-4.20-$darch-dyntrace. xen-dyntrace report and
 export name addresses with it (--symbols), and gdb reads it.
EOF
finish "$droot"
