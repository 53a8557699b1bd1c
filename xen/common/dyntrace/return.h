/* SPDX-License-Identifier: GPL-2.0-only */
/* dyntrace: return hooking (return.c). */
#ifndef DYNTRACE_RETURN_H
#define DYNTRACE_RETURN_H

#include <xen/dyntrace.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/sched.h>
#include <asm/atomic.h>
#include <asm/system.h>

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

#ifdef ARCH_DYNTRACE_RETURN
/*
 * One hooked return waiting (return.c has the rules, R1-R7).  ctx is the
 * owner's: function_graph keeps there the context of its entry record,
 * which its return record repeats.
 */
struct dt_ret_entry {
    unsigned long frame;        /* R1: the address of the return slot */
    unsigned long ret;          /* the original return address */
    unsigned long func;         /* the traced function's site */
    uint64_t calltime;          /* arch_dyntrace_stamp() at the entry */
    uint64_t ctx;
    uint32_t cookie;            /* the profiler's (profile.c) */
    unsigned int owners;        /* DT_RET_*: whose hooks run (R6) */
};

struct dt_ret_stack {
    unsigned int depth;         /* entries in use, abandoned ones too */
    struct dt_ret_entry e[DT_RET_DEPTH];
};

/* Since boot: returns not hooked for want of room; entries abandoned. */
extern atomic_t dt_ret_overflows, dt_ret_abandoned;

/*
 * The stack a call pushes on: the running vCPU's where each vCPU keeps its
 * own (ARCH_DYNTRACE_RET_PER_VCPU: NULL until allocated, then nothing is
 * hooked), otherwise this CPU's.
 */
#ifdef ARCH_DYNTRACE_RET_PER_VCPU
static always_inline struct dt_ret_stack *dt_ret_stack(unsigned int cpu)
{
    return current->arch.dyntrace_ret;
}
#else
DECLARE_PER_CPU(struct dt_ret_stack, dt_ret_stacks);
static always_inline struct dt_ret_stack *dt_ret_stack(unsigned int cpu)
{
    return &per_cpu(dt_ret_stacks, cpu);
}
#endif

/*
 * R2: the depth once the entries of frames gone are dropped, for a new
 * frame whose return address waits at ret; R4: none in NMI/MCE context
 * (nmi); R5: a tail call keeps its caller.  The usual case inline: no
 * entry, or the top one of a caller's frame (above).  fast: called from a
 * fast entry (ARCH_DYNTRACE_FAST_ENTRY), which makes no C call.
 */
unsigned int dt_ret_drop_gone(struct dt_ret_stack *st,
                              const unsigned long *ret);
static always_inline unsigned int dt_ret_live_depth(struct dt_ret_stack *st,
                                                    const unsigned long *ret,
                                                    bool nmi, bool fast)
{
    unsigned int d = st->depth;

    if ( likely(!d || st->e[d - 1].frame > (unsigned long)ret) || nmi )
        return d;
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    /* From a fast entry: through a thunk that keeps every register. */
    if ( fast )
        return arch_dyntrace_fast_drop_gone(st, ret);
#endif

    return dt_ret_drop_gone(st, ret);
}

/*
 * The push itself, IRQs off, for callers on the hot path: divert the
 * return waiting at ret and keep where it goes and the traced function;
 * the caller fills calltime, ctx and cookie once it returns, before the
 * function it hooks returns.  *depth: the call's depth (1: no other hooked
 * call under way).  NULL, with the stack left at its live depth: not
 * hooked, max_depth (0: none) reached, or the stack full or (R10) no
 * shadow stack copy found (both counted).  fast: as for
 * dt_ret_live_depth().
 */
static always_inline struct dt_ret_entry *
dt_ret_push_entry(struct dt_ret_stack *st, unsigned long *ret,
                  unsigned long func, const uint32_t *max_depth,
                  unsigned int owners, bool nmi, bool fast,
                  unsigned int *depth)
{
    unsigned int d = dt_ret_live_depth(st, ret, nmi, fast), max;
    struct dt_ret_entry *e;

    max = max_depth ? ACCESS_ONCE(*max_depth) : 0;
    if ( unlikely(d >= DT_RET_DEPTH) || (max && d >= max) )
    {
        if ( d >= DT_RET_DEPTH )
            atomic_inc(&dt_ret_overflows);
        st->depth = d;
        return NULL;
    }

    /* R4: reserve, then fill; a nested push goes above. */
    st->depth = d + 1;
    barrier();
    e = &st->e[d];
    e->frame = (unsigned long)ret;
    e->ret = *ret;
    e->func = func;
    e->owners = owners;
#ifdef ARCH_DYNTRACE_SHADOW_STACK
    /* R10: on both stacks, or not at all (counted as no room). */
    if ( unlikely(!arch_dyntrace_divert(
                      ret, func, (unsigned long)dyntrace_return_trampoline,
                      fast)) )
    {
        atomic_inc(&dt_ret_overflows);
        st->depth = d;
        return NULL;
    }
#else
    *ret = (unsigned long)dyntrace_return_trampoline;
#endif
    *depth = d + 1;

    return e;
}

/* R3 broken: a diverted return has no entry (a panic). */
void noreturn dt_ret_lost(unsigned long frame, unsigned int depth);

/*
 * The pop, IRQs off, for the frame whose diverted return ran: drop the
 * entries of frames gone below it (R2) and find its own (R3).  *depth: its
 * depth.  The entry stays reserved (R4) until dt_ret_release().
 */
unsigned int dt_ret_drop_below(struct dt_ret_stack *st, unsigned long frame);
static always_inline const struct dt_ret_entry *
dt_ret_pop_entry(struct dt_ret_stack *st, unsigned long frame,
                 unsigned int *depth)
{
    unsigned int d = st->depth;

    /* The usual case: the top entry is the frame's. */
    if ( unlikely(!d || st->e[d - 1].frame != frame) )
        d = dt_ret_drop_below(st, frame);
    *depth = d;

    return &st->e[d - 1];
}

/* Done with the entry at depth: give it up, and where to return to. */
static always_inline unsigned long dt_ret_release(struct dt_ret_stack *st,
                                                  const struct dt_ret_entry *e,
                                                  unsigned int depth)
{
    unsigned long ret = e->ret;

    /* R4: read, then give the slot up; a nested push went above. */
    barrier();
    st->depth = depth - 1;

    return ret;
}

/* The hooks of owners (DT_RET_*) for e, returned at depth. */
void dt_ret_run_hooks(const struct dt_ret_entry *e, unsigned int depth,
                      unsigned int owners);

#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * A fast return (x86: the return trampoline's call while owner's tracer
 * runs alone), instead of dyntrace_return(): the pop, owner's own work
 * inline (done(stack, entry, depth), always inline), the hooks of any
 * other owner of the entry (one pushed before the last switch), the
 * release.  Returns where the function returns to.
 */
static always_inline unsigned long dt_ret_fast_return(
    unsigned long frame, unsigned int owner,
    void (*done)(struct dt_ret_stack *st, const struct dt_ret_entry *e,
                 unsigned int depth))
{
    struct dt_ret_stack *st = dt_ret_stack(smp_processor_id());
    const struct dt_ret_entry *e;
    unsigned long flags, ret;
    unsigned int d, owners;

    local_irq_save(flags);
    e = dt_ret_pop_entry(st, frame, &d);
    owners = e->owners;
    if ( owners & owner )
        done(st, e, d);
    owners &= ~(owner | DT_RET_TREE);
    if ( unlikely(owners) )
        dt_ret_run_hooks(e, d, owners);
    ret = dt_ret_release(st, e, d);
    arch_dyntrace_irq_restore(flags);

    return ret;
}
#endif
#endif /* ARCH_DYNTRACE_RETURN */

/*
 * Run when a hooked function returns (returned), or once its frame is gone
 * (R2: !returned, at the next push or pop that finds it, or at an x86 stack
 * reset), IRQs off, maybe in NMI/MCE context: its entry, and its depth (1:
 * the outermost hooked call under way on this CPU).
 */
struct dt_ret_entry;
typedef void dt_ret_hook_t(const struct dt_ret_entry *e, unsigned int depth,
                           bool returned);

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
