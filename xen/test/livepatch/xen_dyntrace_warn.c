/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace test payload: replaces xen_extra_version with a function
 * that warns, so that reading the version's extra string prints a call
 * trace from inside do_xen_version().  When a tracer hooks the return of
 * do_xen_version() (it is then diverted to a trampoline), the trace must
 * still name its caller.
 */
#include <xen/lib.h>
#include <xen/types.h>
#include <xen/version.h>
#include <xen/livepatch.h>
#include <xen/livepatch_payload.h>

#include <public/sysctl.h>

#include <asm/dyntrace.h>

static const char dyntrace_warn_str[] = "xen_extra_version";

static const char *xen_dyntrace_warn(void)
{
    /* The WARN's banner asks for the extra version too: once. */
    static bool in_warn;

    /* Volatile: WARN()'s asm clobbers no memory, the stores would go. */
    if ( !ACCESS_ONCE(in_warn) )
    {
        ACCESS_ONCE(in_warn) = true;
        WARN();
        ACCESS_ONCE(in_warn) = false;
    }

    return "Hello World";
}

struct livepatch_func __section(".livepatch.funcs") dyntrace_warn = {
    .version = LIVEPATCH_PAYLOAD_VERSION,
    .name = dyntrace_warn_str,
    .new_addr = xen_dyntrace_warn,
    .old_addr = xen_extra_version,
    .new_size = DYNTRACE_SITE_SIZE,
    .old_size = DYNTRACE_SITE_SIZE,
};
