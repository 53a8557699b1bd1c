/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host stress test of xen/common/dyntrace/return.c, the very same file,
 * built against the stub headers of include/: one CPU whose simulated calls
 * push and pop the real return stack, with
 *   - nesting up to beyond the stack's depth (overflow),
 *   - tail calls (a callee that returns through its caller's slot),
 *   - abandoned stacks (a longjmp back to the top, as reset_stack_and_jump()
 *     leaves frames that never return; the next calls reuse their slots;
 *     half of them also empty the return stack as x86's
 *     switch_stack_and_jump() does, and the first traced call after those
 *     comes some frames down and must be at depth 1: R7),
 *   - NMIs (and an NMI inside an NMI, as #MC in NMI) on a stack of their
 *     own, let in at every compiler barrier of return.c, whenever it masks
 *     IRQs, and where it asks whether it runs in NMI context; half of the
 *     rounds with the NMI stack above the ordinary one, half below.
 * Every return must come back with its own caller's return address, and the
 * hook must be told the functions returning, innermost tail callee first.
 * Anything else is an anomaly; return.c's own panic (a diverted return with
 * no entry) is one too.  Prints "stress return-host: ... anomalies=N".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/dyntrace.h>
#include "return.h"

#define STACK_WORDS 8192
#define MAX_NEST    80          /* beyond DT_RET_DEPTH: overflows */
#define LOG_MAX     256

/* One memory for the three stacks, so that their order is known. */
static unsigned long mem[3 * STACK_WORDS];

struct sim_stack {
    unsigned long *top;         /* one past the highest word */
    unsigned long *sp;          /* the next slot is sp - 1 */
};

/* The ordinary stack, and one for each level of NMI (an #MC in an NMI). */
static struct sim_stack ordinary, nmi_stacks[2];
static int in_nmi;              /* nesting of NMIs */
static bool nmi_above;
/* This round nests as deep as it can, beyond the return stack. */
static bool dive;
static unsigned long rng_state;
static unsigned long next_token = 0x1000, next_time;
static jmp_buf abandon_to;
/* Declared in x86's asm/current.h (patch 0019), which the stubs do not have. */
void dyntrace_stack_reset(void);
/* R7: the stack was reset with dyntrace_stack_reset(); the next push's depth. */
static bool stack_was_reset;
static unsigned long resets;

static unsigned long calls, hooked, returns, tails, abandons, nmis,
    anomalies, claims, claimed_told, abandoned_told, claimed_abandoned_told,
    claims_left;

/* The hook's log: the functions it was told about, in order. */
static unsigned long hook_log[LOG_MAX];
static unsigned int hook_n;

static unsigned long rnd(unsigned long n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state % n;
}

static void anomaly(const char *fmt, ...)
{
    va_list ap;

    if ( anomalies++ < 10 )
    {
        va_start(ap, fmt);
        fputs("anomaly: ", stdout);
        vprintf(fmt, ap);
        fputc('\n', stdout);
        va_end(ap);
    }
}

void stub_assert_failed(const char *what, const char *file, int line)
{
    anomaly("ASSERT(%s) at %s:%d", what, file, line);
}

void stub_panic(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("panic: ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
    printf("stress return-host: calls=%lu hooked=%lu returns=%lu tails=%lu "
           "abandons=%lu nmis=%lu anomalies=%lu (panicked)\n", calls, hooked,
           returns, tails, abandons, nmis, anomalies + 1);
    exit(1);
}

void dyntrace_return_trampoline(void)
{
}

#define TRAMPOLINE ((unsigned long)dyntrace_return_trampoline)

/* The cookie a claim of func's entry gives (R6). */
#define COOKIE(func) ((uint32_t)(func) ^ 0x5a5a5a5au)

/* The last function the first owner's hook was told, for the second's. */
static unsigned long last_told;

static void cf_check hook(const struct dt_ret_entry *e, unsigned int depth,
                          bool returned)
{
    unsigned long func = e->func;

    if ( !returned )
    {
        abandoned_told++;
        return;
    }
    if ( depth < 1 || depth > DT_RET_DEPTH || e->calltime >= next_time )
        anomaly("hook: %#lx at depth %u, called at %" PRIu64, func, depth,
                e->calltime);
    if ( e->cookie && e->cookie != COOKIE(func) )
        anomaly("hook: %#lx with another's cookie %#x", func, e->cookie);
    if ( hook_n < LOG_MAX )
        hook_log[hook_n] = func;
    hook_n++;
    last_told = func;
}

/* The second owner's hook: right after the first's, for the same entry. */
static void cf_check claim_hook(const struct dt_ret_entry *e,
                                unsigned int depth, bool returned)
{
    unsigned long func = e->func;

    if ( !returned )
    {
        claimed_abandoned_told++;
        return;
    }
    claimed_told++;
    if ( depth < 1 || depth > DT_RET_DEPTH || e->calltime >= next_time )
        anomaly("claim hook: %#lx at depth %u", func, depth);
    if ( func != last_told || e->cookie != COOKIE(func) )
        anomaly("claimed return of %#lx (cookie %#x) told after %#lx", func,
                e->cookie, last_told);
}

static void run_calls(struct sim_stack *s, unsigned int nest, bool may_abandon);

/* An NMI: a few balanced calls on the NMI stack; an NMI may nest once. */
void stub_nmi_point(void)
{
    struct sim_stack *st;
    unsigned int saved_n;
    unsigned long saved_log[LOG_MAX];
    bool saved_dive;

    if ( in_nmi >= 2 || rnd(8) )
        return;
    nmis++;
    st = &nmi_stacks[in_nmi];
    st->sp = st->top;
    saved_n = hook_n;
    memcpy(saved_log, hook_log, sizeof(hook_log));
    in_nmi++;
    saved_dive = dive;
    dive = false;
    run_calls(st, 0, false);
    dive = saved_dive;
    in_nmi--;
    /* The interrupted code's log is its own. */
    hook_n = saved_n;
    memcpy(hook_log, saved_log, sizeof(hook_log));
}

bool stub_in_nmi(void)
{
    bool nmi = in_nmi;

    stub_nmi_point();
    return nmi;
}

/*
 * A RET through slot: the value there, and while it is the return
 * trampoline, dyntrace_return() with the slot as the frame.
 */
static unsigned long do_ret(unsigned long *slot)
{
    unsigned long to = *slot;

    while ( to == TRAMPOLINE )
        to = dyntrace_return((unsigned long)slot);
    return to;
}

/*
 * The function func, called with its return address in *slot (a CALL put
 * token there; a tail call left its caller's).  Returns by the RET it
 * makes, unless it tail-calls (its callee makes the RET) or abandons the
 * stack.  chain: the functions whose returns this RET completes, innermost
 * last; expected in the hook's log innermost first.
 */
static void sim_function(struct sim_stack *s, unsigned long *slot,
                         unsigned long token, unsigned long func,
                         unsigned int nest, unsigned long *chain,
                         unsigned int nchain, bool may_abandon)
{
    unsigned int depth, i, log0;
    unsigned long to;

    calls++;
    /* R6: nothing to claim before this call pushed (a new CALL's slot). */
    if ( dt_ret_claim(slot, func, DT_RET_PROFILE, COOKIE(func)) )
        anomaly("function %#lx claimed an entry it did not push", func);
    depth = dt_ret_push(slot, func, next_time++, 0, DT_RET_GRAPH, 0);
    if ( stack_was_reset && !in_nmi )
    {
        stack_was_reset = false;
        if ( depth != 1 )
            anomaly("R7: first push after a stack reset at depth %u", depth);
    }
    if ( depth )
    {
        hooked++;
        chain[nchain++] = func;
        /* R6: a second owner claims it, once. */
        if ( !rnd(3) )
        {
            if ( !dt_ret_claim(slot, func, DT_RET_PROFILE, COOKIE(func)) )
                anomaly("function %#lx: its own entry not claimed", func);
            else if ( dt_ret_claim(slot, func, DT_RET_PROFILE, 0) )
                anomaly("function %#lx: claimed twice", func);
            else
                claims++;
        }
    }

    /* The body: calls of its own below its frame. */
    s->sp = slot;
    /* Subcritical (0.75 calls on average), or a straight dive. */
    if ( nest < MAX_NEST && (dive || !rnd(2)) )
        run_calls(s, nest + 1, may_abandon);
    s->sp = slot;

    if ( may_abandon && nest > 0 && !rnd(40) )
    {
        abandons++;
        longjmp(abandon_to, 1);
    }
    if ( nest < MAX_NEST && !rnd(6) )
    {
        tails++;
        sim_function(s, slot, token, func + 1, nest + 1, chain, nchain,
                     may_abandon);
        return;
    }

    log0 = hook_n;
    to = do_ret(slot);
    returns++;
    if ( to != token )
        anomaly("function %#lx returned to %#lx, not %#lx", func, to, token);
    if ( hook_n - log0 != nchain )
        anomaly("function %#lx: %u returns hooked, %u told", func, nchain,
                hook_n - log0);
    else
        for ( i = 0; i < nchain && log0 + i < LOG_MAX; i++ )
            if ( hook_log[log0 + i] != chain[nchain - 1 - i] )
                anomaly("function %#lx: return %u told as %#lx, not %#lx",
                        func, i, hook_log[log0 + i], chain[nchain - 1 - i]);
    hook_n = log0;
}

/* A few calls at the current depth of s. */
static void run_calls(struct sim_stack *s, unsigned int nest, bool may_abandon)
{
    unsigned long *base = s->sp;
    unsigned int i, n = dive ? 1 : 1 + rnd(2);

    for ( i = 0; i < n; i++ )
    {
        unsigned long chain[2 * MAX_NEST + 2];
        /* A CALL: the return address, below any locals. */
        unsigned long *slot = base - 1 - rnd(4);
        unsigned long token = next_token++;

        *slot = token;
        sim_function(s, slot, token, 0x100000 + rnd(64) * 16, nest, chain, 0,
                     may_abandon);
        s->sp = base;
    }
}

int main(int argc, char **argv)
{
    unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000;
    unsigned long seed = argc > 2 ? strtoul(argv[2], NULL, 0) : 1;
    unsigned int overflow, abandoned;
    unsigned long r;

    rng_state = seed * 0x9e3779b97f4a7c15UL + 1;
    dt_ret_set_hook(DT_RET_GRAPH, hook);
    dt_ret_set_hook(DT_RET_PROFILE, claim_hook);
    for ( r = 0; r < rounds; r++ )
    {
        nmi_above = r & 1;
        ordinary.top = mem + (nmi_above ? 1 : 3) * STACK_WORDS;
        nmi_stacks[0].top = mem + 2 * STACK_WORDS;
        nmi_stacks[1].top = mem + (nmi_above ? 3 : 1) * STACK_WORDS;
        /* A fresh stack, as after reset_stack_and_jump(). */
        ordinary.sp = ordinary.top - 1;
        /*
         * After a reset the first traced call comes some frames down, as in
         * Xen (the scheduler's frames were near the top): entries of the
         * abandoned frames above it would add to its depth (R7).
         */
        if ( stack_was_reset )
            ordinary.sp -= 1 + rnd(32);
        hook_n = 0;
        dive = !(r % 16);
        if ( setjmp(abandon_to) )
        {
            /* Half the abandons as x86's switch_stack_and_jump() does. */
            if ( rnd(2) )
            {
                dyntrace_stack_reset();
                stack_was_reset = true;
                resets++;
            }
            continue;
        }
        run_calls(&ordinary, 0, true);
    }
    dt_ret_counts(&overflow, &abandoned);
    /* The entries of the last round's abandoned frames: never dropped. */
    for ( r = 0; r < per_cpu__dt_ret_stacks.depth; r++ )
        if ( per_cpu__dt_ret_stacks.e[r].owners & DT_RET_PROFILE )
            claims_left++;
    printf("stress return-host: rounds=%lu calls=%lu hooked=%lu returns=%lu "
           "tails=%lu abandons=%lu nmis=%lu overflows=%u abandoned=%u "
           "abandoned_told=%lu claims=%lu claims_told=%lu "
           "claims_abandoned=%lu resets=%lu anomalies=%lu\n", rounds,
           calls, hooked, returns, tails, abandons, nmis, overflow, abandoned,
           abandoned_told, claims, claimed_told, claimed_abandoned_told,
           resets, anomalies);
    /* Every entry dropped is told once as gone (R2), to each owner. */
    if ( !abandoned || abandoned_told != abandoned )
    {
        printf("abandoned: %u dropped, %lu told\n", abandoned,
               abandoned_told);
        anomalies++;
    }
    /* Each claimed entry told once: returned, gone, or still there. */
    if ( !claims || !claimed_told ||
         claimed_told + claimed_abandoned_told + claims_left != claims )
    {
        printf("claims: %lu made, %lu told returned, %lu gone, %lu left\n",
               claims, claimed_told, claimed_abandoned_told, claims_left);
        anomalies++;
    }
    return anomalies ? 1 : 0;
}
