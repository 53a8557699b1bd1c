#!/usr/bin/env bash
# Install (idempotently) every Debian package the host side of xen-dyntrace needs.
# Only packages that are missing are installed; apt lists are refreshed at most once a day.
set -euo pipefail

packages=(
    build-essential bison flex python3 bc cpio xz-utils git file
    qemu-system-x86 qemu-system-arm
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    binutils-aarch64-linux-gnu
    gpgv debian-archive-keyring ca-certificates
    spin
    # The prepared trees: each series entry's additions to our earlier files (patches/series).
    unifdef
    # The clang build of Xen (CLANG=1): Xen's clang=y compiles with clang and links with GNU ld,
    # so lld is not needed.
    clang
    # xen-dyntrace's host build (record against libxenhypfs) and the real clients of its
    # exports: trace-cmd, and speedscope (from the npm registry) in Chromium, driven by
    # playwright-core (tests/viewers).
    libxen-dev trace-cmd chromium nodejs
    # KernelShark, on an X server of its own (Xvfb), with ImageMagick's import for its screenshot
    # (record/10's capture with events, tests/viewers/check-exports.sh).
    kernelshark xvfb imagemagick
    # Xen's tools build of the dom0 command in the patched tree (scripts/build-tool-in-tree.sh):
    # what the tools' configure requires, with the firmware, qemu and docs disabled.
    pkg-config python3-dev uuid-dev libncurses-dev libyajl-dev zlib1g-dev wget
    # The fuzzer of the capture reader (tests/host/test-capture-fuzz): clang's libFuzzer and
    # sanitizer runtimes (-fsanitize=fuzzer,address,undefined).
    libclang-rt-14-dev
    # The CET boots (EMULATOR=bochs, scripts/boot.sh): bochs 2.7's CPU has shadow stacks and
    # IBT; GRUB, from an ISO, loads Xen there.
    bochs bochsbios vgabios grub-common grub-pc-bin xorriso mtools
    # The flask suite: Xen's default FLASK policy is made with m4 (and Debian's checkpolicy,
    # unpacked, not installed: scripts/build-flask-policy.sh); on Arm its device tree node is
    # added with dtc (scripts/boot.sh).
    m4 device-tree-compiler
    # make deb and its check (tests/packages/): Debian's lintian, and debootstrap for the
    # Debian 13 root the packages are installed into with apt.
    lintian debootstrap
)
# npm comes with some nodejs packages and apart in Debian's.
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
        missing+=("$p")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-host-deps: missing packages (${missing[*]}) and not root" >&2
    exit 1
fi

stamp=/var/lib/apt/periodic/xen-dyntrace-update-stamp
if [ ! -e "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440 2>/dev/null)" ]; then
    apt-get update -q
    mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi
echo "install-host-deps: installing ${missing[*]}"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
