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
 * is aligned for the call.  With CET shadow stacks it leaves by a CALL
 * instead (dyntrace_return_shstk), so that the RET matches the shadow stack's
 * copy.
 *
 * While a tracer with a fast return of its own runs alone, the call is
 * rewritten, in the livepatch rendezvous, to call that instead
 * (arch_dyntrace_set_fast()): its target is one aligned word, stored at
 * once, so a CPU that runs it calls one or the other.
 */
#define RETURN_SAVED    16      /* %rax and %rdx, below the popped slot */

        .text
#ifdef CONFIG_XEN_SHSTK
/*
 * The return trampoline's end with shadow stacks (R10): %rax where to
 * return, the function's %rdx and %rax still pushed.  The traced
 * function's RET took the trampoline's address from both stacks, and the
 * caller's address is on neither now.  A CALL pushes a word on both, which
 * is then made that address on both (WRSS: Xen enables it with shadow
 * stacks), so that the RET finds them equal.  Not "call 1f; 1:": a CALL
 * with a displacement of 0 (the idiom that reads RIP) pushes nothing on
 * the shadow stack.  %rcx and %r11 are dead once a function has returned.
 * A CPU that has its shadow stacks off while Xen uses them (S3 resume and
 * tboot's shutdown run traced code with CET off) diverted the stack's copy
 * alone (arch_dyntrace_shstk_divert()): no WRSS then, which would be #UD.
 * Before the trampoline: its ALTERNATIVE's JMP must know its target's
 * section to be assembled.
 */
FUNC(dyntrace_return_shstk)
        mov     %rax, %rcx              /* the original return address */
        pop     %rdx
        pop     %rax
        call    1f
        int3                    /* not reached */
1:      mov     %rcx, (%rsp)
        mov     $1, %r11d               /* SSP_NO_SHSTK (asm/shstk.h) */
        rdsspq  %r11                    /* a NOP if they are off */
        cmp     $1, %r11
        je      2f                      /* off here (S3 resume, tboot) */
        wrssq   %rcx, (%r11)
2:      RET
END(dyntrace_return_shstk)
#endif

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
#ifdef CONFIG_XEN_SHSTK
        /* As long as the JMP: without shadow stacks, nothing added. */
        ALTERNATIVE "mov %rax, %rcx; pop %rdx; pop %rax", \
                    "jmp dyntrace_return_shstk", X86_FEATURE_XEN_SHSTK
#else
        mov     %rax, %rcx              /* the original return address */
        pop     %rdx
        pop     %rax
#endif
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
#ifdef CONFIG_XEN_SHSTK

/*
 * %al = arch_dyntrace_shstk_divert(ret, site) for the fast entries, which
 * must find every other register as it was (arch_dyntrace_divert()).  The
 * usual case inline: called from the body of a fast entry, which the
 * trampoline called from the site, the shadow stack holds from here the
 * return addresses into the fast entry and into the trampoline, then the
 * site's, then the traced function's own (R10), which must equal *ret.
 * Any other case (the compiler made a frame more) goes to C, which looks
 * further.
 */
FUNC(dyntrace_shstk_divert_thunk)
        push    %rcx
        push    %rdx
        mov     $1, %ecx                        /* SSP_NO_SHSTK */
        rdsspq  %rcx
        cmp     $1, %rcx
        je      1f                              /* off here: C decides */
        lea     DYNTRACE_RET_TO_SITE(%rsi), %rdx
        cmp     %rdx, 2 * 8(%rcx)
        jne     1f
        mov     (%rdi), %rdx
        cmp     %rdx, 3 * 8(%rcx)
        jne     1f
        lea     dyntrace_return_trampoline(%rip), %rdx
        wrssq   %rdx, 3 * 8(%rcx)
        mov     %rdx, (%rdi)
        mov     $1, %eax
        pop     %rdx
        pop     %rcx
        RET

1:      pop     %rdx
        pop     %rcx
        SAVE_SCRATCH
        call    arch_dyntrace_shstk_divert
        RESTORE_SCRATCH
        RET
END(dyntrace_shstk_divert_thunk)
#endif
