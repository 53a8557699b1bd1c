# Shared settings and helpers for the xen-dyntrace scripts. Source it; do not run it.
# shellcheck shell=bash

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Downloads live outside the tracked tree so that later runs (and fresh clones) are offline-fast.
CACHE_DIR=${XEN_DYNTRACE_CACHE:-/var/cache/xen-dyntrace}

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# ---- Xen bases ----
# XEN_BASE=4.17 | 4.20 | staging | auto (default: 4.20 when its source is at hand, else 4.17).
#  4.17     Debian 12's source package, fetched by fetch-xen-source.sh (or XEN_SRC); its dom0 is
#           Debian 12's (kernel 6.1, xen-utils-4.17).
#  4.20     upstream RELEASE-4.20.4, the release Debian 13's Xen is built from; dom0 is Debian 13's
#           (kernel 6.12, xen-utils-4.20).
#  staging  upstream staging at the commit below; dom0 is Debian 13's (4.20 tools).
# 4.20 and staging come from XEN_TARBALL (one or more tarballs, space-separated; each is
# recognised by its sha256, which must be one committed below) or from XEN_SRC (a tree).
ALL_BASES="4.20 4.17 staging"
declare -A BASE_TARBALL_SHA256=(
    [4.20]=77c8c7d1f250f41d85d76838bf8f0bf7bf8b08f911085d8b58046e39240d2b72
    [staging]=130233ca4d29622b0775729f1647f2103f8c8065e719905906e39f85b3ed393b
)
declare -A BASE_DESCRIPTION=(
    [4.17]="Debian 12's xen 4.17.5+72-g01140da4e8 source package"
    [4.20]="xen-4.20.4.tar.xz (tag RELEASE-4.20.4, 9611e26eff)"
    [staging]="xen-staging-c447b7308b.tar.xz (staging c447b7308b, 4.23-dev)"
)

check_base() {
    case "$1" in
    4.17 | 4.20 | staging) ;;
    *) die "unknown XEN_BASE '$1' (4.17, 4.20 or staging)" ;;
    esac
}

# base_tarball BASE: the file of XEN_TARBALL whose sha256 is BASE's; fails when there is none.
# A tarball whose sum is not committed here is an error: it is not a base we know.
base_tarball() {
    local f sum b
    for f in ${XEN_TARBALL:-}; do
        [ -f "$f" ] || die "XEN_TARBALL: $f does not exist"
        sum=$(sha256sum "$f" | cut -d' ' -f1)
        for b in "${!BASE_TARBALL_SHA256[@]}"; do
            if [ "${BASE_TARBALL_SHA256[$b]}" = "$sum" ]; then
                [ "$b" = "$1" ] && { echo "$f"; return 0; }
                continue 2
            fi
        done
        die "XEN_TARBALL: $f has sha256 $sum, which is none of the committed bases'"
    done
    return 1
}

# base_available BASE: can this machine build BASE? (4.17 always can: the archive serves it.)
base_available() {
    case "$1" in
    4.17) return 0 ;;
    *) [ -n "${XEN_SRC:-}" ] && [ "${XEN_BASE:-auto}" = "$1" ] && return 0
       base_tarball "$1" >/dev/null ;;
    esac
}

if [ "${XEN_BASE:-auto}" = auto ]; then
    if base_available 4.20; then XEN_BASE=4.20; else XEN_BASE=4.17; fi
fi
check_base "$XEN_BASE"
export XEN_BASE

# CLANG=1 builds the hypervisor and its livepatch test payloads with clang (Xen's clang=y, as
# Xen's own CI does for x86), x86_64 only, in a build tree of its own. XEN_VARIANT names the build
# in directories and results: BASE, or BASE-clang (tests/suites spells it BASE+clang).
CLANG=${CLANG:-0}
case "$CLANG" in 0 | 1) ;; *) die "CLANG=$CLANG: 0 (gcc) or 1 (clang)" ;; esac
export CLANG
XEN_VARIANT=$XEN_BASE
[ "$CLANG" = 1 ] && XEN_VARIANT=$XEN_BASE-clang
# FLASK=1 builds with XSM and FLASK (config/flask.config), in a build tree of its own: BASE-flask
# (tests/suites spells it BASE+flask). Debian 13's amd64 hypervisor has no XSM; its arm64 one has
# FLASK already, so the arm64 flask suite boots the plain 4.20 build.
FLASK=${FLASK:-0}
case "$FLASK" in 0 | 1) ;; *) die "FLASK=$FLASK: 0 or 1 (XSM with FLASK)" ;; esac
export FLASK
[ "$FLASK" = 1 ] && XEN_VARIANT=$XEN_VARIANT-flask
# DEB=1 names the boot of the system make deb's packages were installed into (tests/packages/):
# BASE-deb (tests/suites spells it BASE+deb), its image made from that root, not built here.
DEB=${DEB:-0}
case "$DEB" in 0 | 1) ;; *) die "DEB=$DEB: 0 or 1 (the installed packages' boot)" ;; esac
export DEB
[ "$DEB" = 1 ] && XEN_VARIANT=$XEN_VARIANT-deb
# SERIES=N builds the first N mailed series only (patches/series), in a build tree of its own:
# BASE-seriesN (tests/suites spells it BASE+seriesN).
SERIES=${SERIES:-}
case "$SERIES" in '' | [1-9]) ;; *) die "SERIES=$SERIES: the number of series to apply, 1 to 9" ;; esac
export SERIES
[ -z "$SERIES" ] || XEN_VARIANT=$XEN_VARIANT-series$SERIES

# Per-build trees; results of make check gather across bases.
BUILD_ROOT=$REPO_ROOT/build
BUILD_DIR=${BUILD_DIR:-$BUILD_ROOT/$XEN_VARIANT}
RESULTS_DIR=${RESULTS_DIR:-$BUILD_ROOT/results}

# The only Xen source the archive serves (bookworm main), and the matching Debian tools.
XEN_DEB_VERSION=4.17.5+72-g01140da4e8-1
XEN_UPSTREAM_VERSION=4.17.5+72-g01140da4e8
XEN_ORIG_SHA256=53922f4d0a02c577f2ea9d63f65989cd88715779eebeed879ca1d314103ee06e
# Debian 13's Xen tools, built from 4.20.4 plus stable fixes (same hypercall interfaces).
XEN420_DEB_VERSION=4.20.4+63-g7abfd2bce2-0+deb13u1

# dom0 of a base: Debian suite, Xen tools version and directory, and the sysctl interface the
# tools speak (a tool speaking another one is refused by the hypervisor).
dom0_suite() { case "$1" in 4.17) echo bookworm ;; *) echo trixie ;; esac; }
dom0_xen_version() { case "$1" in 4.17) echo "$XEN_DEB_VERSION" ;; *) echo "$XEN420_DEB_VERSION" ;; esac; }
dom0_tools_minor() { case "$1" in 4.17) echo 4.17 ;; *) echo 4.20 ;; esac; }

# Debian's python3, not a pyenv shim that may come first in PATH.
PYTHON=/usr/bin/python3

# ARCH (x86_64 | arm64) -> Debian architecture name.
deb_arch() {
    case "$1" in
    x86_64) echo amd64 ;;
    arm64) echo arm64 ;;
    *) die "unknown ARCH '$1' (x86_64 or arm64)" ;;
    esac
}

check_arch() { deb_arch "$1" >/dev/null; }

# A private apt configuration per Debian suite: its own sources (derived from the machine's own apt
# configuration), lists and archives; the system's apt state is never touched. APT_SUITE selects
# it: bookworm (the machine's own entries, with deb-src added: Xen 4.17's source package) or
# trixie (the same archives' trixie suite, binary packages only: Debian 13's dom0).
APT_SUITE=${APT_SUITE:-bookworm}

apt_dir() { echo "$CACHE_DIR/apt-$APT_SUITE"; }

apt_private_opts() {
    local d
    d=$(apt_dir)
    printf '%s\n' \
        -o "Dir::Etc::SourceList=$d/sources.list" \
        -o Dir::Etc::SourceParts=/nonexistent \
        -o "Dir::State::Lists=$d/lists" \
        -o "Dir::State::Status=$d/status" \
        -o "Dir::Cache=$d/cache" \
        -o "Dir::Cache::archives=$d/cache/archives" \
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
    local d
    d=$(apt_dir)
    mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
    touch "$d/status"
    if [ ! -s "$d/sources.list" ]; then
        local entries codename
        entries=$(apt-get -o Dir::State::Lists="$d/lists" --print-uris update |
            sed -n "s#^'\(.*\)/dists/\([^/]*\)/\([^/]*\)/binary-[^/]*/Packages.*#\1 \2 \3#p" |
            sort -u)
        [ -n "$entries" ] || die "no deb entries found in the system's apt configuration"
        codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
        local keyring=/usr/share/keyrings/debian-archive-keyring.gpg opt=""
        [ -r "$keyring" ] && opt="[signed-by=$keyring] "
        : >"$d/sources.list.new"
        while read -r uri suite comp; do
            if [ "$APT_SUITE" = "$codename" ]; then
                printf 'deb %s%s/ %s %s\n' "$opt" "${uri%/}" "$suite" "$comp"
                printf 'deb-src %s%s/ %s %s\n' "$opt" "${uri%/}" "$suite" "$comp"
            elif [ "$suite" = "$codename" ]; then
                # Another release of the same archive: its main suite, binaries only.
                printf 'deb %s%s/ %s %s\n' "$opt" "${uri%/}" "$APT_SUITE" "$comp"
            fi
        done <<<"$entries" >>"$d/sources.list.new"
        [ -s "$d/sources.list.new" ] || die "no archive for $APT_SUITE in the system's apt configuration"
        mv "$d/sources.list.new" "$d/sources.list"
        rm -f "$d/updated-stamp"
    fi
    if [ ! -e "$d/updated-stamp" ] ||
        [ -n "$(find "$d/updated-stamp" -mmin +1440 2>/dev/null)" ]; then
        log "updating the private apt lists ($APT_SUITE)"
        apt_private update >/dev/null
        touch "$d/updated-stamp"
    fi
}
