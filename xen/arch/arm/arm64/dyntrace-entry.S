/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, arm64: the trampoline that a traced function's entry calls.
 *
 * A traced entry is "mov x9, x30; bl dyntrace_trampoline", so on entry:
 *   x30 = site + DYNTRACE_RET_TO_SITE, the traced function's body
 *   x9  = the traced function's return address (its caller)
 * x0-x8 (arguments, indirect result) are live and saved; x9-x17 are
 * scratch at a function's entry; x18 and the callee-saved registers are
 * preserved by dyntrace_dispatch() itself.  A frame record links this frame
 * into the caller's chain for backtraces.  Return to the body with
 * x30 = the function's own return address, through "ret x10" (a return,
 * not an indirect branch, so BTI would not object).
 *
 * The saved x9 is the return slot the callbacks get (ret): a callback that
 * hooks the return (common/dyntrace/return.c) rewrites it with the return
 * trampoline's address, and the x30 restored from it sends the function's
 * own RET there (dyntrace-return.S).
 */

#include <asm/asm_defns.h>
#include <asm/dyntrace.h>

/* The frame: x0-x9 and the frame record (x29, x30), 8 bytes each. */
#define FRAME_SIZE      96
/* Where the frame record is in it. */
#define FRAME_RECORD    80
/* Where x9 is in it: the return slot. */
#define FRAME_X9        72

#ifdef DYNTRACE_WITH_RETURN
        .if FRAME_SIZE - FRAME_X9 != DYNTRACE_RET_SLOT_BELOW_SP
        .error "the return slot is not where dyntrace-return.S looks"
        .endif
#endif

        .text
FUNC(dyntrace_trampoline)
        sub     sp, sp, #FRAME_SIZE
        stp     x0, x1, [sp, #0]
        stp     x2, x3, [sp, #16]
        stp     x4, x5, [sp, #32]
        stp     x6, x7, [sp, #48]
        stp     x8, x9, [sp, #64]
        stp     x29, x30, [sp, #FRAME_RECORD]
        add     x29, sp, #FRAME_RECORD

        sub     x0, x30, #DYNTRACE_RET_TO_SITE /* ip: the site */
        mov     x1, x9                  /* parent_ip */
        add     x2, sp, #FRAME_X9       /* ret: the saved x9 */
        bl      dyntrace_dispatch

        ldp     x0, x1, [sp, #0]
        ldp     x2, x3, [sp, #16]
        ldp     x4, x5, [sp, #32]
        ldp     x6, x7, [sp, #48]
        ldp     x8, x9, [sp, #64]
        ldp     x29, x10, [sp, #FRAME_RECORD] /* x10: the body */
        add     sp, sp, #FRAME_SIZE
        mov     x30, x9
        /* ret x10 (Xen's "ret" macro takes no register), then the same
         * speculation barrier as that macro. */
        .inst   DYNTRACE_INSN_RET_X10
        sb
END(dyntrace_trampoline)
