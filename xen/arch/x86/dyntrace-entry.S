/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, x86_64: the trampoline that a traced function's entry calls.
 *
 * On entry (from "call dyntrace_trampoline" at the patch site):
 *   (%rsp)  = site + DYNTRACE_RET_TO_SITE, the traced function's body
 *   8(%rsp) = the traced function's return address (its caller)
 * The argument registers and the other call-clobbered registers are live:
 * save them, call dyntrace_dispatch(ip, parent_ip, ret), restore them,
 * return to the function body.  Flags are not live at a function's entry.
 * ret is the address of the slot that holds the return address: a callback
 * may divert the return to dyntrace_return_trampoline (below).
 *
 * With no scope set and a tracer with a fast entry running alone
 * (dt_fast_active), it only calls that entry (e.g. dyntrace_fast_entry()
 * for the function tracer, DYNTRACE_FAST_FUNCTION), which keeps every
 * register itself (ARCH_DYNTRACE_FAST_ENTRY) and finds ip and parent_ip
 * from its frame.
 *
 * When a scope is set (dt_scope.active, its first word, non-zero), it is
 * tested first, before the registers are saved: dyntrace_scope_entry()
 * preserves every register but %rax, so a call filtered out costs a push,
 * a call and a pop (ARCH_DYNTRACE_SCOPE_IN_ENTRY).  A call it lets through
 * goes to dyntrace_dispatch_scoped(), which also runs the triggers (they
 * make the scope active); neither dispatcher tests the scope again.
 */

#include <asm/asm_defns.h>
#include <asm/dyntrace.h>

/* Registers saved below (SAVE_ENTRY_REGS, asm/dyntrace.h), 8 bytes each. */
#define SAVED_REGS      7
/* Padding that keeps %rsp 16-byte aligned at the call. */
#define ALIGN_PAD       8
/* Where the return addresses are, above the saved registers and padding. */
#define RET_TO_BODY     (SAVED_REGS * 8 + ALIGN_PAD)
#define RET_TO_PARENT   (RET_TO_BODY + 8)

/* Save the live registers, call \dispatcher(ip, parent_ip), restore. */
.macro DISPATCH dispatcher
        SAVE_ENTRY_REGS
        sub     $ALIGN_PAD, %rsp        /* 16-byte alignment for the call */

        mov     RET_TO_BODY(%rsp), %rdi /* return address into the body */
        sub     $DYNTRACE_RET_TO_SITE, %rdi /* ip: the patch site */
        mov     RET_TO_PARENT(%rsp), %rsi /* parent_ip */
        lea     RET_TO_PARENT(%rsp), %rdx /* ret: where parent_ip waits */
        call    \dispatcher

        add     $ALIGN_PAD, %rsp
        RESTORE_ENTRY_REGS
.endm

        .text
FUNC(dyntrace_trampoline)
        cmpl    $0, dt_scope(%rip)      /* dt_scope.active */
        jne     .Lscoped
#ifdef DYNTRACE_WITH_FUNCTION
        cmpb    $DYNTRACE_FAST_FUNCTION, dt_fast_active(%rip)
        jne     .Lnot_function
        call    dyntrace_fast_entry     /* every register kept */
        RET

.Lnot_function:
#endif
#ifdef DYNTRACE_WITH_GRAPH
        /*
         * function_graph alone (DYNTRACE_FAST_GRAPH) while
         * set_graph_function is empty (dt_graph_nr, which changes outside
         * the rendezvous: tested here).
         */
        cmpb    $DYNTRACE_FAST_GRAPH, dt_fast_active(%rip)
        jne     .Lnot_graph
        cmpl    $0, dt_graph_nr(%rip)   /* set_graph_function empty? */
        jne     .Ldispatch
        call    dyntrace_fast_graph_entry /* every register kept */
        RET

.Lnot_graph:
#endif
#ifdef DYNTRACE_WITH_PROFILER
        /* The profiler alone (DYNTRACE_FAST_PROFILE). */
        cmpb    $DYNTRACE_FAST_PROFILE, dt_fast_active(%rip)
        jne     .Ldispatch
        call    dyntrace_fast_profile_entry /* every register kept */
        RET

#endif
.Ldispatch:
        DISPATCH dyntrace_dispatch
        RET

.Lscoped:
        push    %rax
        call    dyntrace_scope_entry    /* every register kept but %rax */
        test    %al, %al
        pop     %rax                    /* the flags are kept */
        jz      .Lout
        DISPATCH dyntrace_dispatch_scoped
.Lout:
        RET
END(dyntrace_trampoline)

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
