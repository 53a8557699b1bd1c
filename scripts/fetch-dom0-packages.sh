#!/usr/bin/env bash
# fetch-dom0-packages.sh ARCH: download (never install) the Debian packages that make up the test
# dom0 of XEN_BASE -- a kernel, busybox-static, Debian's Xen tools and their libraries, all from
# one Debian release (4.17: Debian 12, kernel 6.1, Xen tools 4.17; 4.20 and staging: Debian 13,
# kernel 6.12, Xen tools 4.20) -- and unpack them with dpkg -x into one root. Prints its path.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: fetch-dom0-packages.sh ARCH}
darch=$(deb_arch "$arch")
APT_SUITE=$(dom0_suite "$XEN_BASE")
xen_version=$(dom0_xen_version "$XEN_BASE")
minor=$(dom0_tools_minor "$XEN_BASE")
dest=$CACHE_DIR/dom0/$APT_SUITE/$arch
root=$dest/root

# Xen tools at exactly the version of the hypervisor source.
xen_pkgs=(xen-utils-common "xen-utils-$minor" libxenhypfs1 libxencall1 libxentoolcore1
    libxentoollog1 "libxenmisc$minor" libxenevtchn1 libxenforeignmemory1 libxengnttab1
    libxendevicemodel1 libxenstore4
    # Headers and link names for building xen-dyntrace against this very libxenhypfs.
    libxen-dev)
# Their libraries and the rest of the image, at the archive's candidate version.
other_pkgs=(busybox-static libc6 zlib1g liblzma5 libbz2-1.0 libzstd1 libyajl2 libuuid1
    libgcc-s1 libnl-3-200 libnl-route-3-200 libtinfo6 libncursesw6 libsystemd0 liblz4-1
    libgcrypt20 libgpg-error0 libcap2)
# Arm's libxenlight builds guests' device trees.
[ "$arch" = arm64 ] && other_pkgs+=(libfdt1)
# The unpacked root is reused while it was made from this same list.
stamp="$xen_version ${xen_pkgs[*]} ${other_pkgs[*]}"

if [ "$(cat "$root/.complete" 2>/dev/null)" != "$stamp" ]; then
    apt_private_setup
    kpkg=$(apt_cache_private show --no-all-versions "linux-image-$darch:$darch" |
        sed -n 's/^Depends: \(linux-image-[^ ,]*\).*/\1/p' | head -n1)
    [ -n "$kpkg" ] || die "cannot resolve the kernel package for $darch"
    debs=$dest/debs
    rm -rf "$debs" "$root.tmp"
    mkdir -p "$debs" "$root.tmp"
    specs=("$kpkg:$darch")
    for p in "${xen_pkgs[@]}"; do specs+=("$p:$darch=$xen_version"); done
    for p in "${other_pkgs[@]}"; do specs+=("$p:$darch"); done
    log "downloading dom0 packages for $darch from $APT_SUITE ($kpkg, Xen tools $xen_version)"
    (cd "$debs" && apt_private download "${specs[@]}" >/dev/null)
    for d in "$debs"/*.deb; do dpkg -x "$d" "$root.tmp"; done
    echo "$kpkg" >"$root.tmp/.kernel-package"
    rm -rf "$root"
    mv "$root.tmp" "$root"
    echo "$stamp" >"$root/.complete"
fi
echo "$root"
