/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, x86_64: the patch site, shared by the C code
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

#ifdef DYNTRACE_WITH_RETVAL
/*
 * dt_graph_ret_mode (common/dyntrace/graph.c), which function_graph's fast
 * return reads (dyntrace-graph.S): its usual record, the record with the
 * value returned (options/funcgraph-retval), or the C path (tracing_thresh):
 * the return compares the word with 0 once, and the C path's has bit 31.
 */
#define DYNTRACE_RET_MODE_PLAIN  0
#define DYNTRACE_RET_MODE_RETVAL 1
#define DYNTRACE_RET_MODE_C      0x80000000
/* XEN_DYNTRACE_GRAPH_RETVAL's bit in a record's context word. */
#define DYNTRACE_CTX_RETVAL_BIT  63
#endif

#ifdef __ASSEMBLER__

/*
 * The six registers that pass a C function's arguments, pushed in this
 * order and popped in the reverse one: part of what a trampoline at a
 * function's entry and a thunk that calls C must keep (below).
 */
.macro SAVE_ARG_REGS
        push    %rcx
        push    %rdx
        push    %rsi
        push    %rdi
        push    %r8
        push    %r9
.endm

.macro RESTORE_ARG_REGS
        pop     %r9
        pop     %r8
        pop     %rdi
        pop     %rsi
        pop     %rdx
        pop     %rcx
.endm

/*
 * What may be live at a C function's entry: the argument registers and
 * %rax.  %r10 and %r11 are dead there (scratch; %r10 would be a nested
 * function's static chain, which Xen has none of), as Linux's
 * ftrace_caller also assumes.  7 registers.
 */
.macro SAVE_ENTRY_REGS
        push    %rax
        SAVE_ARG_REGS
.endm

.macro RESTORE_ENTRY_REGS
        RESTORE_ARG_REGS
        pop     %rax
.endm

/*
 * Around a C call from a thunk that the fast entries call (they must find
 * every register as it was): the call-clobbered registers but %rax (a
 * result, or saved by the thunk).  Xen's C code needs only an 8-byte
 * aligned stack (-mpreferred-stack-boundary=3).
 */
.macro SAVE_SCRATCH
        SAVE_ARG_REGS
        push    %r10
        push    %r11
.endm

.macro RESTORE_SCRATCH
        pop     %r11
        pop     %r10
        RESTORE_ARG_REGS
.endm

#else /* !__ASSEMBLER__ */

#include <xen/smp.h>
#include <xen/time.h>
#include <asm/hardirq.h>
#include <asm/msr.h>
#ifdef CONFIG_XEN_SHSTK
#include <asm/alternative.h>
#include <asm/cpufeature.h>
#endif

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

#ifdef DYNTRACE_WITH_SCOPE
/*
 * The trampoline tests the scope itself, before it saves any register:
 * dyntrace_scope_entry() keeps every register but %rax (and the flags), so
 * that a call the scope filters out costs no register saves.
 */
#define ARCH_DYNTRACE_SCOPE_IN_ENTRY \
    __attribute__((__no_caller_saved_registers__))
#endif

/*
 * While a tracer with a fast entry runs alone, the trampoline calls its
 * fast entry (e.g. dyntrace_fast_entry(), common/dyntrace/function.c)
 * and saves no register: it keeps
 * every register itself, so that a record costs the saves of the
 * registers it uses, no more.  It makes no call but through thunks
 * (arch/x86/dyntrace-entry.S) that keep every register too.  Its frame
 * pointer is two words below the trampoline's
 * return address into the traced function's body (frame[0]), which is
 * below the function's own return address (frame[1]).
 */
#define ARCH_DYNTRACE_FAST_ENTRY \
    __attribute__((__no_caller_saved_registers__))
#define arch_dyntrace_fast_frame() \
    ((const unsigned long *)__builtin_frame_address(0) + 2)

/* dt_ring_anchor(ring, stamp), from the fast entry (-mno-red-zone). */
static always_inline void arch_dyntrace_fast_anchor(void *ring,
                                                    uint64_t stamp)
{
    asm volatile ( "call dyntrace_anchor_thunk"
                   :: "D" (ring), "S" (stamp) : "memory" );
}

#ifdef DYNTRACE_WITH_RETURN
/*
 * dt_ret_drop_gone(st, ret) (common/dyntrace/return.h), from a fast entry;
 * its thunk is in arch/x86/dyntrace-return.S.
 */
static always_inline unsigned int arch_dyntrace_fast_drop_gone(
    void *st, const unsigned long *ret)
{
    unsigned int d;

    asm volatile ( "call dyntrace_drop_gone_thunk"
                   : "=a" (d) : "D" (st), "S" (ret) : "memory" );

    return d;
}
#endif

#ifdef DYNTRACE_WITH_PROFILER
/*
 * dyntrace_fast_profile_wipe(table, gen) (common/dyntrace/profile.c), from
 * the profiler's fast entry; its thunk is in arch/x86/dyntrace-entry.S.
 */
void dyntrace_fast_profile_wipe(void *table, uint32_t gen);
static always_inline void arch_dyntrace_fast_prof_wipe(void *table,
                                                       uint32_t gen)
{
    asm volatile ( "call dyntrace_prof_wipe_thunk"
                   :: "D" (table), "S" (gen) : "memory" );
}
#endif

#ifdef DYNTRACE_WITH_GRAPH
/*
 * function_graph's fast entry and return (arch/x86/dyntrace-graph.S): its
 * usual call and return, by hand.
 */
void ARCH_DYNTRACE_FAST_ENTRY dyntrace_fast_graph_entry(void);
unsigned long dyntrace_fast_graph_return(unsigned long frame);
#endif

/* Were IRQs off, by the flags local_irq_save() returned? */
#define arch_dyntrace_irqs_off(flags) (!((flags) & X86_EFLAGS_IF))

/*
 * The fast entry's end: the flags exactly as local_irq_save() found them at
 * its start (only IF changed since, and no other flag is live at a function
 * entry), without local_irq_restore()'s merge of IF into the current ones.
 */
static always_inline void arch_dyntrace_irq_restore(unsigned long flags)
{
    asm volatile ( "push %0; popf" :: "g" (flags) : "memory", "cc" );
}

#ifdef DYNTRACE_WITH_RETURN
/*
 * Returns can be hooked (dyntrace_return_trampoline): a frame is identified
 * by the address of its return address's stack slot.
 */
#define ARCH_DYNTRACE_RETURN 1

/*
 * A backtrace found a return address at slot: is the hooked return whose
 * frame is frame that slot's?  On x86 the frame is the slot.
 */
static inline bool arch_dyntrace_ret_frame_is(unsigned long frame,
                                              const void *slot)
{
    return frame == (unsigned long)slot;
}
#ifdef DYNTRACE_WITH_RETVAL

/*
 * The value a hooked function returned, from the return trampoline's
 * hooks: the trampoline pushed %rax first, onto the slot the function's
 * RET popped, which is the frame.
 */
#define arch_dyntrace_ret_value(frame) (*(const unsigned long *)(frame))

/* Where Xen's text and livepatches' lie (public/dyntrace.h). */
#define ARCH_DYNTRACE_TEXT_START XEN_VIRT_START
#define ARCH_DYNTRACE_TEXT_END   XEN_VIRT_END
#endif

#ifdef CONFIG_XEN_SHSTK
/*
 * With CET shadow stacks (Xen's own: cet=shstk, the default where the CPU
 * has them) every RET compares the address it pops with the shadow stack's
 * copy, and a mismatch is a #CP.  So a return is diverted on both stacks
 * (R10, docs/designs/dyntrace-return.md): arch_dyntrace_shstk_divert()
 * finds the shadow copy of the address at ret and rewrites it with WRSS,
 * which Xen enables with shadow stacks; the return trampoline leaves by a
 * CALL whose pushed address it rewrites on both (dyntrace-return.S).
 */
#define ARCH_DYNTRACE_SHADOW_STACK 1

bool arch_dyntrace_shstk_divert(unsigned long *ret, unsigned long site);

/*
 * Divert the return waiting at ret (whose traced function's site is site)
 * to tramp, the return trampoline; false if it could not be done (nothing
 * changed).  Without shadow stacks the alternative is not applied: one NOP
 * more than the plain store.  fast: from a fast entry
 * (ARCH_DYNTRACE_FAST_ENTRY), which calls C only through a thunk.
 */
static always_inline bool arch_dyntrace_divert(unsigned long *ret,
                                               unsigned long site,
                                               unsigned long tramp, bool fast)
{
    bool done;

    asm goto ( ALTERNATIVE("", "jmp %l[shstk]", X86_FEATURE_XEN_SHSTK)
               :::: shstk );
    *ret = tramp;

    return true;

 shstk:
    if ( fast )
        asm volatile ( "call dyntrace_shstk_divert_thunk"
                       : "=a" (done) : "D" (ret), "S" (site) : "memory" );
    else
        done = arch_dyntrace_shstk_divert(ret, site);

    return done;
}

/*
 * dyntrace_stack_unhook() (R9): give ret back to slot on both stacks.  The
 * slots come top down; the cursor, zeroed before the first, keeps where
 * the last one's shadow copy was (a tail call's two entries, R5, share
 * one).
 */
struct dt_shstk_cursor {
    unsigned long *slot, *shadow;
};
void arch_dyntrace_shstk_undivert(unsigned long *slot, unsigned long ret,
                                  struct dt_shstk_cursor *c);
#endif /* CONFIG_XEN_SHSTK */
#endif

/*
 * The clock records keep: the TSC, read in order with the code before it
 * (common/dyntrace/ring.c converts it, B14 of docs/designs/dyntrace.md).
 */
static always_inline uint64_t arch_dyntrace_stamp(void)
{
    return rdtsc_ordered();
}

static inline unsigned long arch_dyntrace_stamp_khz(void)
{
    return cpu_khz;
}

/*
 * With this CPU's calibration (stamp and scale), which its owner rewrites
 * with IRQs off but not NMIs: never in NMI/MCE context, where it could be
 * read torn.
 */
static inline s_time_t arch_dyntrace_stamp_to_ns(uint64_t stamp)
{
    return get_s_time_fixed(stamp);
}

/* Is the callback running in NMI or machine-check context? */
static inline bool arch_dyntrace_in_nmi(void)
{
    return in_nmi_handler() || in_mce_handler();
}

/* The same, on this CPU, known to be cpu. */
static always_inline bool arch_dyntrace_cpu_in_nmi(unsigned int cpu)
{
    return nmi_count(cpu) || mce_count(cpu);
}

#endif /* !__ASSEMBLER__ */

#endif /* X86_DYNTRACE_H */
