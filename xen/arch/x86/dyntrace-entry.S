/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace, x86_64: the trampoline that a traced function's entry calls.
 *
 * On entry (from "call dyntrace_trampoline" at the patch site):
 *   (%rsp)  = site + 5, the traced function's body
 *   8(%rsp) = the traced function's return address (its caller)
 * The argument registers and the other call-clobbered registers are live:
 * save them, call dyntrace_dispatch(ip, parent_ip), restore them, return to
 * the function body.  Flags are not live at a function's entry.
 */

#include <asm/asm_defns.h>

        .text
FUNC(dyntrace_trampoline)
        push    %rax
        push    %rcx
        push    %rdx
        push    %rsi
        push    %rdi
        push    %r8
        push    %r9
        push    %r10
        push    %r11
        sub     $8, %rsp                /* 16-byte alignment for the call */

        mov     10*8(%rsp), %rdi        /* return address into the body */
        sub     $5, %rdi                /* ip: the patch site */
        mov     11*8(%rsp), %rsi        /* parent_ip */
        call    dyntrace_dispatch

        add     $8, %rsp
        pop     %r11
        pop     %r10
        pop     %r9
        pop     %r8
        pop     %rdi
        pop     %rsi
        pop     %rdx
        pop     %rcx
        pop     %rax
        RET
END(dyntrace_trampoline)
