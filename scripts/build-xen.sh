#!/usr/bin/env bash
# build-xen.sh ARCH: prepare the tree, configure it (defconfig + config/*.config fragments) and
# build the hypervisor and Xen's livepatch test payloads. Results go to BUILD_DIR/ARCH/out/.
# 4.20 built with gcc starts from Debian 13's own configuration of its hypervisor package instead
# of defconfig (scripts/fetch-debian-xen-config.sh), with config/debian-4.20.config in place of
# config/common.config; DEFCONFIG=1 builds it from defconfig as the other bases.
# CLANG=1 builds both with clang (Xen's clang=y; x86_64 only), by default into build/BASE-clang/.
# FLASK=1 adds XSM with FLASK (config/flask.config), into build/BASE-flask/.
#
# BASELINE=1 builds the pristine tree instead (the prepared tree's first commit, without our files
# and patches, configured with config/common.config only) into BUILD_DIR/ARCH/baseline/out/: the
# benchmarks' reference build.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: build-xen.sh ARCH}
check_arch "$arch"
[ "$CLANG" = 0 ] || [ "$arch" = x86_64 ] || die "CLANG=1: the clang build is x86_64 only"
[ "$DEB" = 0 ] || die "DEB=1: that boot's Xen comes from the installed package (tests/packages/), not from a build"
tree=$("$REPO_ROOT/scripts/prepare-tree.sh" "$arch")
baseline=${BASELINE:-0}
if [ "$baseline" = 1 ]; then
    base_tree=$BUILD_DIR/$arch/baseline/xen
    base_id=$(git -C "$tree" rev-parse dyntrace-base)
    if [ "$(cat "$base_tree/.dyntrace-base" 2>/dev/null)" != "$base_id" ]; then
        log "extracting the pristine tree into $base_tree"
        rm -rf "$base_tree"
        mkdir -p "$base_tree"
        git -C "$tree" archive dyntrace-base | tar -x -C "$base_tree"
        echo "$base_id" >"$base_tree/.dyntrace-base"
    fi
    tree=$base_tree
    out=$BUILD_DIR/$arch/baseline/out
    cfgdir=$BUILD_DIR/$arch/baseline/config
else
    out=$BUILD_DIR/$arch/out
    cfgdir=$BUILD_DIR/$arch/config
fi
mkdir -p "$out"

makeargs=(-C "$tree/xen" XEN_TARGET_ARCH="$arch" PYTHON="$PYTHON"
    XEN_WHOAMI=xen-dyntrace XEN_DOMAIN=localdomain XEN_BUILD_HOST=xen-dyntrace)
[ "$arch" = arm64 ] && makeargs+=(CROSS_COMPILE=aarch64-linux-gnu-)
# x86: no xen.efi (QEMU boots the multiboot image; the PE link is three more links of Xen),
# but on staging, the base of the series we mail: there xen.efi is linked as Xen's own CI does
# (the patchable entries' section in the PE link).
[ "$arch" = x86_64 ] && [ "$XEN_BASE" != staging ] && makeargs+=(XEN_BUILD_EFI=n XEN_BUILD_PE=n)
# clang=y selects clang for the hypervisor and, passed down, for the test payloads (GNU ld links).
[ "$CLANG" = 1 ] && makeargs+=(clang=y)
[ -n "${EXTRA_CFLAGS_XEN_CORE:-}" ] && makeargs+=(EXTRA_CFLAGS_XEN_CORE="$EXTRA_CFLAGS_XEN_CORE")
jobs=${JOBS:-$(nproc)}

# Configuration: regenerate into a scratch file; install it only when it differs, so an
# unchanged configuration triggers no rebuild.
mkdir -p "$cfgdir"
# The starting point: Debian 13's configuration for 4.20 (the Xen people run), else defconfig.
debian_config=
if [ "$XEN_BASE" = 4.20 ] && [ "$CLANG" = 0 ] && [ "${DEFCONFIG:-0}" != 1 ]; then
    debian_config=$("$REPO_ROOT/scripts/fetch-debian-xen-config.sh" "$arch")
    fragments=("$REPO_ROOT/config/debian-4.20.config")
else
    fragments=("$REPO_ROOT/config/common.config")
fi
[ "$baseline" = 1 ] || fragments+=("$REPO_ROOT/config/$arch.config")
[ "$FLASK" = 1 ] && fragments+=("$REPO_ROOT/config/flask.config")
for f in ${CONFIG_FRAGMENTS:-}; do fragments+=("$f"); done
# The compiler is part of the configuration (Kconfig probes it: CC_IS_CLANG, CC_HAS_*), and so is
# the starting point.
from=defconfig
[ -z "$debian_config" ] || from="$(basename "$debian_config") $(sha256sum <"$debian_config" | cut -c1-16)"
{
    echo "# compiler: $([ "$CLANG" = 1 ] && echo clang || echo gcc)"
    echo "# from: $from"
    cat "${fragments[@]}"
} >"$cfgdir/fragments.new"
if [ ! -f "$tree/xen/.config" ] || ! cmp -s "$cfgdir/fragments.new" "$cfgdir/fragments"; then
    log "configuring $arch from $from"
    [ -f "$tree/xen/.config" ] && cp "$tree/xen/.config" "$cfgdir/config.old"
    if [ -n "$debian_config" ]; then
        cp "$debian_config" "$cfgdir/config.new"
        make -s "${makeargs[@]}" KCONFIG_CONFIG="$cfgdir/config.new" olddefconfig >/dev/null
    else
        make -s "${makeargs[@]}" KCONFIG_CONFIG="$cfgdir/config.new" defconfig >/dev/null
    fi
    cat "$cfgdir/fragments.new" >>"$cfgdir/config.new"
    make -s "${makeargs[@]}" KCONFIG_CONFIG="$cfgdir/config.new" olddefconfig >/dev/null
    # Every fragment line must have survived (a dependency may silently drop a symbol).
    while read -r line; do
        case "$line" in \#* | "") continue ;; esac
        grep -qxF "$line" "$cfgdir/config.new" || die "config: '$line' did not take effect"
    done <"$cfgdir/fragments.new"
    if ! cmp -s "$cfgdir/config.new" "$tree/xen/.config"; then
        cp "$cfgdir/config.new" "$tree/xen/.config"
    fi
    mv "$cfgdir/fragments.new" "$cfgdir/fragments"
fi

log "building Xen for $arch (-j$jobs)"
make "${makeargs[@]}" -j"$jobs" olddefconfig >/dev/null
rc=0
make "${makeargs[@]}" -j"$jobs" >"$out/build.log" 2>&1 || rc=$?
grep -E 'warning:|error:' "$out/build.log" >&2 || true
[ "$rc" -eq 0 ] || { tail -20 "$out/build.log" >&2; die "Xen build failed (see $out/build.log)"; }
if [ "$CLANG" = 1 ]; then
    grep -qx 'CONFIG_CC_IS_CLANG=y' "$tree/xen/.config" || die "CLANG=1 but Kconfig did not see clang"
else
    grep -qx 'CONFIG_CC_IS_GCC=y' "$tree/xen/.config" || die "Kconfig did not see gcc (a clang tree? use CLANG=1)"
fi
# With IBT, a function reached indirectly must be cf_check (ENDBR64), or the call is a #CP that
# panics a host with IBT; no emulator here has IBT, so the objects are checked instead.
if [ "$arch" = x86_64 ] && grep -qx 'CONFIG_XEN_IBT=y' "$tree/xen/.config" &&
    compgen -G "$tree/xen/common/dyntrace/*.o" >/dev/null; then
    objs=()
    for o in "$tree"/xen/common/dyntrace/*.o "$tree"/xen/arch/x86/dyntrace*.o; do
        case "$o" in */built_in.o) ;; *) objs+=("$o") ;; esac
    done
    "$REPO_ROOT/scripts/lib/check-endbr.py" "${objs[@]}" >&2 ||
        die "functions reached indirectly without cf_check: IBT would stop the host (above)"
fi
cp "$tree/xen/xen" "$tree/xen/xen-syms" "$tree/xen/.config" "$out/"
if [ "$baseline" = 1 ]; then
    echo "$out"
    exit 0
fi
make "${makeargs[@]}" -j"$jobs" tests >>"$out/build.log" 2>&1 ||
    die "building Xen's test payloads failed (see $out/build.log)"

rm -rf "$out/livepatch" && mkdir -p "$out/livepatch"
cp "$tree"/xen/test/livepatch/*.livepatch "$out/livepatch/"
echo "$out"
