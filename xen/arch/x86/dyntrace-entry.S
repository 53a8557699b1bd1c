/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, x86_64: the trampoline that a traced function's entry calls.
 *
 * On entry (from "call dyntrace_trampoline" at the patch site):
 *   (%rsp)  = site + DYNTRACE_RET_TO_SITE, the traced function's body
 *   8(%rsp) = the traced function's return address (its caller)
 * The argument registers and the other call-clobbered registers are live:
 * they must be as they were when it returns to the function body.  Flags
 * are not live at a function's entry.
 *
 * It calls dyntrace_slow_entry, which saves those registers, calls
 * dyntrace_dispatch(ip, parent_ip, ret) and restores them (ret: the address
 * of the slot that holds the return address).  While one tracer with a
 * fast entry of its own runs alone, that call is rewritten, in the
 * livepatch rendezvous, to call the tracer's entry instead (struct
 * dyntrace_tracer's fast_entry; arch_dyntrace_set_fast()).  A fast entry
 * keeps every register itself (ARCH_DYNTRACE_FAST_ENTRY) and finds ip and
 * parent_ip from its frame, as dyntrace_slow_entry does.
 */
#ifdef DYNTRACE_WITH_SCOPE

/*
 * When a scope is set (dt_scope.active, its first word, non-zero), it is
 * tested first, before the registers are saved: dyntrace_scope_entry()
 * preserves every register but %rax, so a call filtered out costs a push,
 * a call and a pop (ARCH_DYNTRACE_SCOPE_IN_ENTRY).  A call it lets through
 * goes to dyntrace_dispatch_scoped(), which also runs the triggers (they
 * make the scope active); neither dispatcher tests the scope again.
 */
#endif

#include <asm/asm_defns.h>
#include <asm/dyntrace.h>

/* Registers saved below (SAVE_ENTRY_REGS, asm/dyntrace.h), 8 bytes each. */
#define SAVED_REGS      7

/*
 * Save the live registers, call \dispatcher(ip, parent_ip, ret), restore.
 * \above: the bytes between the registers saved and the return address
 * into the traced function's body; \pad: what keeps %rsp 16-byte aligned
 * at the call.
 */
.macro DISPATCH dispatcher, above, pad
        SAVE_ENTRY_REGS
        .if \pad
        sub     $\pad, %rsp
        .endif

        /* The return address into the body, minus the CALL: ip, the site. */
        mov     (SAVED_REGS * 8 + \pad + \above)(%rsp), %rdi
        sub     $DYNTRACE_RET_TO_SITE, %rdi
        /* parent_ip, and ret: where it waits. */
        mov     (SAVED_REGS * 8 + \pad + \above + 8)(%rsp), %rsi
        lea     (SAVED_REGS * 8 + \pad + \above + 8)(%rsp), %rdx
        call    \dispatcher

        .if \pad
        add     $\pad, %rsp
        .endif
        RESTORE_ENTRY_REGS
.endm

        .text
FUNC(dyntrace_trampoline)
#ifdef DYNTRACE_WITH_SCOPE
        cmpl    $0, dt_scope(%rip)      /* dt_scope.active */
        jne     .Lscoped
#endif
        /* Rewritten in the rendezvous (arch/x86/dyntrace.c). */
        .globl  dyntrace_entry_call
dyntrace_entry_call:
        call    dyntrace_slow_entry     /* every register kept */
        RET
#ifdef DYNTRACE_WITH_SCOPE

.Lscoped:
        push    %rax
        call    dyntrace_scope_entry    /* every register kept but %rax */
        test    %al, %al
        pop     %rax                    /* the flags are kept */
        jz      .Lout
        /* The return address into the body is next: pad to align. */
        DISPATCH dyntrace_dispatch_scoped, 0, 8
.Lout:
        RET
#endif
END(dyntrace_trampoline)

/*
 * The trampoline's call when no fast entry runs: the dispatcher.  Its own
 * return address is above the registers it saves, and keeps %rsp aligned.
 */
FUNC(dyntrace_slow_entry)
        DISPATCH dyntrace_dispatch, 8, 0
        RET
END(dyntrace_slow_entry)

#ifdef DYNTRACE_WITH_FUNCTION
/*
 * dt_ring_anchor(ring, stamp) for the fast entries, which must find every
 * register as it was (asm/dyntrace.h, arch_dyntrace_fast_anchor()).
 */
FUNC(dyntrace_anchor_thunk)
        push    %rax
        SAVE_SCRATCH
        call    dt_ring_anchor
        RESTORE_SCRATCH
        pop     %rax
        RET
END(dyntrace_anchor_thunk)
#endif

#ifdef DYNTRACE_WITH_PROFILER
/*
 * dyntrace_fast_profile_wipe(table, gen) for the profiler's fast entry,
 * which must find every register as it was (asm/dyntrace.h,
 * arch_dyntrace_fast_prof_wipe()).
 */
FUNC(dyntrace_prof_wipe_thunk)
        push    %rax
        SAVE_SCRATCH
        call    dyntrace_fast_profile_wipe
        RESTORE_SCRATCH
        pop     %rax
        RET
END(dyntrace_prof_wipe_thunk)
#endif
