/* SPDX-License-Identifier: GPL-2.0-only */
/* xen-dyntrace: return hooking (return.c). */
#ifndef DYNTRACE_RETURN_H
#define DYNTRACE_RETURN_H

#include <xen/dyntrace.h>

/* Hooked returns one CPU keeps at once; a deeper one is not hooked. */
#define DT_RET_DEPTH 64

/*
 * Who a hooked return is for (an entry's owners): the hook of each owner
 * runs when the function returns.  DT_RET_TREE is a mark with no hook: the
 * call is inside a set_graph_function tree (graph.c).
 */
#define DT_RET_GRAPH    (1u << 0)       /* function_graph records it */
#define DT_RET_PROFILE  (1u << 1)       /* the profiler times it */
#define DT_RET_NR_HOOKS 2
#define DT_RET_TREE     (1u << 2)

/*
 * Run when a hooked function returns, IRQs off, maybe in NMI/MCE context:
 * its site, the calltime its entry gave, its depth (1: the outermost
 * hooked call under way on this CPU), and the cookie of its entry.
 */
typedef void dt_ret_hook_t(unsigned long func, uint64_t calltime,
                           unsigned int depth, uint32_t cookie);

/* Owner's hook (DT_RET_GRAPH or DT_RET_PROFILE), set once at boot. */
void dt_ret_set_hook(unsigned int owner, dt_ret_hook_t *hook);

/*
 * From an entry callback (IRQs off): divert the return of the function
 * whose return address waits at ret to dyntrace_return_trampoline, keeping
 * func, calltime, owners and cookie for the hooks.  Returns the call's depth
 * (1: no other hooked call under way), or 0 if the return is not hooked:
 * max_depth (0: none) reached, or the stack full (counted as an overflow).
 */
#ifdef ARCH_DYNTRACE_RETURN
unsigned int dt_ret_push(unsigned long *ret, unsigned long func,
                         uint64_t calltime, unsigned int max_depth,
                         unsigned int owners, uint32_t cookie);
/*
 * From an entry callback run after another one of the same call: if that
 * one hooked the return (the top entry is of this frame and func, without
 * owner), add owner and cookie to its entry and return true.  Otherwise
 * false: the caller pushes an entry of its own.
 */
bool dt_ret_claim(const unsigned long *ret, unsigned long func,
                  unsigned int owner, uint32_t cookie);
/*
 * The owners of the hooked call under way that a call whose return address
 * waits at ret runs inside (entries of abandoned frames dropped first, R2),
 * or 0 if none.
 */
unsigned int dt_ret_enclosing(const unsigned long *ret);
#else
static inline unsigned int dt_ret_push(unsigned long *ret, unsigned long func,
                                       uint64_t calltime,
                                       unsigned int max_depth,
                                       unsigned int owners, uint32_t cookie)
{
    return 0;
}
static inline bool dt_ret_claim(const unsigned long *ret, unsigned long func,
                                unsigned int owner, uint32_t cookie)
{
    return false;
}
static inline unsigned int dt_ret_enclosing(const unsigned long *ret)
{
    return 0;
}
#endif

/* Since boot: returns not hooked for want of room; entries abandoned. */
void dt_ret_counts(unsigned int *overflow, unsigned int *abandoned);

#endif /* DYNTRACE_RETURN_H */
