/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace, x86_64: patch sites.
 *
 * -fpatchable-function-entry=5 (asm/dyntrace.h) leaves five one-byte NOPs
 * at each function's entry (after ENDBR64 for cf_check functions).  At boot, still on one CPU,
 * each becomes a single 5-byte NOP; tracing a function replaces it with
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

#include <asm/flushtlb.h>
#include <asm/setup.h>

#define SITE_SIZE DYNTRACE_SITE_SIZE

void dyntrace_trampoline(void);

static const uint8_t nop5[SITE_SIZE] = DYNTRACE_SITE_BYTES;

static void make_call(uint8_t insn[SITE_SIZE], unsigned long site)
{
    int32_t rel = (long)dyntrace_trampoline -
                  (long)(site + DYNTRACE_RET_TO_SITE);

    BUILD_BUG_ON(1 + sizeof(rel) != SITE_SIZE);
    insn[0] = DYNTRACE_CALL_OPCODE;
    memcpy(&insn[1], &rel, sizeof(rel));
}

/* The compiler's sled: SITE_SIZE one-byte NOPs? */
static bool is_sled(unsigned long site)
{
    const uint8_t *p = (const uint8_t *)site;
    unsigned int i;

    for ( i = 0; i < SITE_SIZE; i++ )
        if ( p[i] != DYNTRACE_NOP1 )
            return false;

    return true;
}

/* Byte-wise: the string helpers may not be used while text is in flux. */
static void write_site(unsigned long site, const uint8_t insn[SITE_SIZE])
{
    volatile uint8_t *p = (uint8_t *)site;
    unsigned int i;

    for ( i = 0; i < SITE_SIZE; i++ )
        p[i] = insn[i];
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
