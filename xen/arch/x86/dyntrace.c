/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, x86_64: patch sites.
 *
 * -fpatchable-function-entry=5 (asm/dyntrace.h) leaves five bytes of NOP at
 * each function's entry (after ENDBR64 for cf_check functions): five
 * one-byte NOPs from gcc, one 5-byte NOP from clang.  At boot, still on one
 * CPU, each becomes our 5-byte NOP; tracing a function replaces it with
 * "call dyntrace_trampoline" (CALL rel32), inside the livepatch rendezvous.
 * CALL keeps call/return balanced for CET shadow stacks, and a direct call
 * needs no ENDBR64 at the trampoline.
 */

#include <xen/bug.h>
#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/mm.h>
#include <xen/string.h>
#include <xen/time.h>

#include <asm/cpufeature.h>
#include <asm/flushtlb.h>
#include <asm/setup.h>
#include <asm/shstk.h>

#define SITE_SIZE DYNTRACE_SITE_SIZE

void dyntrace_trampoline(void);
/* dyntrace-entry.S: the trampoline's call, and what it calls at boot. */
extern uint8_t dyntrace_entry_call[SITE_SIZE];
void dyntrace_slow_entry(void);
#ifdef DYNTRACE_WITH_RETURN
/* dyntrace-return.S: the return trampoline's call (of dyntrace_return()). */
extern uint8_t dyntrace_return_call[SITE_SIZE];
#endif

static const uint8_t nop5[SITE_SIZE] = DYNTRACE_SITE_BYTES;
static const uint8_t clang_sled[SITE_SIZE] = DYNTRACE_CLANG_SLED;
static const uint8_t jmp_over[2] = DYNTRACE_JMP_OVER;

/* CALL rel32's displacement, at at, to target. */
static int32_t call_rel(unsigned long at, const void *target)
{
    BUILD_BUG_ON(1 + sizeof(int32_t) != SITE_SIZE);

    return (long)target - (long)(at + SITE_SIZE);
}

/* "call target", as an instruction at at. */
static void call_insn(uint8_t insn[SITE_SIZE], unsigned long at,
                      const void *target)
{
    int32_t rel = call_rel(at, target);

    insn[0] = DYNTRACE_CALL_OPCODE;
    memcpy(&insn[1], &rel, sizeof(rel));
}

static void make_call(uint8_t insn[SITE_SIZE], unsigned long site)
{
    BUILD_BUG_ON(DYNTRACE_RET_TO_SITE != SITE_SIZE);
    call_insn(insn, site, dyntrace_trampoline);
}

/* What the compiler left: gcc's one-byte NOPs or clang's 5-byte NOP? */
static bool is_sled(unsigned long site)
{
    const uint8_t *p = (const uint8_t *)site;
    unsigned int i;

    if ( !memcmp(p, clang_sled, SITE_SIZE) )
        return true;
    for ( i = 0; i < SITE_SIZE; i++ )
        if ( p[i] != DYNTRACE_NOP1 )
            return false;

    return true;
}

/* One locked 2-byte store: atomic even across a cache line. */
static void write_head(unsigned long site, const uint8_t head[2])
{
    uint16_t v;

    memcpy(&v, head, sizeof(v));
    (void)xchg((volatile uint16_t *)site, v);
}

/*
 * Rewrite a site so that no CPU can ever fetch a torn instruction at its
 * start.  The rendezvous parks every online CPU, but an offline CPU parked
 * in play_dead() (park_offline_cpus) can be woken by an NMI, MCE or SMI and
 * run traced functions while we write.  So the site goes through
 *
 *   old insn  ->  "jmp .+5" + old tail  ->  "jmp .+5" + new tail  ->  new insn
 *
 * where each arrow is one atomic store (the jmp's two bytes, then the new
 * head) or writes only bytes that nothing executes (the tail under the jmp:
 * the jmp goes to the end of the site).  Every state is one whole
 * instruction at the site's start that either skips the site or calls the
 * trampoline.  xchg is a full barrier, so the stores are seen in this order.
 */
static void write_site(unsigned long site, const uint8_t insn[SITE_SIZE])
{
    volatile uint8_t *p = (uint8_t *)site;
    unsigned int i;

    write_head(site, jmp_over);
    for ( i = sizeof(jmp_over); i < SITE_SIZE; i++ )
        p[i] = insn[i];
    write_head(site, insn);
}

bool arch_dyntrace_site_is_clean(unsigned long site)
{
    return !memcmp((void *)site, nop5, SITE_SIZE);
}

void arch_dyntrace_site_bytes(unsigned long site, bool traced,
                              uint8_t expect[SITE_SIZE],
                              uint8_t actual[SITE_SIZE])
{
    if ( traced )
        make_call(expect, site);
    else
        memcpy(expect, nop5, SITE_SIZE);
    memcpy(actual, (const void *)site, SITE_SIZE);
}

int arch_dyntrace_patch(unsigned long site, bool enable)
{
    uint8_t call[SITE_SIZE];

    make_call(call, site);
    if ( memcmp((void *)site, enable ? nop5 : call, SITE_SIZE) )
        return -EEXIST;
    write_site(site, enable ? call : nop5);

    return 0;
}

/*
 * The trampolines' calls: the fast entry (and return) of the tracer whose
 * callback alone runs, or the dispatcher's (NULL).  In the rendezvous, text
 * writable: the same concerns as a site's.  The entry's call goes through
 * write_site() (a CPU woken in play_dead() meanwhile skips it: no record);
 * the return's must always return somewhere, so its target, one aligned
 * word, is replaced by one atomic store.
 */
#ifdef DYNTRACE_WITH_RETURN
void arch_dyntrace_set_fast(const void *entry, const void *ret)
#else
void arch_dyntrace_set_fast(const void *entry)
#endif
{
    unsigned long at = (unsigned long)dyntrace_entry_call;
    uint8_t insn[SITE_SIZE];

    call_insn(insn, at, entry ?: (const void *)dyntrace_slow_entry);
    if ( memcmp(dyntrace_entry_call, insn, SITE_SIZE) )
        write_site(at, insn);
#ifdef DYNTRACE_WITH_RETURN

    if ( !ret )
        ret = (const void *)dyntrace_return;
    at = (unsigned long)dyntrace_return_call + 1;
    ASSERT(IS_ALIGNED(at, sizeof(uint32_t)));
    (void)xchg((volatile uint32_t *)at, (uint32_t)call_rel(at - 1, ret));
#endif
}

void __init arch_dyntrace_init_sites(const unsigned long *sites,
                                     unsigned int nr)
{
    unsigned int i, converted = 0;
    unsigned long flags;

    /*
     * A half-written site is not an instruction: an interrupt arriving
     * between two byte writes of a function it then calls would execute
     * garbage.  Interrupts stay off for the whole conversion (only this CPU
     * is up; NMIs are not yet enabled as a watchdog at presmp time).
     *
     * As alternatives do: make .text writable (only our own TLB matters: the
     * APs are not up yet), write, then back to RX, which also cleans the
     * dirty bits that CET shadow stacks care about.
     */
    modify_xen_mappings_lite(XEN_VIRT_START + MB(2),
                             (unsigned long)__2M_text_end,
                             PAGE_HYPERVISOR_RWX);
    flush_local(FLUSH_TLB_GLOBAL);
    local_irq_save(flags);
    for ( i = 0; i < nr; i++ )
        if ( is_sled(sites[i]) )
        {
            write_site(sites[i], nop5);
            converted++;
        }
    local_irq_restore(flags);
    modify_xen_mappings_lite(XEN_VIRT_START + MB(2),
                             (unsigned long)__2M_text_end,
                             PAGE_HYPERVISOR_RX);
    flush_local(FLUSH_TLB_GLOBAL);

    printk(XENLOG_INFO "dyntrace: %u of %u sites made one NOP\n",
           converted, nr);
}


#ifdef DYNTRACE_WITH_RETURN
/*
 * Returns can be hooked with or without CET shadow stacks: with them, a
 * return is diverted on both stacks (R10, below).
 */
int arch_dyntrace_return_usable(const char **why)
{
    return 0;
}

#ifdef CONFIG_XEN_SHSTK
/*
 * How many words above SSP the shadow copy of a hooked return may be: the
 * calls from the site to here (trampoline, dispatcher, callback, thunk)
 * are fewer than half as many.
 */
#define SHSTK_SCAN 16

/*
 * The end (exclusive) of the shadow stack that ssp is on: the primary one
 * is stack page PRIMARY_SHSTK_SLOT, the IST (FRED: stack level) ones are
 * IST_SHSTK_SIZE each in page 0 (memguard_guard_stack()).  Their last word
 * is a supervisor token but with FRED, which writes none: the bound is the
 * page, never a token.
 */
static const unsigned long *shstk_end(unsigned long ssp)
{
    unsigned long base = ssp & ~(STACK_SIZE - 1);

    if ( ssp - base >= PRIMARY_SHSTK_SLOT * PAGE_SIZE )
        return (const unsigned long *)(base +
                                       (PRIMARY_SHSTK_SLOT + 1) * PAGE_SIZE);

    return (const unsigned long *)((ssp | (IST_SHSTK_SIZE - 1)) + 1);
}

/*
 * R10: divert the return waiting at ret on both stacks.  The traced
 * function's caller's CALL pushed that address on both; the site's CALL
 * then pushed site + DYNTRACE_RET_TO_SITE on both, the word just below it
 * on the shadow stack.  From there down to SSP the shadow stack holds only
 * the return addresses of the calls that led here: an interrupt's frame
 * and token are gone once its handler returned, and NMI/MCE run on shadow
 * stacks of their own (their IST ones), where the same holds.  So the copy
 * is the word above the first site + DYNTRACE_RET_TO_SITE found up from
 * SSP, and must equal *ret.  A recursive call of the same function is
 * further up: the first found is this call's.  Not found: a function
 * entered by a JMP (idle_loop() from reset_stack_and_jump(): its "return
 * address" is no return address, and the shadow stack's end is above its
 * site's), and nothing is changed: not hooked.  A CPU whose shadow stacks
 * are not on (S3 resume and tboot's shutdown run traced code with CET
 * off) diverts the stack's copy alone, as without them.
 */
bool arch_dyntrace_shstk_divert(unsigned long *ret, unsigned long site)
{
    const unsigned long tramp = (unsigned long)dyntrace_return_trampoline;
    unsigned long ssp = rdssp();
    unsigned long *s = (unsigned long *)ssp;
    const unsigned long *end;
    unsigned int i;

    if ( ssp == SSP_NO_SHSTK )
    {
        *ret = tramp;
        return true;
    }

    end = shstk_end(ssp);
    for ( i = 0; i < SHSTK_SCAN && &s[i + 1] < end; i++ )
    {
        if ( s[i] != site + DYNTRACE_RET_TO_SITE )
            continue;
        if ( s[i + 1] != *ret )
            break;
        wrss(tramp, &s[i + 1]);
        *ret = tramp;

        return true;
    }

    return false;
}

/*
 * R9 with R10: each diverted return still live on this stack has one
 * shadow copy holding the return trampoline, in the same order as the
 * slots (frames are pushed on both stacks together); nothing else there
 * holds that address (the return trampoline's own CALL pushes another).
 * So the slots, given top down, take those copies in order up from SSP,
 * a tail call's two entries (R5: the same slot, given one after the
 * other) the same one.  A copy not found would leave the two stacks
 * different, a #CP at that frame's return far from here: a panic now.
 */
void arch_dyntrace_shstk_undivert(unsigned long *slot, unsigned long ret,
                                  struct dt_shstk_cursor *c)
{
    const unsigned long tramp = (unsigned long)dyntrace_return_trampoline;
    unsigned long ssp = rdssp();
    const unsigned long *end;
    unsigned long *s;

    if ( ssp == SSP_NO_SHSTK )
    {
        *slot = ret;
        return;
    }
    if ( slot != c->slot )
    {
        end = shstk_end(ssp);
        s = c->shadow ? c->shadow + 1 : (unsigned long *)ssp;
        while ( s < end && *s != tramp )
            s++;
        if ( s >= end )
            panic("dyntrace: no shadow stack copy of the diverted return at "
                  "%p on CPU%u\n", slot, smp_processor_id());
        c->slot = slot;
        c->shadow = s;
    }
    wrss(ret, c->shadow);
    *slot = ret;
}
#endif /* CONFIG_XEN_SHSTK */
#endif
