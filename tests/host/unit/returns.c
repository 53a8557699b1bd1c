/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Return hooking (return.c) where a stack is saved and copied back, and
 * where a backtrace reads it.  The profiler hooks the returns: a call
 * comes through the dispatcher with the address of its return slot on a
 * simulated stack (outer calls higher, R1), as the x86 trampoline passes
 * it.  return.c's entry points used here are looked up weakly, so that
 * the tests also build against an older return.c (UNIT_XEN_SRC) and fail
 * there instead of not linking.
 */
#include <string.h>

#include <xen/dyntrace.h>
#include <xen/sched.h>

#include "unit.h"

#define NF    64
#define NCPUS 4
#define DEPTH 8

void __attribute__((weak)) dyntrace_stack_unhook(void);
unsigned long __attribute__((weak)) dyntrace_ret_addr(unsigned long addr,
                                                      const void *slot);

/*
 * The simulated frames' slots: on the real stack, in the test's own frame,
 * above those of the functions it calls, as a live caller's are (return.c
 * leaves a slot below its own frame alone: R2).
 */
static unsigned long *stack;
#define SLOT(depth) (&stack[DEPTH - 1 - (depth)])
#define TRAMPOLINE ((unsigned long)dyntrace_return_trampoline)

/* A call of fn on CPU 1 by v, its return waiting at slot: hooked? */
static bool call_at(struct vcpu *v, unsigned int fn, unsigned long *slot)
{
    struct stub_ctx ctx = stub_ctx_enter(1, v, true);

    if ( *slot != TRAMPOLINE )   /* R5: a tail call keeps the trampoline */
        *slot = unit_ret_of(fn);
    dyntrace_dispatch(img_addr(fn), unit_ret_of(fn), slot);
    stub_ctx_restore(ctx);

    return *slot == TRAMPOLINE;
}

/*
 * The function whose return waits at slot returns on CPU 1: through the
 * return trampoline if the slot holds it (dyntrace_return(), which panics
 * if the slot has no entry, R3), else straight to the slot's address.
 */
static unsigned long return_at(unsigned long *slot)
{
    struct stub_ctx ctx;
    unsigned long ret = *slot;

    if ( ret != TRAMPOLINE )
        return ret;
    ctx = stub_ctx_enter(1, stub_guest_vcpu(1, 0), true);
    ret = dyntrace_return((unsigned long)slot);
    stub_ctx_restore(ctx);

    return ret;
}

static bool profiler_on(void)
{
    long r1 = tool_write("set_function_filter",
                         "gfunc_002 gfunc_003 gfunc_004");
    long r2 = tool_write_bool("function_profile_enabled", 1);

    if ( r1 || r2 )
        diag("profiler_on: %ld %ld", r1, r2);

    return !r1 && !r2;
}

/*
 * x86's wait queue: __prepare_to_wait() saves the stack from its frame up
 * and the vCPU schedules away (R7 empties the return stack; another vCPU
 * runs and hooks calls at the same addresses, abandoned by its own switch);
 * check_wakeup_from_wait() copies the saved frames back and they return.
 */
void t_return_wait_queue(void)
{
    struct vcpu *v = stub_guest_vcpu(1, 0), *other = stub_guest_vcpu(2, 0);
    unsigned long frames[DEPTH] = { 0 }, saved[DEPTH];
    struct stub_ctx ctx;
    bool good;

    stack = frames;
    boot(NCPUS, NF);
    good = profiler_on() && call_at(v, 2, SLOT(0)) &&
           call_at(v, 3, SLOT(1)) && call_at(v, 4, SLOT(2));
    if ( !good )
        diag("the calls were not hooked");
    /* __prepare_to_wait(): unhook, then the copy. */
    ctx = stub_ctx_enter(1, v, false);
    if ( dyntrace_stack_unhook )
        dyntrace_stack_unhook();
    else
        diag("return.c has no dyntrace_stack_unhook()");
    memcpy(saved, frames, sizeof(frames));
    /* schedule(): the context switch resets the stack (R7). */
    stub_ctx_enter(1, other, false);
    dyntrace_stack_reset();
    stub_ctx_restore(ctx);
    /* Another vCPU hooks returns at the same frames, then switches away. */
    good &= call_at(other, 4, SLOT(0)) && call_at(other, 3, SLOT(1));
    ctx = stub_ctx_enter(1, v, false);
    dyntrace_stack_reset();
    stub_ctx_restore(ctx);
    /* check_wakeup_from_wait(): the frames come back and return. */
    memcpy(frames, saved, sizeof(frames));
    good &= SLOT(2)[0] == unit_ret_of(4) && SLOT(1)[0] == unit_ret_of(3) &&
            SLOT(0)[0] == unit_ret_of(2);
    good &= return_at(SLOT(2)) == unit_ret_of(4) &&
            return_at(SLOT(1)) == unit_ret_of(3) &&
            return_at(SLOT(0)) == unit_ret_of(2);
    ok(good, "return: a stack saved by a wait queue holds its callers' "
       "return addresses, not the trampoline, and returns to them after "
       "a switch and another vCPU's hooked calls at the same frames");
}

/* Backtraces: dyntrace_ret_addr() for each slot of a hooked stack. */
void t_return_backtrace(void)
{
    struct vcpu *v = stub_guest_vcpu(1, 0);
    unsigned long frames[DEPTH] = { 0 }, plain;
    struct stub_ctx ctx;
    bool good;

    stack = frames;
    boot(NCPUS, NF);
    plain = img_addr(9) + 0x20;
    /* 2 calls 3, which tail-calls 4 (R5: one slot, two entries). */
    good = profiler_on() && call_at(v, 2, SLOT(0)) &&
           call_at(v, 3, SLOT(1)) && call_at(v, 4, SLOT(1));
    if ( !dyntrace_ret_addr )
    {
        ok(false, "return: backtraces: return.c has no dyntrace_ret_addr()");
        return;
    }
    ctx = stub_ctx_enter(1, v, false);
    good &= dyntrace_ret_addr(SLOT(0)[0], SLOT(0)) == unit_ret_of(2) &&
            dyntrace_ret_addr(SLOT(1)[0], SLOT(1)) == unit_ret_of(3) &&
            /* Not the trampoline: as it is. */
            dyntrace_ret_addr(plain, SLOT(2)) == plain &&
            /* The trampoline's address in a slot with no entry. */
            dyntrace_ret_addr(TRAMPOLINE, SLOT(3)) == TRAMPOLINE;
    /* Another CPU's return stack has none of these entries. */
    stub_ctx_enter(2, v, false);
    good &= dyntrace_ret_addr(SLOT(0)[0], SLOT(0)) == TRAMPOLINE;
    /* A CPU not up yet: an empty return stack. */
    stub_ctx_enter(NCPUS + 1, NULL, false);
    good &= dyntrace_ret_addr(SLOT(0)[0], SLOT(0)) == TRAMPOLINE;
    stub_ctx_restore(ctx);
    /* They still return as usual. */
    good &= return_at(SLOT(1)) == TRAMPOLINE &&   /* 4's, then 3's */
            return_at(SLOT(1)) == unit_ret_of(3) &&
            return_at(SLOT(0)) == unit_ret_of(2);
    ok(good, "return: a backtrace gets each hooked slot's real return "
       "address (a tail call's too), and the trampoline's address where "
       "the slot has no entry or the CPU is another or not up");
}
