/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace test payload: replaces xen_extra_version (like
 * xen_hello_world) only if its entry holds exactly the bytes the tracer
 * leaves there when it is not traced (the patch site as made at boot).
 * Loading it is how the end-to-end tests check an entry's bytes.
 */
#include <xen/lib.h>
#include <xen/types.h>
#include <xen/version.h>
#include <xen/livepatch.h>
#include <xen/livepatch_payload.h>

#include <public/sysctl.h>

#include <asm/dyntrace.h>

static const char dyntrace_expect_str[] = "xen_extra_version";
extern const char *xen_hello_world(void);

struct livepatch_func __section(".livepatch.funcs") dyntrace_expect = {
    .version = LIVEPATCH_PAYLOAD_VERSION,
    .name = dyntrace_expect_str,
    .new_addr = xen_hello_world,
    .old_addr = xen_extra_version,
    .new_size = DYNTRACE_SITE_SIZE,
    .old_size = DYNTRACE_SITE_SIZE,
    .expect = {
        .enabled = 1,
        .len = DYNTRACE_SITE_SIZE,
        .data = DYNTRACE_SITE_BYTES
    },
};
