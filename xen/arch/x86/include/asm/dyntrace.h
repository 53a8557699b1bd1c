/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace, x86_64: the patch site, shared by the C code
 * (arch/x86/dyntrace.c, common/dyntrace/), the trampoline
 * (arch/x86/dyntrace-entry.S) and the test payload
 * (test/livepatch/xen_dyntrace_expect.c).
 *
 * -fpatchable-function-entry=5 leaves five bytes of NOP at each function's
 * entry: five one-byte NOPs from gcc, one 5-byte NOP from clang.  At boot
 * they become our one 5-byte NOP (the untraced site), and tracing replaces
 * that with "call dyntrace_trampoline" (CALL rel32, 5 bytes).
 */
#ifndef X86_DYNTRACE_H
#define X86_DYNTRACE_H

/* Bytes of NOP the compiler reserves at each entry (gcc: one-byte NOPs). */
#define DYNTRACE_SITE_NOPS      5
/* Bytes of a patch site. */
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

/* gcc's sled, as the site holds it before boot: five one-byte NOPs. */
#define DYNTRACE_NOP1           0x90
/* clang's sled: one 5-byte NOP, nopl 0x8(%rax,%rax,1). */
#define DYNTRACE_CLANG_SLED     { 0x0f, 0x1f, 0x44, 0x00, 0x08 }
/* The opcode of CALL rel32. */
#define DYNTRACE_CALL_OPCODE    0xe8
/*
 * "jmp .+5" from the start of a site (JMP rel8, 3): the state a site passes
 * through while it is rewritten (arch/x86/dyntrace.c, write_site()).
 */
#define DYNTRACE_JMP_OVER       { 0xeb, DYNTRACE_SITE_SIZE - 2 }

/* An untraced site: one 5-byte NOP (nopl 0x0(%rax,%rax,1)). */
#define DYNTRACE_SITE_BYTES     { 0x0f, 0x1f, 0x44, 0x00, 0x00 }

/*
 * The trampoline tests the scope itself, before it saves any register:
 * dyntrace_scope_entry() keeps every register but %rax (and the flags), so
 * that a call the scope filters out costs no register saves.
 */
#define ARCH_DYNTRACE_SCOPE_IN_ENTRY \
    __attribute__((__no_caller_saved_registers__))

/*
 * Returns can be hooked (dyntrace_return_trampoline): a frame is identified
 * by the address of its return address's stack slot.
 */
#define ARCH_DYNTRACE_RETURN 1

/* Is the callback running in NMI or machine-check context? */
static inline bool arch_dyntrace_in_nmi(void)
{
    return in_nmi_handler() || in_mce_handler();
}

#endif /* !__ASSEMBLER__ */

#endif /* X86_DYNTRACE_H */
