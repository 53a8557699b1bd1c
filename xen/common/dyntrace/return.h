/* SPDX-License-Identifier: GPL-2.0-only */
/* xen-dyntrace: return hooking (return.c). */
#ifndef DYNTRACE_RETURN_H
#define DYNTRACE_RETURN_H

#include <xen/dyntrace.h>

/* Hooked returns one CPU keeps at once; a deeper one is not hooked. */
#define DT_RET_DEPTH 64

/*
 * Run when a hooked function returns, IRQs off, maybe in NMI/MCE context:
 * its site, the calltime its entry gave, and its depth (1: the outermost
 * hooked call under way on this CPU).
 */
typedef void dt_ret_hook_t(unsigned long func, uint64_t calltime,
                           unsigned int depth);

/* The hook, set once at boot by the tracer that hooks returns. */
void dt_ret_set_hook(dt_ret_hook_t *hook);

/*
 * From an entry callback (IRQs off): divert the return of the function
 * whose return address waits at ret to dyntrace_return_trampoline, keeping
 * func and calltime for the hook.  Returns the call's depth (1: no other
 * hooked call under way), or 0 if the return is not hooked: max_depth
 * (0: none) reached, or the stack full (counted as an overflow).
 */
#ifdef ARCH_DYNTRACE_RETURN
unsigned int dt_ret_push(unsigned long *ret, unsigned long func,
                         uint64_t calltime, unsigned int max_depth);
#else
static inline unsigned int dt_ret_push(unsigned long *ret, unsigned long func,
                                       uint64_t calltime,
                                       unsigned int max_depth)
{
    return 0;
}
#endif

/* Since boot: returns not hooked for want of room; entries abandoned. */
void dt_ret_counts(unsigned int *overflow, unsigned int *abandoned);

#endif /* DYNTRACE_RETURN_H */
