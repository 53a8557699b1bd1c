/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake hypervisor image: a text area [_stext, _etext) of functions
 * 64 bytes apart, each starting with gcc's patchable-entry sled (five 0x90)
 * unless it has no site; an init-text area whose functions have sites too
 * (sites.c must drop them); the compiler's table of sites
 * (__patchable_function_entries_start/_end, in no particular order); a
 * symbol table over all of it; and a host version of the x86 arch hooks
 * (arch/x86/dyntrace.c) acting on those bytes, with the byte values of the
 * repository's asm/dyntrace.h.
 */
#include <stdio.h>
#include <string.h>

#include <xen/dyntrace.h>
#include <xen/lib.h>
#include <xen/symbols.h>

#include "unit-stub.h"

#define FUNC_STRIDE   64
#define NR_INIT_FUNCS 4
#define TABLE_SLOTS   (IMG_MAX_FUNCS + NR_INIT_FUNCS)

/*
 * Text: IMG_MAX_FUNCS functions, "nosite_fn" (no site), the trampoline.
 * Sizes as literals for the assembler: (128 + 2) * 64 = 8320, 4 * 64 = 256,
 * (128 + 4) * 8 = 1056.
 */
__asm__ (
    ".pushsection .data.stub_image, \"aw\"\n"
    ".balign 64\n"
    ".globl _stext\n_stext:\n.zero 8320\n"
    ".globl _etext\n_etext:\n"
    ".balign 64\n"
    "stub_inittext:\n.zero 256\n"
    ".balign 8\n"
    ".globl __patchable_function_entries_start\n"
    "__patchable_function_entries_start:\n.zero 1056\n"
    ".globl __patchable_function_entries_end\n"
    "__patchable_function_entries_end:\n"
    ".popsection\n");

extern char stub_inittext[];
extern unsigned long __patchable_function_entries_start[];
extern unsigned long __patchable_function_entries_end[];

struct sym {
    unsigned long addr, size;
    char name[40];
};

static struct sym syms[IMG_MAX_FUNCS + NR_INIT_FUNCS + 2];
static unsigned int nr_syms, nr_funcs;

static const uint8_t nop5[DYNTRACE_SITE_SIZE] = DYNTRACE_SITE_BYTES;

static unsigned long trampoline(void)
{
    return (unsigned long)_stext + (IMG_MAX_FUNCS + 1) * FUNC_STRIDE;
}

static void add_sym(unsigned long addr, const char *name)
{
    struct sym *s = &syms[nr_syms++];

    s->addr = addr;
    s->size = FUNC_STRIDE;
    snprintf(s->name, sizeof(s->name), "%s", name);
}

void img_setup(unsigned int nfuncs, bool no_sites)
{
    unsigned long *tab = __patchable_function_entries_start;
    unsigned int i, n = 0;
    char name[40];

    BUILD_BUG_ON(TABLE_SLOTS * sizeof(long) != 1056);
    ASSERT(nfuncs <= IMG_MAX_FUNCS);
    ASSERT(__patchable_function_entries_end - tab == TABLE_SLOTS);
    ASSERT(_etext - _stext == (IMG_MAX_FUNCS + 2) * FUNC_STRIDE);

    memset(_stext, 0xcc, _etext - _stext);
    memset(stub_inittext, 0xcc, NR_INIT_FUNCS * FUNC_STRIDE);
    nr_syms = 0;
    nr_funcs = nfuncs;

    /* Symbols in address order: text, then init text. */
    for ( i = 0; i < nfuncs; i++ )
    {
        /* Some are static functions: Xen names them "file.c#name". */
        if ( i % 4 == 1 )
            snprintf(name, sizeof(name), "f%u.c#lfunc_%03u", i % 3, i);
        else
            snprintf(name, sizeof(name), "gfunc_%03u", i);
        add_sym((unsigned long)_stext + i * FUNC_STRIDE, name);
        memset(_stext + i * FUNC_STRIDE, DYNTRACE_NOP1, DYNTRACE_SITE_SIZE);
    }
    add_sym((unsigned long)_stext + IMG_MAX_FUNCS * FUNC_STRIDE, "nosite_fn");
    add_sym(trampoline(), "dyntrace_trampoline");
    for ( i = 0; i < NR_INIT_FUNCS; i++ )
    {
        snprintf(name, sizeof(name), "init_fn_%u", i);
        add_sym((unsigned long)stub_inittext + i * FUNC_STRIDE, name);
        memset(stub_inittext + i * FUNC_STRIDE, DYNTRACE_NOP1,
               DYNTRACE_SITE_SIZE);
    }

    /*
     * The compiler's table, as the linker leaves it: not sorted, with the
     * init-text sites among the others.  Unused slots hold init sites too.
     */
    for ( i = 0; i < TABLE_SLOTS; i++ )
        tab[i] = (unsigned long)stub_inittext + (i % NR_INIT_FUNCS) *
                                                FUNC_STRIDE;
    if ( !no_sites )
        for ( i = nfuncs; i-- > 0; )
        {
            if ( n == 2 || n == nfuncs / 2 )
                n++;            /* leave an init site here */
            tab[n++] = (unsigned long)_stext + i * FUNC_STRIDE;
        }
}

unsigned int img_nfuncs(void)
{
    return nr_funcs;
}

const char *img_name(unsigned int i)
{
    ASSERT(i < nr_funcs);
    return syms[i].name;
}

unsigned long img_addr(unsigned int i)
{
    ASSERT(i < nr_funcs);
    return syms[i].addr;
}

const char *symbols_lookup(unsigned long addr, unsigned long *symbolsize,
                           unsigned long *offset, char *namebuf)
{
    unsigned int i;

    for ( i = 0; i < nr_syms; i++ )
        if ( addr >= syms[i].addr && addr < syms[i].addr + syms[i].size )
        {
            *symbolsize = syms[i].size;
            *offset = addr - syms[i].addr;
            stub_strlcpy(namebuf, syms[i].name, KSYM_NAME_LEN + 1);
            return namebuf;
        }

    return NULL;
}

unsigned long symbols_lookup_by_name(const char *symname)
{
    unsigned int i;

    for ( i = 0; i < nr_syms; i++ )
        if ( !strcmp(syms[i].name, symname) )
            return syms[i].addr;

    return 0;
}

/* ---- The arch hooks, on the fake bytes ---- */

static void make_call(uint8_t insn[DYNTRACE_SITE_SIZE], unsigned long site)
{
    int32_t rel = (long)trampoline() - (long)(site + DYNTRACE_RET_TO_SITE);

    insn[0] = DYNTRACE_CALL_OPCODE;
    memcpy(&insn[1], &rel, sizeof(rel));
}

static bool in_image(unsigned long site)
{
    return site >= (unsigned long)_stext &&
           site + DYNTRACE_SITE_SIZE <= (unsigned long)_etext;
}

bool img_site_is_call(unsigned long site)
{
    uint8_t call[DYNTRACE_SITE_SIZE];

    make_call(call, site);
    return !memcmp((void *)site, call, DYNTRACE_SITE_SIZE);
}

bool img_site_is_nop(unsigned long site)
{
    return !memcmp((void *)site, nop5, DYNTRACE_SITE_SIZE);
}

void arch_dyntrace_init_sites(const unsigned long *sites, unsigned int nr)
{
    unsigned int i, j;

    for ( i = 0; i < nr; i++ )
    {
        uint8_t *p = (uint8_t *)sites[i];

        if ( !in_image(sites[i]) )
        {
            stub_anomaly("init_sites: %#lx is not in the text", sites[i]);
            continue;
        }
        for ( j = 0; j < DYNTRACE_SITE_SIZE && p[j] == DYNTRACE_NOP1; j++ )
            ;
        if ( j == DYNTRACE_SITE_SIZE )
            memcpy(p, nop5, DYNTRACE_SITE_SIZE);
    }
}

bool arch_dyntrace_site_is_clean(unsigned long site)
{
    return img_site_is_nop(site);
}

void arch_dyntrace_site_bytes(unsigned long site, bool traced,
                              uint8_t expect[DYNTRACE_SITE_SIZE],
                              uint8_t actual[DYNTRACE_SITE_SIZE])
{
    if ( traced )
        make_call(expect, site);
    else
        memcpy(expect, nop5, DYNTRACE_SITE_SIZE);
    memcpy(actual, (const void *)site, DYNTRACE_SITE_SIZE);
}

unsigned int stub_patch_calls;
unsigned int stub_patch_fail_mask;

int arch_dyntrace_patch(unsigned long site, bool enable)
{
    uint8_t call[DYNTRACE_SITE_SIZE];
    unsigned int n = stub_patch_calls++;

    if ( !stub_in_quiesce || !stub_text_writable )
        stub_anomaly("arch_dyntrace_patch() outside the quiesced, writable "
                     "window");
    if ( !in_image(site) )
    {
        stub_anomaly("arch_dyntrace_patch(%#lx): not a site", site);
        return -EINVAL;
    }
    make_call(call, site);
    /* An injected failure: the site "held" unexpected bytes. */
    if ( n < 32 && (stub_patch_fail_mask & (1u << n)) )
        return -EEXIST;
    if ( memcmp((void *)site, enable ? nop5 : call, DYNTRACE_SITE_SIZE) )
        return -EEXIST;
    memcpy((void *)site, enable ? call : nop5, DYNTRACE_SITE_SIZE);

    return 0;
}

const void *stub_fast_entry, *stub_fast_return;
unsigned int stub_set_fast_calls;

/* The trampolines' calls: what they would call now (NULL: the generic). */
void arch_dyntrace_set_fast(const void *entry, const void *ret)
{
    if ( !stub_in_quiesce || !stub_text_writable )
        stub_anomaly("arch_dyntrace_set_fast() outside the quiesced, "
                     "writable window");
    stub_set_fast_calls++;
    stub_fast_entry = entry;
    stub_fast_return = ret;
}

/*
 * The fake TSC (rdtsc_ordered(), include/asm/msr.h) runs at 2 GHz: two ticks
 * per nanosecond of NOW().  x86 asm/dyntrace.h converts with cpu_khz and
 * get_s_time_fixed() (include/xen/time.h).
 */
unsigned long cpu_khz = 2000000;
/* A recalibration moves the conversion by this much (t_anchors). */
s_time_t stub_calibration_ns;

s_time_t get_s_time_fixed(uint64_t stamp)
{
    if ( stub_nmi_count || stub_mce_count )
        stub_anomaly("get_s_time_fixed() in NMI/MCE context");

    return stamp / 2 + stub_calibration_ns;
}

/* The x86 fast entry's anchor thunk: the harness never takes that path. */
void dyntrace_anchor_thunk(void);
void dyntrace_anchor_thunk(void)
{
    stub_anomaly("dyntrace_anchor_thunk() called");
}


/*
 * The x86 return trampoline (dyntrace-return.S): only its address is used,
 * as the diverted return address; a test "returns" by calling
 * dyntrace_return() with the frame, as the trampoline does.
 */
void dyntrace_return_trampoline(void)
{
    stub_anomaly("dyntrace_return_trampoline() called");
}

/* The other thunks of the fast entries: the harness never takes them. */
void dyntrace_drop_gone_thunk(void);
void dyntrace_drop_gone_thunk(void)
{
    stub_anomaly("dyntrace_drop_gone_thunk() called");
}

void dyntrace_prof_wipe_thunk(void);
void dyntrace_prof_wipe_thunk(void)
{
    stub_anomaly("dyntrace_prof_wipe_thunk() called");
}

/* Returns can be hooked: the host has no CET shadow stack to refuse. */
int arch_dyntrace_return_usable(const char **why)
{
    (void)why;

    return 0;
}
