/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, x86_64: the return trampoline, where a hooked function
 * returns to (common/dyntrace/return.c).
 */

#include <asm/asm_defns.h>
#include <asm/dyntrace.h>

/*
 * A diverted return: the traced function's RET popped the slot whose
 * address its entry passed as ret, so that address (the frame) is
 * %rsp - 8.  %rax and %rdx may hold its return value: keep them, ask
 * dyntrace_return(frame) (or a tracer's fast return, while it runs
 * alone) for the original return address, and go there
 * by PUSH and RET.  %rcx and the other call-clobbered registers are
 * dead once a function has returned.  The slot's address is 8 mod 16 (a
 * CALL pushed it on a 16-byte aligned stack), so after the two pushes %rsp
 * is aligned for the call.  Only without shadow stacks
 * (arch_dyntrace_return_usable()): the RET would not match the shadow
 * stack's copy.
 */
#define RETURN_SAVED    16      /* %rax and %rdx, below the popped slot */

        .text
FUNC(dyntrace_return_trampoline)
        push    %rax
        push    %rdx
        lea     (RETURN_SAVED - 8)(%rsp), %rdi /* frame: the popped slot */
#ifdef DYNTRACE_WITH_GRAPH
        cmpb    $DYNTRACE_FAST_GRAPH, dt_fast_active(%rip)
        jne     .Lnot_graph
        call    dyntrace_fast_graph_return /* as dyntrace_return() */
#else
        call    dyntrace_return
#endif
.Lreturn:
        mov     %rax, %rcx              /* the original return address */
        pop     %rdx
        pop     %rax
        push    %rcx
        RET
#ifdef DYNTRACE_WITH_GRAPH

.Lnot_graph:
#ifdef DYNTRACE_WITH_PROFILER
        cmpb    $DYNTRACE_FAST_PROFILE, dt_fast_active(%rip)
        jne     .Lhooks
        call    dyntrace_fast_profile_return /* as dyntrace_return() */
        jmp     .Lreturn

.Lhooks:
#endif
        call    dyntrace_return
        jmp     .Lreturn
#endif
END(dyntrace_return_trampoline)

/*
 * %eax = dt_ret_drop_gone(stack, ret) for the fast entries, which must find
 * every other register as it was (asm/dyntrace.h,
 * arch_dyntrace_fast_drop_gone()).
 */
FUNC(dyntrace_drop_gone_thunk)
        SAVE_SCRATCH
        call    dt_ret_drop_gone
        RESTORE_SCRATCH
        RET
END(dyntrace_drop_gone_thunk)
