/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace, x86_64: the trampoline that a traced function's entry calls.
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
 * With no scope set and the function tracer alone running (dt_fast_active
 * is DYNTRACE_FAST_FUNCTION), it only calls dyntrace_fast_entry(), which
 * keeps every register itself (ARCH_DYNTRACE_FAST_ENTRY) and finds ip and
 * parent_ip from its frame; likewise dyntrace_fast_graph_entry() for
 * function_graph alone (DYNTRACE_FAST_GRAPH) while set_graph_function is
 * empty (dt_graph_nr, which changes outside the rendezvous: tested here),
 * and dyntrace_fast_profile_entry() for the profiler alone
 * (DYNTRACE_FAST_PROFILE).
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
        cmpb    $DYNTRACE_FAST_FUNCTION, dt_fast_active(%rip)
        jne     .Lnot_function
        call    dyntrace_fast_entry     /* every register kept */
        RET

.Lnot_function:
        cmpb    $DYNTRACE_FAST_GRAPH, dt_fast_active(%rip)
        jne     .Lnot_graph
        cmpl    $0, dt_graph_nr(%rip)   /* set_graph_function empty? */
        jne     .Ldispatch
        call    dyntrace_fast_graph_entry /* every register kept */
        RET

.Lnot_graph:
        cmpb    $DYNTRACE_FAST_PROFILE, dt_fast_active(%rip)
        jne     .Ldispatch
        call    dyntrace_fast_profile_entry /* every register kept */
        RET

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

/*
 * The function tracer (common/dyntrace/function.c), function_graph
 * (graph.c) and the profiler (profile.c), later patches of the series than
 * this file, define the fast entries.  Until they do, nothing sets
 * dt_fast_active to call them and these defaults are never called.
 */
        .weak   dyntrace_fast_entry
        .type   dyntrace_fast_entry, @function
dyntrace_fast_entry:
        .weak   dyntrace_fast_graph_entry
        .type   dyntrace_fast_graph_entry, @function
dyntrace_fast_graph_entry:
        .weak   dyntrace_fast_profile_entry
        .type   dyntrace_fast_profile_entry, @function
dyntrace_fast_profile_entry:
        .weak   dyntrace_fast_profile_wipe
        .type   dyntrace_fast_profile_wipe, @function
dyntrace_fast_profile_wipe:
        RET
        .size   dyntrace_fast_entry, . - dyntrace_fast_entry
        .size   dyntrace_fast_graph_entry, . - dyntrace_fast_graph_entry
        .size   dyntrace_fast_profile_entry, . - dyntrace_fast_profile_entry
        .size   dyntrace_fast_profile_wipe, . - dyntrace_fast_profile_wipe
