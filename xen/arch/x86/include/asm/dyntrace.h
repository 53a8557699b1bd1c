/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace, x86_64: the patch site, shared by the C code
 * (arch/x86/dyntrace.c, common/dyntrace/), the trampoline
 * (arch/x86/dyntrace-entry.S) and the test payload
 * (test/livepatch/xen_dyntrace_expect.c).
 *
 * -fpatchable-function-entry=5 leaves five one-byte NOPs at each function's
 * entry; at boot they become one 5-byte NOP (the untraced site), and tracing
 * replaces that with "call dyntrace_trampoline" (CALL rel32, 5 bytes).
 */
#ifndef X86_DYNTRACE_H
#define X86_DYNTRACE_H

/* NOPs the compiler reserves at each entry (-fpatchable-function-entry). */
#define DYNTRACE_SITE_NOPS      5
/* Bytes of a patch site: the NOPs, one byte each. */
#define DYNTRACE_SITE_SIZE      DYNTRACE_SITE_NOPS
/* Offset of the CALL in the site: it is the whole site. */
#define DYNTRACE_CALL_OFFSET    0
/*
 * What the trampoline subtracts from its return address to get the site:
 * the CALL returns to the end of the site.
 */
#define DYNTRACE_RET_TO_SITE    DYNTRACE_SITE_SIZE

#ifndef __ASSEMBLER__

#include <xen/smp.h>
#include <asm/hardirq.h>

/* The compiler's one-byte NOP, as the site holds it before boot. */
#define DYNTRACE_NOP1           0x90
/* The opcode of CALL rel32. */
#define DYNTRACE_CALL_OPCODE    0xe8

/* An untraced site: one 5-byte NOP (nopl 0x0(%rax,%rax,1)). */
#define DYNTRACE_SITE_BYTES     { 0x0f, 0x1f, 0x44, 0x00, 0x00 }

/* Is the callback running in NMI or machine-check context? */
static inline bool arch_dyntrace_in_nmi(void)
{
    return in_nmi_handler() || in_mce_handler();
}

#endif /* !__ASSEMBLER__ */

#endif /* X86_DYNTRACE_H */
