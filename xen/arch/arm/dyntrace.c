/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, arm64: patch sites.
 *
 * -fpatchable-function-entry=2 leaves two NOPs at each function's entry.  At
 * boot, still on one CPU, the first becomes "mov x9, x30" (x9 is a scratch
 * register, dead at a function's entry, so this changes nothing).  Tracing a
 * function then only swaps the second word between NOP and
 * "bl dyntrace_trampoline": one aligned 32-bit store, an instruction pair
 * the architecture allows to be modified while it may be executing.  The
 * trampoline finds the function's own return address in x9.
 *
 * Text is read-only: stores go through livepatch's writable alias of the
 * hypervisor image (vmap_of_xen_text, mapped by arch_livepatch_quiesce()),
 * with a data cache clean to the point of coherency after each; the
 * instruction cache is invalidated by arch_livepatch_revive() and every CPU
 * leaving the rendezvous runs an ISB.
 */

#include <xen/bug.h>
#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/livepatch.h>
#include <xen/mm.h>
#include <xen/time.h>

#include <asm/arm64/brk.h>
#include <asm/atomic.h>
#include <asm/insn.h>
#include <asm/livepatch.h>
#include <asm/page.h>

#define INSN_MOV_X9_X30 DYNTRACE_INSN_MOV_X9_X30
#define INSN_NOP        DYNTRACE_INSN_NOP

void dyntrace_trampoline(void);

static uint32_t call_insn(unsigned long site)
{
    /* The bl is the site's second word. */
    return aarch64_insn_gen_branch_imm(site + DYNTRACE_CALL_OFFSET,
                                       (unsigned long)dyntrace_trampoline,
                                       AARCH64_INSN_BRANCH_LINK);
}

static void write_word(unsigned long addr, uint32_t insn)
{
    uint32_t *alias = (void *)addr - (void *)_start + vmap_of_xen_text;

    ASSERT(vmap_of_xen_text);
    write_atomic(alias, insn);
    clean_and_invalidate_dcache_va_range(alias, sizeof(*alias));
}

bool arch_dyntrace_site_is_clean(unsigned long site)
{
    const uint32_t *w = (const uint32_t *)site;

    return w[0] == INSN_MOV_X9_X30 && w[1] == INSN_NOP;
}

void arch_dyntrace_site_bytes(unsigned long site, bool traced,
                              uint8_t expect[DYNTRACE_SITE_SIZE],
                              uint8_t actual[DYNTRACE_SITE_SIZE])
{
    uint32_t w[] = { INSN_MOV_X9_X30, traced ? call_insn(site) : INSN_NOP };

    BUILD_BUG_ON(sizeof(w) != DYNTRACE_SITE_SIZE);
    memcpy(expect, w, DYNTRACE_SITE_SIZE);
    memcpy(actual, (const void *)site, DYNTRACE_SITE_SIZE);
}

int arch_dyntrace_patch(unsigned long site, bool enable)
{
    const uint32_t *w = (const uint32_t *)site;
    uint32_t bl = call_insn(site);

    if ( bl == AARCH64_BREAK_FAULT )
        return -ERANGE;
    if ( w[0] != INSN_MOV_X9_X30 || w[1] != (enable ? INSN_NOP : bl) )
        return -EEXIST;
    write_word(site + DYNTRACE_CALL_OFFSET, enable ? bl : INSN_NOP);

    return 0;
}

void __init arch_dyntrace_init_sites(const unsigned long *sites,
                                     unsigned int nr)
{
    unsigned int i, converted = 0;
    unsigned long flags;

    if ( arch_livepatch_quiesce() )
    {
        printk(XENLOG_ERR "dyntrace: no writable alias of the text\n");
        return;
    }

    local_irq_save(flags);
    for ( i = 0; i < nr; i++ )
    {
        const uint32_t *w = (const uint32_t *)sites[i];

        if ( w[0] == INSN_NOP && w[1] == INSN_NOP )
        {
            write_word(sites[i], INSN_MOV_X9_X30);
            converted++;
        }
    }
    local_irq_restore(flags);

    arch_livepatch_revive();

    printk(XENLOG_INFO "dyntrace: %u of %u sites made \"mov x9, x30; nop\"\n",
           converted, nr);
}


#ifdef DYNTRACE_WITH_RETURN
/*
 * Returns can always be hooked: the return address is in a register the
 * trampoline saves (x9), and arm64 has no shadow stack Xen uses (GCS).
 */
int arch_dyntrace_return_usable(const char **why)
{
    return 0;
}
#endif
