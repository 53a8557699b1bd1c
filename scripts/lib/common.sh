# Shared settings and helpers for the xen-dyntrace scripts. Source it; do not run it.
# shellcheck shell=bash

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Downloads live outside the tracked tree so that later runs (and fresh clones) are offline-fast.
CACHE_DIR=${XEN_DYNTRACE_CACHE:-/var/cache/xen-dyntrace}
BUILD_DIR=${BUILD_DIR:-$REPO_ROOT/build}

# The only Xen source the archive serves (bookworm main), and the matching Debian tools.
XEN_DEB_VERSION=4.17.5+72-g01140da4e8-1
XEN_UPSTREAM_VERSION=4.17.5+72-g01140da4e8
XEN_ORIG_SHA256=53922f4d0a02c577f2ea9d63f65989cd88715779eebeed879ca1d314103ee06e

# Debian's python3, not a pyenv shim that may come first in PATH.
PYTHON=/usr/bin/python3

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# ARCH (x86_64 | arm64) -> Debian architecture name.
deb_arch() {
    case "$1" in
    x86_64) echo amd64 ;;
    arm64) echo arm64 ;;
    *) die "unknown ARCH '$1' (x86_64 or arm64)" ;;
    esac
}

check_arch() { deb_arch "$1" >/dev/null; }

# A private apt configuration: its own sources (derived from the machine's own apt configuration,
# with deb-src added and both architectures), its own lists and archives. The system's apt state
# is never touched.
APT_DIR=$CACHE_DIR/apt

apt_private_opts() {
    printf '%s\n' \
        -o "Dir::Etc::SourceList=$APT_DIR/sources.list" \
        -o Dir::Etc::SourceParts=/nonexistent \
        -o "Dir::State::Lists=$APT_DIR/lists" \
        -o "Dir::State::Status=$APT_DIR/status" \
        -o "Dir::Cache=$APT_DIR/cache" \
        -o "Dir::Cache::archives=$APT_DIR/cache/archives" \
        -o APT::Architecture=amd64 \
        -o APT::Architectures::=amd64 -o APT::Architectures::=arm64 \
        -o Debug::NoLocking=1 -o APT::Sandbox::User=root
}

apt_private() {
    local opts
    mapfile -t opts < <(apt_private_opts)
    apt-get "${opts[@]}" -q "$@"
}

apt_cache_private() {
    local opts
    mapfile -t opts < <(apt_private_opts)
    apt-cache "${opts[@]}" "$@"
}

# Derive the private sources from the system's configured package indexes, then update the
# private lists (at most once a day).
apt_private_setup() {
    mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
    touch "$APT_DIR/status"
    if [ ! -s "$APT_DIR/sources.list" ]; then
        local entries
        entries=$(apt-get -o Dir::State::Lists="$APT_DIR/lists" --print-uris update |
            sed -n "s#^'\(.*\)/dists/\([^/]*\)/\([^/]*\)/binary-[^/]*/Packages.*#\1 \2 \3#p" |
            sort -u)
        [ -n "$entries" ] || die "no deb entries found in the system's apt configuration"
        local keyring=/usr/share/keyrings/debian-archive-keyring.gpg opt=""
        [ -r "$keyring" ] && opt="[signed-by=$keyring] "
        : >"$APT_DIR/sources.list.new"
        while read -r uri suite comp; do
            printf 'deb %s%s/ %s %s\n' "$opt" "${uri%/}" "$suite" "$comp"
            printf 'deb-src %s%s/ %s %s\n' "$opt" "${uri%/}" "$suite" "$comp"
        done <<<"$entries" >>"$APT_DIR/sources.list.new"
        mv "$APT_DIR/sources.list.new" "$APT_DIR/sources.list"
        rm -f "$APT_DIR/updated-stamp"
    fi
    if [ ! -e "$APT_DIR/updated-stamp" ] ||
        [ -n "$(find "$APT_DIR/updated-stamp" -mmin +1440 2>/dev/null)" ]; then
        log "updating the private apt lists"
        apt_private update >/dev/null
        touch "$APT_DIR/updated-stamp"
    fi
}
