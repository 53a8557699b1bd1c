#!/usr/bin/env bash
# Obtain Debian's xen source package (4.17) with apt-get source through the private apt
# configuration, verify the orig tarball and unpack it (upstream sources only; Debian's packaging
# patches are not applied). Prints the unpacked tree's path.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

src_dir=$CACHE_DIR/src
tree=$src_dir/xen-$XEN_UPSTREAM_VERSION
orig=xen_$XEN_UPSTREAM_VERSION.orig.tar.xz

if [ ! -e "$tree/.unpacked" ]; then
    mkdir -p "$src_dir"
    if [ ! -e "$src_dir/$orig" ] ||
        ! echo "$XEN_ORIG_SHA256  $src_dir/$orig" | sha256sum -c --quiet - 2>/dev/null; then
        apt_private_setup
        log "downloading source package xen=$XEN_DEB_VERSION"
        (cd "$src_dir" && apt_private source --download-only "xen=$XEN_DEB_VERSION" >/dev/null)
    fi
    echo "$XEN_ORIG_SHA256  $src_dir/$orig" | sha256sum -c --quiet - ||
        die "checksum mismatch for $orig"
    log "unpacking $orig"
    rm -rf "$tree" "$tree.tmp"
    mkdir -p "$tree.tmp"
    tar -C "$tree.tmp" --strip-components=1 -xJf "$src_dir/$orig"
    mv "$tree.tmp" "$tree"
    touch "$tree/.unpacked"
fi
echo "$tree"
