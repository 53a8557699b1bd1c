/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The livepatch entry points the tracer uses (patches/0003): scriptable by
 * the tests (unit-stub.h, stub_lp_*).
 */
#ifndef __XEN_LIVEPATCH_H__
#define __XEN_LIVEPATCH_H__

#include <xen/types.h>

int livepatch_run_quiesced(const char *name, int (*fn)(void *arg), void *arg,
                           uint32_t timeout);
int livepatch_check_permission(void);
int arch_livepatch_quiesce(void);
void arch_livepatch_revive(void);

#endif
