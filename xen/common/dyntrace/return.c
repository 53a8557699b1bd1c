/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: return hooking.  An entry callback may divert a traced
 * function's return to the architecture's return trampoline; the original
 * return address waits on this CPU's return stack until dyntrace_return()
 * gives it back.  The invariants (docs/designs/dyntrace-return.md):
 *
 * R1  A frame is identified by the address of the slot its return address
 *     was read from (ret).  The stacks grow down: a live caller's frame is
 *     above its callee's, so the entries of one stack are in decreasing
 *     frame order, the top one the deepest.
 * R2  Xen abandons stacks without returning (reset_stack_and_jump() and
 *     the idle loop on x86, hypercall continuations): an entry whose frame
 *     is below (or, but R5, at) a new frame of ordinary context, or below a
 *     returning frame,
 *     belongs to a frame that is gone.  It is dropped, counted, and never
 *     given to another function.
 * R5  A tail call shares its caller's frame, whose return slot already
 *     holds the return trampoline: the callee's entry goes above the
 *     caller's with the same frame and the trampoline as its original
 *     return address, so the trampoline runs once for each.  Only a new
 *     frame whose slot holds anything else drops an entry of its own frame.
 * R3  A diverted return always finds its entry: an entry is dropped only
 *     under R2, and its frame can no longer return.  If it does not, the
 *     return address is lost: that is a bug, reported by a panic.
 * R4  Entries are pushed and popped with IRQs off; only NMI/MCE nest.  A
 *     push reserves its slot (depth) before filling it and a pop is done
 *     with its entry (its hooks have run) before giving the slot up, so a
 *     nested push works above; and
 *     in NMI/MCE context (their own stacks, whose order against the
 *     interrupted stack R1 cannot know) nothing is dropped at a push.
 *
 * R6  An entry may have several owners (function_graph, the profiler): the
 *     first callback of a call pushes it, a later one of the same call
 *     claims it (dt_ret_claim()) instead of pushing a second entry, and at
 *     the return each owner's hook runs once.  A claim takes only the top
 *     entry, and only if it is of the same frame and function: a tail
 *     call's callee, of its caller's frame but another function, pushes.
 * R9  A stack that is saved and later copied back (x86's wait queues)
 *     holds no diverted return: each is given back to its slot first
 *     (dyntrace_stack_unhook()), its entry dropped as abandoned; the copy
 *     back empties the return stack first (dyntrace_stack_reset()).
 *
 * The stacks are per CPU (x86: a pCPU's stack is reset, never carried to
 * another one) or per vCPU (Arm, ARCH_DYNTRACE_RET_PER_VCPU: each vCPU
 * keeps its own stack across context switches, frames of schedule()
 * included, and may resume them on another pCPU), and live as long as
 * their CPU: a return still pending when its owner stops or changes is
 * popped all the same, and its hook decides whether it still counts.
 */

#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/sched.h>
#include <xen/xmalloc.h>
#include <asm/atomic.h>
#include <asm/system.h>

#include "return.h"

static dt_ret_hook_t *ret_hooks[DT_RET_NR_HOOKS];
atomic_t dt_ret_overflows, dt_ret_abandoned;

void __init dt_ret_set_hook(unsigned int owner, dt_ret_hook_t *hook)
{
    unsigned int i;

    for ( i = 0; i < DT_RET_NR_HOOKS; i++ )
        if ( owner & (1u << i) )
            ret_hooks[i] = hook;
}

void dt_ret_counts(unsigned int *overflow, unsigned int *abandon)
{
    *overflow = atomic_read(&dt_ret_overflows);
    *abandon = atomic_read(&dt_ret_abandoned);
}

#ifdef ARCH_DYNTRACE_RETURN

/*
 * R6: each owner's hook once (set at boot, before any push), when the call
 * returned or, R2, its frame is gone (returned false).
 */
static always_inline void run_hooks(const struct dt_ret_entry *e,
                                    unsigned int depth, unsigned int owners,
                                    bool returned)
{
    dt_ret_hook_t *hook;

    if ( (owners & DT_RET_GRAPH) && (hook = ret_hooks[0]) != NULL )
        hook(e, depth, returned);
    if ( (owners & DT_RET_PROFILE) && (hook = ret_hooks[1]) != NULL )
        hook(e, depth, returned);
}

void dt_ret_run_hooks(const struct dt_ret_entry *e, unsigned int depth,
                      unsigned int owners)
{
    run_hooks(e, depth, owners, true);
}

/* R2: the entry at depth d is of a frame gone: count it, tell its owners. */
static void abandon(const struct dt_ret_stack *st, unsigned int d)
{
    atomic_inc(&dt_ret_abandoned);
    run_hooks(&st->e[d - 1], d, st->e[d - 1].owners, false);
}

#ifdef ARCH_DYNTRACE_RET_PER_VCPU
/*
 * The running vCPU's (dt_ret_stack()).  context_switch() sets current and
 * switches stacks with IRQs off and no traced function in between, so the
 * stack a frame is on and the return stack its entry is on always go
 * together.
 */
int dyntrace_vcpu_init(struct vcpu *v)
{
    v->arch.dyntrace_ret = xzalloc(struct dt_ret_stack);

    return v->arch.dyntrace_ret ? 0 : -ENOMEM;
}

void dyntrace_vcpu_destroy(struct vcpu *v)
{
    struct dt_ret_stack *st = v->arch.dyntrace_ret;

    v->arch.dyntrace_ret = NULL;
    xfree(st);
}
#else
DEFINE_PER_CPU(struct dt_ret_stack, dt_ret_stacks);

/*
 * x86's switch_stack_and_jump() (reset_stack_and_jump(), asm/current.h) is
 * about to put this CPU's stack pointer back at the top: every frame on
 * the stack is gone, and so is every return waiting on this CPU's return
 * stack (none can be an NMI's or MCE's: they do not switch stacks).  R2
 * would drop them only once a traced call came at or above their frames;
 * meanwhile they would add to the depth of every hooked call.
 */
void dyntrace_stack_reset(void)
{
    struct dt_ret_stack *st = dt_ret_stack(smp_processor_id());
    unsigned long flags;

    local_irq_save(flags);
    for ( ; st->depth; st->depth-- )
        abandon(st, st->depth);
    local_irq_restore(flags);
}

/*
 * x86's wait queues (common/wait.c): __prepare_to_wait() is about to save
 * this CPU's stack, from its own frame to the top, and schedule() away;
 * R7 then empties the return stack, and check_wakeup_from_wait() copies
 * the saved frames back later.  A slot still diverted in that copy would
 * return through the trampoline with no entry (R3's panic), or find
 * another call's entry at the same frame.  So every return waiting here is
 * given back to its slot first (R9), top down so that a tail call's caller
 * (R5) restores the address last, and dropped as abandoned: its return is
 * not seen.  A slot below this frame, or that no longer holds the
 * trampoline, is of a frame gone (R2): left alone.
 */
void dyntrace_stack_unhook(void)
{
    struct dt_ret_stack *st = dt_ret_stack(smp_processor_id());
    unsigned long flags;
#ifdef ARCH_DYNTRACE_SHADOW_STACK
    struct dt_shstk_cursor cursor = {};
#endif

    ASSERT(!arch_dyntrace_in_nmi());

    local_irq_save(flags);
    for ( ; st->depth; st->depth-- )
    {
        const struct dt_ret_entry *e = &st->e[st->depth - 1];
        unsigned long *slot = (unsigned long *)e->frame;

        /* A frame below this one is gone (R2): its memory may be ours. */
        if ( e->frame > (unsigned long)&flags &&
             *slot == (unsigned long)dyntrace_return_trampoline )
#ifdef ARCH_DYNTRACE_SHADOW_STACK
            arch_dyntrace_shstk_undivert(slot, e->ret, &cursor);
#else
            *slot = e->ret;
#endif
        abandon(st, st->depth);
    }
    local_irq_restore(flags);
}
#endif

/*
 * For backtraces (x86's _show_trace(), Arm's show_trace()): the return
 * address that a hooked slot's trampoline address stands for.  Reads only,
 * so that it works in any context (an NMI's watchdog dump, a panic): the
 * deepest entry of the slot's frame, then below it while a tail call (R5)
 * left the trampoline as the original return address.  Anything else is
 * returned as it is.  The return stack is per-CPU data on x86, there from
 * CPU_UP_PREPARE on; on Arm the running vCPU's.
 */
unsigned long dyntrace_ret_addr(unsigned long addr, const void *slot)
{
    const unsigned long tramp = (unsigned long)dyntrace_return_trampoline;
    const struct dt_ret_stack *st;
    unsigned int d;

    if ( addr != tramp )
        return addr;
#ifdef ARCH_DYNTRACE_RET_PER_VCPU
    /* The vCPU's stack: none before set_current() on an AP (Arm). */
    if ( !current )
        return addr;
#endif
    st = dt_ret_stack(smp_processor_id());
    if ( !st )
        return addr;
    for ( d = ACCESS_ONCE(st->depth); d; d-- )
        if ( arch_dyntrace_ret_frame_is(st->e[d - 1].frame, slot) )
            break;
    while ( d && st->e[d - 1].ret == tramp )
    {
        /* R5: the caller's entry, of the same frame, is just below. */
        if ( d < 2 || st->e[d - 2].frame != st->e[d - 1].frame )
            return addr;
        d--;
    }

    return d ? st->e[d - 1].ret : addr;
}

/* dt_ret_live_depth()'s unusual case: R2 and R5. */
unsigned int dt_ret_drop_gone(struct dt_ret_stack *st,
                              const unsigned long *ret)
{
    unsigned long frame = (unsigned long)ret;
    unsigned int d = st->depth;

    while ( d && (st->e[d - 1].frame < frame ||
                  (st->e[d - 1].frame == frame &&
                   *ret != (unsigned long)dyntrace_return_trampoline)) )
        abandon(st, d--);

    return d;
}

/*
 * dt_ret_pop_entry()'s unusual case: R2, frames below the returning one
 * are gone; R3, its own entry is there.  The stack is left at its depth.
 */
unsigned int dt_ret_drop_below(struct dt_ret_stack *st, unsigned long frame)
{
    unsigned int d = st->depth;

    while ( d && st->e[d - 1].frame < frame )
        abandon(st, d--);
    if ( unlikely(!d || st->e[d - 1].frame != frame) )
        dt_ret_lost(frame, d);
    st->depth = d;

    return d;
}

unsigned int dt_ret_push(unsigned long *ret, unsigned long func,
                         uint64_t calltime, unsigned int max_depth,
                         unsigned int owners, uint32_t cookie)
{
    struct dt_ret_stack *st = dt_ret_stack(smp_processor_id());
    struct dt_ret_entry *e;
    unsigned int depth;

    ASSERT(!local_irq_is_enabled());

    if ( unlikely(!st) )
        return 0;
    e = dt_ret_push_entry(st, ret, func, max_depth ? &max_depth : NULL,
                          owners, arch_dyntrace_in_nmi(), false, &depth);
    if ( !e )
        return 0;
    e->calltime = calltime;
    e->cookie = cookie;

    return depth;
}

bool dt_ret_claim(const unsigned long *ret, unsigned long func,
                  unsigned int owner, uint32_t cookie)
{
    struct dt_ret_stack *st = dt_ret_stack(smp_processor_id());
    unsigned int d;
    struct dt_ret_entry *e;

    ASSERT(!local_irq_is_enabled());

    /* R6: the top entry, pushed by this very call. */
    if ( unlikely(!st) || !(d = st->depth) )
        return false;
    e = &st->e[d - 1];
    if ( e->frame != (unsigned long)ret || e->func != func ||
         (e->owners & owner) ||
         *ret != (unsigned long)dyntrace_return_trampoline )
        return false;
    e->cookie = cookie;
    e->owners |= owner;

    return true;
}

unsigned int dt_ret_enclosing(const unsigned long *ret)
{
    struct dt_ret_stack *st = dt_ret_stack(smp_processor_id());
    unsigned int d;

    ASSERT(!local_irq_is_enabled());

    if ( unlikely(!st) )
        return 0;
    d = dt_ret_live_depth(st, ret, arch_dyntrace_in_nmi(), false);
    st->depth = d;

    return d ? st->e[d - 1].owners : 0;
}

/* R3 broken: nowhere to return to. */
void noreturn dt_ret_lost(unsigned long frame, unsigned int depth)
{
    panic("dyntrace: a diverted return (frame %#lx) has no entry on CPU%u "
          "(depth %u)\n", frame, smp_processor_id(), depth);
}

/* From the return trampoline, with the frame that returned. */
unsigned long dyntrace_return(unsigned long frame)
{
    struct dt_ret_stack *st = dt_ret_stack(smp_processor_id());
    const struct dt_ret_entry *e;
    unsigned long flags, ret;
    unsigned int d;

    local_irq_save(flags);
    /* R3: a diverted return was pushed on this very stack. */
    if ( unlikely(!st) )
        dt_ret_lost(frame, 0);
    e = dt_ret_pop_entry(st, frame, &d);
    run_hooks(e, d, e->owners, true);
    ret = dt_ret_release(st, e, d);
    local_irq_restore(flags);

    return ret;
}

#endif /* ARCH_DYNTRACE_RETURN */
