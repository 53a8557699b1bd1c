/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace test payload, x86 with CET shadow stacks: the negative control
 * of the tests that run with shadow stacks on.  It replaces
 * arch_dyntrace_shstk_divert() with a divert of the stack's copy alone, as
 * before shadow stacks were handled (R10, docs/designs/dyntrace-return.md),
 * so that the first hooked return is a #CP: the tests' host then knows
 * that shadow stacks are enforced where they run, and that a divert which
 * forgot the shadow copy would not pass them.  It takes the host down: load
 * it nowhere else.
 */
#include <xen/dyntrace.h>
#include <xen/lib.h>
#include <xen/livepatch.h>
#include <xen/livepatch_payload.h>
#include <xen/types.h>

#include <public/sysctl.h>

static const char dyntrace_noshstk_str[] = "arch_dyntrace_shstk_divert";

static bool dyntrace_noshstk_divert(unsigned long *ret, unsigned long site)
{
    *ret = (unsigned long)dyntrace_return_trampoline;

    return true;
}

struct livepatch_func __section(".livepatch.funcs") dyntrace_noshstk = {
    .version = LIVEPATCH_PAYLOAD_VERSION,
    .name = dyntrace_noshstk_str,
    .new_addr = dyntrace_noshstk_divert,
    .old_addr = arch_dyntrace_shstk_divert,
    .new_size = DYNTRACE_SITE_SIZE,
    .old_size = DYNTRACE_SITE_SIZE,
};
