#!/usr/bin/env bash
# fetch-xen-source.sh: the pristine Xen tree of XEN_BASE, unpacked once into the cache; prints its
# path. 4.17: Debian's xen source package, obtained with apt-get source through the private apt
# configuration (upstream sources only: Debian's packaging patches are not applied). 4.20 and
# staging: the tarball of XEN_TARBALL with the committed sha256 of that base. Fails with a message
# saying what to pass when the base's source is not at hand.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

src_dir=$CACHE_DIR/src
mkdir -p "$src_dir"

# unpack TARBALL TREE: unpack into TREE (its single top directory stripped).
unpack() {
    log "unpacking $(basename "$1")"
    rm -rf "$2" "$2.tmp"
    mkdir -p "$2.tmp"
    tar -C "$2.tmp" --strip-components=1 -xJf "$1"
    [ -f "$2.tmp/xen/Makefile" ] || die "$(basename "$1") does not hold a Xen tree"
    mv "$2.tmp" "$2"
    touch "$2/.unpacked"
}

case "$XEN_BASE" in
4.17)
    tree=$src_dir/xen-$XEN_UPSTREAM_VERSION
    orig=xen_$XEN_UPSTREAM_VERSION.orig.tar.xz
    if [ ! -e "$tree/.unpacked" ]; then
        if [ ! -e "$src_dir/$orig" ] ||
            ! echo "$XEN_ORIG_SHA256  $src_dir/$orig" | sha256sum -c --quiet - 2>/dev/null; then
            apt_private_setup
            log "downloading source package xen=$XEN_DEB_VERSION"
            (cd "$src_dir" && apt_private source --download-only "xen=$XEN_DEB_VERSION" >/dev/null)
        fi
        echo "$XEN_ORIG_SHA256  $src_dir/$orig" | sha256sum -c --quiet - ||
            die "checksum mismatch for $orig"
        unpack "$src_dir/$orig" "$tree"
    fi
    ;;
*)
    tarball=$(base_tarball "$XEN_BASE") ||
        die "no source for XEN_BASE=$XEN_BASE: pass XEN_TARBALL=<${BASE_DESCRIPTION[$XEN_BASE]}> (its sha256 must be ${BASE_TARBALL_SHA256[$XEN_BASE]}) or XEN_SRC=<a Xen tree>"
    tree=$src_dir/xen-$XEN_BASE-${BASE_TARBALL_SHA256[$XEN_BASE]:0:12}
    [ -e "$tree/.unpacked" ] || unpack "$tarball" "$tree"
    ;;
esac
echo "$tree"
