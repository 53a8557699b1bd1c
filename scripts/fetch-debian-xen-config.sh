#!/usr/bin/env bash
# fetch-debian-xen-config.sh ARCH: the configuration Debian 13 builds its Xen 4.20 hypervisor with
# for ARCH, as its package xen-hypervisor-4.20-DEBARCH installs it (/boot/xen-4.20-DEBARCH.config),
# at the version of the dom0's Xen tools (XEN420_DEB_VERSION, scripts/lib/common.sh). Downloaded
# (never installed) from the machine's own archive, unpacked with dpkg -x and kept in the cache.
# Prints the config file's path. scripts/build-xen.sh builds 4.20 from it (config/debian-4.20.config).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: fetch-debian-xen-config.sh ARCH}
darch=$(deb_arch "$arch")
APT_SUITE=$(dom0_suite 4.20)
version=$(dom0_xen_version 4.20)
minor=$(dom0_tools_minor 4.20)
pkg=xen-hypervisor-$minor-$darch
dest=$CACHE_DIR/debian-xen-config/$version/$darch
config=$dest/xen-$minor-$darch.config

if [ ! -s "$config" ]; then
    apt_private_setup
    rm -rf "$dest.tmp"
    mkdir -p "$dest.tmp/deb" "$dest.tmp/root"
    log "downloading $pkg $version (its /boot config) from $APT_SUITE"
    (cd "$dest.tmp/deb" && apt_private download "$pkg:$darch=$version" >/dev/null) ||
        die "cannot download $pkg=$version for its configuration"
    dpkg -x "$dest.tmp/deb/"*.deb "$dest.tmp/root"
    [ -s "$dest.tmp/root/boot/xen-$minor-$darch.config" ] ||
        die "$pkg $version has no /boot/xen-$minor-$darch.config"
    mkdir -p "$dest"
    cp "$dest.tmp/root/boot/xen-$minor-$darch.config" "$config.tmp"
    mv "$config.tmp" "$config"
    rm -rf "$dest.tmp"
fi
echo "$config"
