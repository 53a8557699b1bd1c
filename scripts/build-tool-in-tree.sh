#!/usr/bin/env bash
# build-tool-in-tree.sh TREE: build the dom0 command (tools/misc/xen-dyntrace, the last series)
# with Xen's own tools build in TREE, a Xen tree with our series applied: configure the tools
# (no hypervisor, firmware, stubdoms, qemu or docs), the public headers, the libraries
# libxenhypfs needs and libxenhypfs itself, then tools/misc with the command in it (tools/misc's
# own programs need more libraries: the command's directory is built as tools/misc's Makefile
# recurses into it, with its own make). Xen's tools flags apply (-Werror, -std=gnu99,
# -Wstrict-prototypes); the command links against the tree's libxenhypfs. Prints the command's
# path.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

tree=$(cd "${1:?usage: build-tool-in-tree.sh TREE}" && pwd)
[ -f "$tree/tools/misc/xen-dyntrace/Makefile" ] || die "$tree has no tools/misc/xen-dyntrace"
grep -q 'SUBDIRS-y += xen-dyntrace' "$tree/tools/misc/Makefile" ||
    die "$tree: tools/misc/Makefile does not build xen-dyntrace"
log=$tree/dyntrace-tool-build.log
# configure asks for iasl for the firmware, which is disabled here.
(cd "$tree" && IASL=/bin/true ./configure --disable-xen --disable-docs --disable-stubdom \
    --disable-qemu-traditional --disable-rombios --disable-seabios --disable-ipxe --disable-ovmf \
    --disable-pvshim --with-system-qemu=/usr/bin/qemu-system-x86_64 --disable-ocamltools \
    --disable-golang --disable-pygrub) >"$log" 2>&1 || { tail -n 20 "$log" >&2; die "configure failed in $tree"; }
{
    make -C "$tree/tools/include"
    for lib in toollog toolcore call hypfs; do make -C "$tree/tools/libs" "subdir-all-$lib"; done
    make -C "$tree/tools/misc" subdir-all-xen-dyntrace
} >>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "Xen's tools build of xen-dyntrace failed in $tree"; }
bin=$tree/tools/misc/xen-dyntrace/xen-dyntrace
[ -x "$bin" ] || die "no $bin"
"$bin" --help | grep -q '^  record' || die "$bin --help does not list record"
echo "$bin"
