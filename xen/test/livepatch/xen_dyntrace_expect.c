/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace test payload: replaces xen_extra_version (like
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

#if defined(CONFIG_X86)
/* One 5-byte NOP. */
# define SITE_BYTES { 0x0f, 0x1f, 0x44, 0x00, 0x00 }
# define SITE_LEN 5
#elif defined(CONFIG_ARM_64)
/* mov x9, x30; nop (little-endian). */
# define SITE_BYTES { 0xe9, 0x03, 0x1e, 0xaa, 0x1f, 0x20, 0x03, 0xd5 }
# define SITE_LEN 8
#endif

static const char dyntrace_expect_str[] = "xen_extra_version";
extern const char *xen_hello_world(void);

struct livepatch_func __section(".livepatch.funcs") dyntrace_expect = {
    .version = LIVEPATCH_PAYLOAD_VERSION,
    .name = dyntrace_expect_str,
    .new_addr = xen_hello_world,
    .old_addr = xen_extra_version,
    .new_size = SITE_LEN,
    .old_size = SITE_LEN,
    .expect = {
        .enabled = 1,
        .len = SITE_LEN,
        .data = SITE_BYTES
    },
};
