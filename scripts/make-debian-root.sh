#!/usr/bin/env bash
# make-debian-root.sh DIR: a fresh Debian 13 (trixie) root file system in DIR, made by Debian's
# debootstrap (minbase) from the archive of the machine's own apt configuration, for installing
# our packages into with apt (tests/packages/). debootstrap runs once: its packages are kept as a
# tarball in the cache (--make-tarball), and each root is unpacked from it (--unpack-tarball), so
# later roots download nothing but what apt installs into them.
# The root's apt sources are the same archive's trixie (binary packages), for amd64 and, as a
# foreign architecture (dpkg --add-architecture), arm64: the arm64 packages install into this
# amd64 root with their real dependencies, their maintainer scripts run by its shell.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

root=$(realpath -m "${1:?usage: make-debian-root.sh DIR}")
APT_SUITE=trixie
apt_private_setup
sources=$(apt_dir)/sources.list
mirror=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$sources")
[ -n "$mirror" ] || die "no trixie archive in $sources"
# The machine's own apt settings for fetching (proxies, credentials, mirror validity): debootstrap
# fetches with wget (its proxy from the environment), the root's apt takes them as they are.
proxy=$(apt-config dump | sed -n 's/^Acquire::http::Proxy "\(.*\)";$/\1/p' | head -n1)
[ -z "$proxy" ] || export http_proxy=$proxy
tarball=$CACHE_DIR/debian-root/trixie-minbase-amd64.tgz
if [ ! -s "$tarball" ]; then
    mkdir -p "$(dirname "$tarball")"
    rm -rf "$tarball.work"
    log "debootstrap: Debian 13 minbase (once; kept as $(basename "$tarball"))"
    debootstrap --variant=minbase --arch=amd64 --make-tarball="$tarball.tmp" trixie "$tarball.work" "$mirror" \
        >"$tarball.log" 2>&1 || { tail -20 "$tarball.log" >&2; die "debootstrap --make-tarball failed"; }
    mv "$tarball.tmp" "$tarball"
    rm -rf "$tarball.work"
fi

# A run killed while it had the root's /proc mounted (tests/packages/) leaves it mounted.
if [ -d "$root" ]; then
    { grep -o " $root/[^ ]*" /proc/mounts || true; } | sort -r | while read -r m; do umount -l "$m" || true; done
fi
rm -rf --one-file-system "$root"
mkdir -p "$root"
log "debootstrap: unpacking Debian 13 minbase into $root"
debootstrap --variant=minbase --arch=amd64 --unpack-tarball="$tarball" trixie "$root" "$mirror" \
    >"$root.debootstrap.log" 2>&1 || { tail -20 "$root.debootstrap.log" >&2; die "debootstrap failed (log: $root.debootstrap.log)"; }
grep '^deb ' "$sources" >"$root/etc/apt/sources.list"
apt-config dump | grep '^Acquire::' >"$root/etc/apt/apt.conf.d/90machine-acquire" || true
[ ! -d /etc/apt/auth.conf.d ] || cp -r /etc/apt/auth.conf.d/. "$root/etc/apt/auth.conf.d/"
rm -f "$root/etc/apt/sources.list.d/"*
chroot "$root" dpkg --add-architecture arm64
echo "$root"
