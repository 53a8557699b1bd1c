/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, arm64: the return trampoline, where a hooked function
 * returns to (common/dyntrace/return.c).
 *
 * The traced function's RET came here with its stack pointer back where it
 * was at its entry, so its frame (the address of the return slot its entry
 * passed, dyntrace-entry.S) is DYNTRACE_RET_SLOT_BELOW_SP below it.  x0-x7
 * and x8 may hold its results: keep them, ask dyntrace_return(frame) for
 * the original return address, and return there.  The other call-clobbered
 * registers are dead once a function has returned.  A frame record keeps
 * backtraces walkable.
 */

#include <asm/asm_defns.h>
#include <asm/dyntrace.h>

/* The frame: x0-x8 (and a pad) and the frame record, 8 bytes each. */
#define FRAME_SIZE      96
#define FRAME_RECORD    80
#if defined(DYNTRACE_WITH_RETVAL) && \
    FRAME_SIZE - DYNTRACE_RET_SLOT_BELOW_SP != DYNTRACE_RET_X0_BELOW_FRAME
#error "arch_dyntrace_ret_value() does not find x0 in the frame"
#endif

        .text
FUNC(dyntrace_return_trampoline)
        sub     sp, sp, #FRAME_SIZE
        stp     x0, x1, [sp, #0]
        stp     x2, x3, [sp, #16]
        stp     x4, x5, [sp, #32]
        stp     x6, x7, [sp, #48]
        str     x8, [sp, #64]
        stp     x29, x30, [sp, #FRAME_RECORD]
        add     x29, sp, #FRAME_RECORD

        /* frame: the function's stack pointer less the slot's offset */
        add     x0, sp, #(FRAME_SIZE - DYNTRACE_RET_SLOT_BELOW_SP)
        bl      dyntrace_return
        mov     x30, x0                 /* the original return address */

        ldp     x0, x1, [sp, #0]
        ldp     x2, x3, [sp, #16]
        ldp     x4, x5, [sp, #32]
        ldp     x6, x7, [sp, #48]
        ldr     x8, [sp, #64]
        ldr     x29, [sp, #FRAME_RECORD]
        add     sp, sp, #FRAME_SIZE
        ret
END(dyntrace_return_trampoline)
