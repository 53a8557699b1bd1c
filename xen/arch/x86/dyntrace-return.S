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
 * dyntrace_return(frame) for the original return address, and go there
 * by PUSH and RET.  %rcx and the other call-clobbered registers are
 * dead once a function has returned.  The slot's address is 8 mod 16 (a
 * CALL pushed it on a 16-byte aligned stack), so after the two pushes %rsp
 * is aligned for the call.  Only without shadow stacks
 * (arch_dyntrace_return_usable()): the RET would not match the shadow
 * stack's copy.
 *
 * While a tracer with a fast return of its own runs alone, the call is
 * rewritten, in the livepatch rendezvous, to call that instead
 * (arch_dyntrace_set_fast()): its target is one aligned word, stored at
 * once, so a CPU that runs it calls one or the other.
 */
#define RETURN_SAVED    16      /* %rax and %rdx, below the popped slot */

        .text
FUNC(dyntrace_return_trampoline)
        push    %rax
        push    %rdx
        lea     (RETURN_SAVED - 8)(%rsp), %rdi /* frame: the popped slot */
        /* The call's target (after its opcode) must be 4-byte aligned. */
        .if (. + 1 - dyntrace_return_trampoline) % 4
        .error "dyntrace_return_call's target is not aligned"
        .endif
        .globl  dyntrace_return_call
dyntrace_return_call:
        call    dyntrace_return         /* rewritten in the rendezvous */
        mov     %rax, %rcx              /* the original return address */
        pop     %rdx
        pop     %rax
        push    %rcx
        RET
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
