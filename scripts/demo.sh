#!/usr/bin/env bash
# demo.sh ARCH: build, boot, run the main dom0 session (tests/dom0/demo) and print its output.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"
arch=${1:-x86_64}
"$REPO_ROOT/scripts/install-host-deps.sh"
"$REPO_ROOT/scripts/build-xen.sh" "$arch" >/dev/null
"$REPO_ROOT/scripts/make-initramfs.sh" "$arch" >/dev/null
log_file=$BUILD_DIR/$arch/logs/demo.log
rc=0
LOG=$log_file "$REPO_ROOT/scripts/boot.sh" "$arch" demo || rc=$?
echo "---- dom0 session on $arch, Xen $XEN_VARIANT ----"
tr -d '\r' <"$log_file" | sed -n '/DYNTRACE: suite demo begin/,/DYNTRACE: suite demo end/p' |
    sed -n 's/^# //p'
echo "---- end of session (serial log: $log_file) ----"
tr -d '\r' <"$log_file" | grep -q '^ok 1 - demo/' || { log "the session failed"; exit 1; }
exit "$rc"
