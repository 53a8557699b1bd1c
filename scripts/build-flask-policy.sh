#!/usr/bin/env bash
# build-flask-policy.sh ARCH: Xen's default FLASK policy, built from the base's own
# tools/flask/policy (its Makefile.common, as the hypervisor's build does for a built-in policy)
# with one module added, tests/flask/dyntrace.te (a domain with HypFS access but not the livepatch
# operation), into BUILD_DIR/ARCH/out/xenpolicy. The flask suite boots with it as Xen's XSM
# boot module (tests/run-dom0-suite.sh builds it; scripts/boot.sh, XSM_POLICY).
# checkpolicy is Debian's, downloaded and unpacked into the cache, never installed: Xen's Kconfig
# turns a built-in policy on (CONFIG_XSM_FLASK_POLICY) wherever it finds checkpolicy in PATH,
# which would change every build with FLASK (Debian 13's arm64 configuration has it).
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

arch=${1:?usage: build-flask-policy.sh ARCH}
check_arch "$arch"
tree=$BUILD_DIR/$arch/xen
out=$BUILD_DIR/$arch/out
[ -f "$tree/tools/flask/policy/Makefile.common" ] || die "$tree has no tools/flask/policy: prepare the tree first"

# Debian's checkpolicy, for the host (the policy is the same file on every architecture).
APT_SUITE=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
cp_dir=$CACHE_DIR/checkpolicy-$APT_SUITE
checkpolicy=$cp_dir/root/usr/bin/checkpolicy
if [ ! -x "$checkpolicy" ]; then
    apt_private_setup
    rm -rf "$cp_dir.tmp"
    mkdir -p "$cp_dir.tmp/deb"
    log "downloading checkpolicy ($APT_SUITE) to build FLASK policies"
    (cd "$cp_dir.tmp/deb" && apt_private download checkpolicy >/dev/null) ||
        die "cannot download checkpolicy"
    dpkg -x "$cp_dir.tmp/deb/"checkpolicy_*.deb "$cp_dir.tmp/root"
    [ -x "$cp_dir.tmp/root/usr/bin/checkpolicy" ] || die "the checkpolicy package has no /usr/bin/checkpolicy"
    rm -rf "$cp_dir"
    mv "$cp_dir.tmp" "$cp_dir"
fi

# The base's modules, with ours added and enabled.
work=$BUILD_DIR/$arch/flask
rm -rf "$work"
mkdir -p "$work"
cp -r "$tree/tools/flask/policy/modules" "$work/modules"
cp "$REPO_ROOT/tests/flask/dyntrace.te" "$work/modules/"
echo "dyntrace = on" >>"$work/modules/modules.conf"
make -s -f "$tree/tools/flask/policy/Makefile.common" -C "$tree/tools/flask/policy" \
    FLASK_BUILD_DIR="$work" MODDIR="$work/modules" POLICY_FILENAME="$work/xenpolicy" \
    CHECKPOLICY="$checkpolicy" M4=m4 >"$work/build.log" 2>&1 ||
    { cat "$work/build.log" >&2; die "the FLASK policy did not build"; }
cp "$work/xenpolicy" "$out/xenpolicy"
log "FLASK policy: $out/xenpolicy ($(wc -c <"$out/xenpolicy") bytes)"
echo "$out/xenpolicy"
