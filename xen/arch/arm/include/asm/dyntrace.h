/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, arm64: the patch site, shared by the C code
 * (arch/arm/dyntrace.c, common/dyntrace/), the trampoline
 * (arch/arm/arm64/dyntrace-entry.S) and the test payload
 * (test/livepatch/xen_dyntrace_expect.c).
 *
 * -fpatchable-function-entry=2 leaves two NOPs at each function's entry; at
 * boot the first becomes "mov x9, x30" and tracing swaps the second between
 * NOP and "bl dyntrace_trampoline".
 */
#ifndef ARM_DYNTRACE_H
#define ARM_DYNTRACE_H

/* NOPs the compiler reserves at each entry (-fpatchable-function-entry). */
#define DYNTRACE_SITE_NOPS      2
/* Bytes of one A64 instruction. */
#define DYNTRACE_INSN_SIZE      4
/* Bytes of a patch site. */
#define DYNTRACE_SITE_SIZE      (DYNTRACE_SITE_NOPS * DYNTRACE_INSN_SIZE)
/* Offset of the bl in the site: it is the second word. */
#define DYNTRACE_CALL_OFFSET    DYNTRACE_INSN_SIZE
/*
 * What the trampoline subtracts from x30 to get the site: the bl returns
 * to the instruction after it, the end of the site.
 */
#define DYNTRACE_RET_TO_SITE    (DYNTRACE_CALL_OFFSET + DYNTRACE_INSN_SIZE)

/* Instruction encodings. */
#define DYNTRACE_INSN_MOV_X9_X30 0xaa1e03e9     /* mov x9, x30 */
#define DYNTRACE_INSN_NOP        0xd503201f     /* nop */
#define DYNTRACE_INSN_RET_X10    0xd65f0140     /* ret x10 */

#ifdef DYNTRACE_WITH_RETURN
/*
 * Return hooking (common/dyntrace/return.c): the return slot an entry
 * passes is where the trampoline saved x9, the traced function's return
 * address, this many bytes below the function's stack pointer at entry;
 * the return trampoline finds the same frame from the stack pointer the
 * function returns with.  Each vCPU has a return stack of its own, as it
 * has a stack of its own.
 */
#define ARCH_DYNTRACE_RETURN        1
#define ARCH_DYNTRACE_RET_PER_VCPU  1
#define DYNTRACE_RET_SLOT_BELOW_SP  24
#ifdef DYNTRACE_WITH_RETVAL
/* The return trampoline's saved x0, this far below the frame. */
#define DYNTRACE_RET_X0_BELOW_FRAME (96 - DYNTRACE_RET_SLOT_BELOW_SP)
#endif
#endif

#ifndef __ASSEMBLER__

#include <xen/time.h>
#include <xen/types.h>

/* The four bytes of an instruction word in memory (little-endian). */
#define DYNTRACE_LE32(w) \
    ((w) & 0xff), (((w) >> 8) & 0xff), (((w) >> 16) & 0xff), ((w) >> 24)

/* An untraced site: mov x9, x30; nop. */
#define DYNTRACE_SITE_BYTES                       \
    { DYNTRACE_LE32(DYNTRACE_INSN_MOV_X9_X30),    \
      DYNTRACE_LE32(DYNTRACE_INSN_NOP) }

#ifdef DYNTRACE_WITH_RETURN
/*
 * A backtrace found a return address at slot, the x30 word of a frame
 * record (x29, x30): is the hooked return whose frame is frame (above)
 * the one of that record's function?  That function's entry stack pointer
 * is above the record; a callee's is at or below it.  The caller asks the
 * deepest entry first.
 */
static inline bool arch_dyntrace_ret_frame_is(unsigned long frame,
                                              const void *slot)
{
    unsigned long record = (unsigned long)slot - 8;

    return frame + DYNTRACE_RET_SLOT_BELOW_SP > record;
}
#ifdef DYNTRACE_WITH_RETVAL

/*
 * The value a hooked function returned, from the return trampoline's
 * hooks: the trampoline saved x0 at the bottom of its frame, below the
 * frame the hooks are given (DYNTRACE_RET_X0_BELOW_FRAME).
 */
#define arch_dyntrace_ret_value(frame) \
    (*(const unsigned long *)((frame) - DYNTRACE_RET_X0_BELOW_FRAME))

/* Where Xen's text and livepatches' lie (public/dyntrace.h). */
#define ARCH_DYNTRACE_TEXT_START XEN_VIRT_START
#define ARCH_DYNTRACE_TEXT_END   (LIVEPATCH_VMAP_START + LIVEPATCH_VMAP_SIZE)
#endif
#endif

/* Arm has no NMI: the callback never runs in NMI context. */
static inline bool arch_dyntrace_in_nmi(void)
{
    return false;
}

static inline bool arch_dyntrace_cpu_in_nmi(unsigned int cpu)
{
    return false;
}

/*
 * The clock records keep (xen/dyntrace.h): NOW() itself, the generic
 * timer's count scaled with no per-CPU calibration and safe everywhere (Arm
 * has no NMI).  Its ticks are nanoseconds.
 */
static inline uint64_t arch_dyntrace_stamp(void)
{
    return NOW();
}

static inline unsigned long arch_dyntrace_stamp_khz(void)
{
    return 1000000;
}

static inline s_time_t arch_dyntrace_stamp_to_ns(uint64_t stamp)
{
    return stamp;
}

#endif /* !__ASSEMBLER__ */

#endif /* ARM_DYNTRACE_H */
