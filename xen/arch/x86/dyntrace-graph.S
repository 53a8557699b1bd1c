/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace, x86_64: function_graph's usual call and usual return
 * (common/dyntrace/graph.c), written by hand: the two halves of a call cost
 * what the function tracer's one record costs, or less (docs/performance.md).
 *
 * Each path does only what graph_call() and graph_ret() do in their usual
 * case, in the same order, and hands every other case, before it has
 * changed anything, to the C path it stands for, which starts over:
 *
 *   dyntrace_fast_graph_entry    the trampoline's call, for
 *                                graph_call(): no NMI/MCE, tracing_thresh
 *                                0, the top entry of a caller's frame (no
 *                                frame to drop, R2), room under
 *                                max_graph_depth; else
 *                                dyntrace_graph_entry_cold();
 *   dyntrace_fast_graph_return   the return trampoline's call, for
 *                                graph_ret(): the top entry is the frame's
 *                                (R3 without R2), function_graph's alone, not
 *                                an NMI's, tracing_thresh 0, nothing pending
 *                                below it or the usual one (G1), the buffer
 *                                taken at once and no anchor due (B14); else
 *                                dyntrace_graph_return_cold().
 *
 * The trampolines call them only while function_graph's callback alone is
 * active: the rendezvous that makes it so rewrites their calls
 * (arch_dyntrace_set_fast()), so the return path does not test that again.
 * While set_graph_function is not empty (dt_graph_nr, which changes
 * outside the rendezvous) the entry hands the call to the dispatcher's
 * path, dyntrace_slow_entry, at once.  The layouts they read come from
 * asm-offsets (DT_*), where the sizes they assume are checked.
 */

#include <asm/asm_defns.h>
#include <asm/dyntrace.h>
#include <asm/page.h>
#include <asm/x86-defns.h>

/* This CPU's number, from the end of its stack (GET_STACK_END). */
#define CPU_ID(end) \
        (STACK_CPUINFO_FIELD(current_vcpu) - DT_CPUINFO_ID_TO_VCPU)(end)

/*
 * The entry's frame, from %rsp once it has saved what it uses: the
 * registers, the flags, the trampoline's return address, the return
 * address into the traced function's body, then the traced function's own
 * return address: the slot whose address identifies its frame (R1).
 */
#define ENT_SAVED       7                       /* SAVE_ENTRY_REGS */
#define ENT_FLAGS       (ENT_SAVED * 8)
#define ENT_BODY        (ENT_FLAGS + 16)
#define ENT_SLOT        (ENT_BODY + 8)

/*
 * The return diverted (%rax the slot, %rdx the return trampoline), and the
 * entry's (%rdi) cookie stored.
 */
.macro DIVERT_AND_COOKIE
        mov     %rdx, (%rax)
        movl    $0, DT_RET_ENTRY_cookie(%rdi)
.endm

/* Undo the entry's saves: every register and the flags as they were. */
.macro ENT_RESTORE
        RESTORE_ENTRY_REGS
        popf
.endm

/*
 * \ring = dt_rings[\cpu], or to \fail if this CPU is not up for tracing
 * (dt_ring_cpu_ready()).
 */
.macro CPU_RING cpu, ring, fail
        lea     dt_rings(%rip), \ring
        mov     (\ring, \cpu, 8), \ring
        test    \ring, \ring
        jz      \fail
        cmpb    $0, DT_RING_ready(\ring)
        je      \fail
.endm

/* \slot = the next slot of \ring (dt_ring_slot()). */
.macro RING_SLOT ring, slot, slot32
        mov     DT_RING_mask(\ring), \slot32
        and     DT_RING_written(\ring), \slot
        shl     $DT_REC_SHIFT, \slot
        add     DT_RING_rec(\ring), \slot
.endm

        .text
FUNC(dyntrace_fast_graph_entry)
        cmpl    $0, dt_graph_nr(%rip)   /* set_graph_function empty? */
        jne     dyntrace_slow_entry     /* as if the trampoline called it */
        pushf
        cli
        SAVE_ENTRY_REGS

        cmpb    $0, dt_recording(%rip)
        je      .Lent_done
        cmpl    $0, dt_tracing_thresh(%rip)     /* no record pending */
        jne     .Lent_cold

        /* dt_ring_cpu_ready(): else current may not be set (graph.c). */
        GET_STACK_END(si)
        mov     CPU_ID(%rsi), %ecx
        CPU_RING %rcx, %rax, .Lent_done

        mov     %rcx, %r8
        shl     $IRQSTAT_shift, %r8
        lea     irq_stat(%rip), %rax
        add     %rax, %r8                       /* &irq_stat[cpu] */
        cmpq    $0, DT_IRQSTAT_nmi_mce(%r8)     /* R4: no drop in NMI/MCE */
        jne     .Lent_cold

        /* d: this CPU's depth, its top entry of a caller's frame (R2). */
        mov     STACK_CPUINFO_FIELD(per_cpu_offset)(%rsi), %rdi
        lea     per_cpu__dt_ret_stacks(%rip), %rax
        add     %rax, %rdi                      /* st */
        mov     DT_RET_STACK_depth(%rdi), %eax
        lea     (%rax, %rax, 2), %rdx
        shl     $4, %rdx                        /* d * DT_RET_ENTRY_SIZE */
        test    %eax, %eax
        jz      1f
        lea     ENT_SLOT(%rsp), %r9
        cmp     %r9, (DT_RET_STACK_e - DT_RET_ENTRY_SIZE + \
                      DT_RET_ENTRY_frame)(%rdi, %rdx)
        jbe     .Lent_cold                      /* frames gone: dropped in C */
1:      cmp     $DT_ASM_RET_DEPTH, %eax
        jae     .Lent_cold                      /* full: counted in C */
        mov     dt_graph_max_depth(%rip), %r9d
        dec     %r9d                            /* 0, no limit: UINT_MAX */
        cmp     %r9d, %eax
        ja      .Lent_cold                      /* d >= max_graph_depth */

        /* The context word (graph_ctx()): depth, flags, CPU, vCPU, domain. */
        lea     1(%rax), %r9d                   /* the call's depth */
        shl     $8, %r9d
        or      $(DT_ASM_FLAG_RAW_TS | DT_ASM_FLAG_GRAPH_ENT), %r9d
        cmpl    $0, DT_IRQSTAT_irq_count(%r8)
        je      1f
        or      $DT_ASM_FLAG_IN_IRQ, %r9d
1:      testl   $X86_EFLAGS_IF, ENT_FLAGS(%rsp)
        jnz     1f
        or      $DT_ASM_FLAG_IRQS_OFF, %r9d
1:      shl     $16, %r9d
        or      %ecx, %r9d
        shl     $32, %r9
        mov     STACK_CPUINFO_FIELD(current_vcpu)(%rsi), %rsi
        mov     (%rsi), %r8d                    /* vcpu_id */
        shl     $16, %r8d
        mov     VCPU_domain(%rsi), %rsi
        movzwl  (%rsi), %esi                    /* domain_id */
        or      %rsi, %r8
        or      %r8, %r9

        /* dt_ret_push_entry(), R4: reserve the slot, then fill it. */
        lea     1(%rax), %ecx
        mov     %ecx, DT_RET_STACK_depth(%rdi)
        /* e: d * size still in %rdx */
        lea     DT_RET_STACK_e(%rdi, %rdx), %rdi
        lea     ENT_SLOT(%rsp), %rax
        mov     %rax, DT_RET_ENTRY_frame(%rdi)
        mov     (%rax), %rdx
        mov     %rdx, DT_RET_ENTRY_ret(%rdi)
        mov     ENT_BODY(%rsp), %rdx
        sub     $DYNTRACE_RET_TO_SITE, %rdx
        mov     %rdx, DT_RET_ENTRY_func(%rdi)
        movl    $DT_ASM_RET_GRAPH, DT_RET_ENTRY_owners(%rdi)
        lea     dyntrace_return_trampoline(%rip), %rdx
        mov     %r9, DT_RET_ENTRY_ctx(%rdi)     /* G1: its record pending */
#ifdef CONFIG_XEN_SHSTK
        /*
         * With shadow stacks, on both stacks (R10), in a thunk that also
         * stores the cookie: the original is the longer, so that without
         * them not one instruction is added.
         */
        ALTERNATIVE DIVERT_AND_COOKIE, "call dyntrace_graph_shstk_divert", \
                    X86_FEATURE_XEN_SHSTK
#else
        DIVERT_AND_COOKIE
#endif
        lfence                                  /* arch_dyntrace_stamp() */
        rdtsc
        shl     $32, %rdx
        or      %rdx, %rax
        mov     %rax, DT_RET_ENTRY_calltime(%rdi)

.Lent_done:
        ENT_RESTORE
        RET

.Lent_cold:
        ENT_RESTORE
        /* The trampoline's frame as it called us, every register kept. */
        jmp     dyntrace_graph_entry_cold
END(dyntrace_fast_graph_entry)

/*
 * The return: called by the return trampoline (dyntrace-return.S), which
 * has saved %rax and %rdx, with the frame that returned (%rdi).  Every
 * other call-clobbered register is free; returns where the traced
 * function returns to.  RET_FRAME: the frame, from %rsp (the popped
 * slot, 8 below the trampoline's two saves).
 */
#define RET_FRAME       16
#if defined(DYNTRACE_WITH_RETVAL) && \
    (DYNTRACE_RET_MODE_PLAIN != 0 || \
     DYNTRACE_RET_MODE_RETVAL >= 0x80000000 || \
     DYNTRACE_RET_MODE_C < 0x80000000)
#error "dyntrace_fast_graph_return's compare needs PLAIN 0, C with bit 31"
#endif

#ifdef DYNTRACE_WITH_RETVAL
/*
 * The rest of the usual return, from the NMI test on: its record as
 * graph_ret() writes it, with the value returned if \retval
 * (options/funcgraph-retval).
 */
.macro RET_USUAL retval
        btq     $DT_CTX_IN_NMI_BIT, DT_RET_ENTRY_ctx(%r9)
        jc      .Lret_cold

        /*
         * G1: anything pending below is the entry under this one, whose
         * own caller's record is written: its record goes first (%rdi).
         */
        xor     %edi, %edi
        cmp     $1, %ecx
        je      .Lret_reserve\@
        testb   $DT_ASM_RET_GRAPH, \
                (DT_RET_ENTRY_owners - DT_RET_ENTRY_SIZE)(%r9)
        jz      .Lret_cold
        btq     $DT_CTX_PENDING_BIT, \
                (DT_RET_ENTRY_ctx - DT_RET_ENTRY_SIZE)(%r9)
        jnc     .Lret_reserve\@
        cmp     $2, %ecx
        je      1f
        testb   $DT_ASM_RET_GRAPH, \
                (DT_RET_ENTRY_owners - 2 * DT_RET_ENTRY_SIZE)(%r9)
        jz      .Lret_cold
        btq     $DT_CTX_PENDING_BIT, \
                (DT_RET_ENTRY_ctx - 2 * DT_RET_ENTRY_SIZE)(%r9)
        jc      .Lret_cold              /* more than one: graph_flush() */
1:      lea     -DT_RET_ENTRY_SIZE(%r9), %rdi

.Lret_reserve\@:
        /* dt_ring_reserve(): this CPU's buffer, READY -> WRITING. */
        mov     CPU_ID(%rsi), %eax
        CPU_RING %rax, %rsi, .Lret_cold
        mov     $DT_RING_READY, %eax
        mov     $DT_RING_WRITING, %edx
        /* Pairs as dt_ring_reserve()'s cmpxchg (ring.h). */
        lock cmpxchg %edx, DT_RING_status(%rsi)
        jne     .Lret_cold                      /* dropped: counted in C */
        cmpb    $0, dt_recording(%rip)
        je      .Lret_cancel                    /* turned off meanwhile */
        lfence                                  /* now */
        rdtsc
        shl     $32, %rdx
        or      %rdx, %rax
        mov     %rax, %rdx
        sub     DT_RING_anchor_stamp(%rsi), %rdx
        shr     $DT_ANCHOR_SHIFT, %rdx
        jnz     .Lret_cancel                    /* an anchor due (B14) */
        RING_SLOT %rsi, %rdx, %edx
        test    %rdi, %rdi
        jz      .Lret_own\@

        /* The pending entry's record, no longer pending (graph_record()). */
        mov     DT_RET_ENTRY_ctx(%rdi), %rcx
        btrq    $DT_CTX_PENDING_BIT, DT_RET_ENTRY_ctx(%rdi)
        mov     %rcx, DT_REC_ctx(%rdx)
        mov     DT_RET_ENTRY_calltime(%rdi), %rcx
        mov     %rcx, DT_REC_ts(%rdx)
        mov     DT_RET_ENTRY_func(%rdi), %rcx
        mov     %rcx, DT_REC_ip(%rdx)
        mov     DT_RET_ENTRY_ret(%rdi), %rcx
        mov     %rcx, DT_REC_parent_ip(%rdx)
        /*
         * dt_ring_next(): the slot, then the count, in one store, in
         * program order as in C.
         */
        addq    $1, DT_RING_written(%rsi)
        RING_SLOT %rsi, %rdx, %edx

.Lret_own\@:
        /* The return's record, or a leaf's (its entry still pending). */
        mov     %rax, DT_REC_ts(%rdx)
        .if \retval
        /*
         * With the value returned (public/dyntrace.h): the low halves of
         * the function and of the entry's time in ip, the value in
         * parent_ip (the trampoline's saved %rax: the frame).
         */
        mov     DT_RET_ENTRY_func(%r9), %ecx
        mov     %ecx, DT_REC_ip(%rdx)
        mov     DT_RET_ENTRY_calltime(%r9), %ecx
        mov     %ecx, (DT_REC_ip + 4)(%rdx)
        mov     RET_FRAME(%rsp), %rcx
        mov     %rcx, DT_REC_parent_ip(%rdx)
        mov     DT_RET_ENTRY_ctx(%r9), %rcx
        bts     $DYNTRACE_CTX_RETVAL_BIT, %rcx
        .else
        mov     DT_RET_ENTRY_func(%r9), %rcx
        mov     %rcx, DT_REC_ip(%rdx)
        mov     DT_RET_ENTRY_calltime(%r9), %rcx
        mov     %rcx, DT_REC_parent_ip(%rdx)
        mov     DT_RET_ENTRY_ctx(%r9), %rcx
        .endif
        bts     $DT_CTX_RET_BIT, %rcx
        mov     %rcx, DT_REC_ctx(%rdx)
        /* dt_ring_commit(): the count, smp_mb(), the status. */
        addq    $1, DT_RING_written(%rsi)
        lock addl $0, (%rsp)                    /* pairs as in ring.h */
        movl    $DT_RING_READY, DT_RING_status(%rsi)

        /* dt_ret_release(), R4: read the entry, then give its slot up. */
        mov     DT_RET_ENTRY_ret(%r9), %rax
        decl    DT_RET_STACK_depth(%r8)
        push    %r11
        popf
        RET

.endm

#endif
FUNC(dyntrace_fast_graph_return)
        pushf
        pop     %r11                            /* the flags, IF restored */
        cli

        /* dt_ret_pop_entry()'s usual case: the top entry is the frame's. */
        GET_STACK_END(si)
        mov     STACK_CPUINFO_FIELD(per_cpu_offset)(%rsi), %r8
        lea     per_cpu__dt_ret_stacks(%rip), %rax
        add     %rax, %r8                       /* st */
        mov     DT_RET_STACK_depth(%r8), %ecx   /* d */
        test    %ecx, %ecx
        jz      .Lret_cold
        lea     (%rcx, %rcx, 2), %r9
        shl     $4, %r9
        lea     (DT_RET_STACK_e - DT_RET_ENTRY_SIZE)(%r8, %r9), %r9 /* e */
        cmp     %rdi, DT_RET_ENTRY_frame(%r9)
        jne     .Lret_cold                      /* R2 or R3 */
        cmpl    $DT_ASM_RET_GRAPH, DT_RET_ENTRY_owners(%r9)
        jne     .Lret_cold                      /* another owner, a tree */

        /* graph_ret(): recording, no tracing_thresh, not an NMI's call. */
        cmpb    $0, dt_recording(%rip)
        je      .Lret_cold
#ifdef DYNTRACE_WITH_RETVAL
        /*
         * tracing_thresh 0, and funcgraph-retval off (the test made of
         * tracing_thresh before) or on: the C path's mode has the sign bit
         * (asm/dyntrace.h), which the same compare tells apart.
         */
        cmpl    $DYNTRACE_RET_MODE_PLAIN, dt_graph_ret_mode(%rip)
        jne     .Lret_mode
        RET_USUAL 0

.Lret_mode:
        js      .Lret_cold
        RET_USUAL 1

#else
        cmpl    $0, dt_tracing_thresh(%rip)
        jne     .Lret_cold
        btq     $DT_CTX_IN_NMI_BIT, DT_RET_ENTRY_ctx(%r9)
        jc      .Lret_cold

        /*
         * G1: anything pending below is the entry under this one, whose
         * own caller's record is written: its record goes first (%rdi).
         */
        xor     %edi, %edi
        cmp     $1, %ecx
        je      .Lret_reserve
        testb   $DT_ASM_RET_GRAPH, \
                (DT_RET_ENTRY_owners - DT_RET_ENTRY_SIZE)(%r9)
        jz      .Lret_cold
        btq     $DT_CTX_PENDING_BIT, \
                (DT_RET_ENTRY_ctx - DT_RET_ENTRY_SIZE)(%r9)
        jnc     .Lret_reserve
        cmp     $2, %ecx
        je      1f
        testb   $DT_ASM_RET_GRAPH, \
                (DT_RET_ENTRY_owners - 2 * DT_RET_ENTRY_SIZE)(%r9)
        jz      .Lret_cold
        btq     $DT_CTX_PENDING_BIT, \
                (DT_RET_ENTRY_ctx - 2 * DT_RET_ENTRY_SIZE)(%r9)
        jc      .Lret_cold              /* more than one: graph_flush() */
1:      lea     -DT_RET_ENTRY_SIZE(%r9), %rdi

.Lret_reserve:
        /* dt_ring_reserve(): this CPU's buffer, READY -> WRITING. */
        mov     CPU_ID(%rsi), %eax
        CPU_RING %rax, %rsi, .Lret_cold
        mov     $DT_RING_READY, %eax
        mov     $DT_RING_WRITING, %edx
        /* Pairs as dt_ring_reserve()'s cmpxchg (ring.h). */
        lock cmpxchg %edx, DT_RING_status(%rsi)
        jne     .Lret_cold                      /* dropped: counted in C */
        cmpb    $0, dt_recording(%rip)
        je      .Lret_cancel                    /* turned off meanwhile */
        lfence                                  /* now */
        rdtsc
        shl     $32, %rdx
        or      %rdx, %rax
        mov     %rax, %rdx
        sub     DT_RING_anchor_stamp(%rsi), %rdx
        shr     $DT_ANCHOR_SHIFT, %rdx
        jnz     .Lret_cancel                    /* an anchor due (B14) */
        RING_SLOT %rsi, %rdx, %edx
        test    %rdi, %rdi
        jz      .Lret_own

        /* The pending entry's record, no longer pending (graph_record()). */
        mov     DT_RET_ENTRY_ctx(%rdi), %rcx
        btrq    $DT_CTX_PENDING_BIT, DT_RET_ENTRY_ctx(%rdi)
        mov     %rcx, DT_REC_ctx(%rdx)
        mov     DT_RET_ENTRY_calltime(%rdi), %rcx
        mov     %rcx, DT_REC_ts(%rdx)
        mov     DT_RET_ENTRY_func(%rdi), %rcx
        mov     %rcx, DT_REC_ip(%rdx)
        mov     DT_RET_ENTRY_ret(%rdi), %rcx
        mov     %rcx, DT_REC_parent_ip(%rdx)
        /*
         * dt_ring_next(): the slot, then the count, in one store, in
         * program order as in C.
         */
        addq    $1, DT_RING_written(%rsi)
        RING_SLOT %rsi, %rdx, %edx

.Lret_own:
        /* The return's record, or a leaf's (its entry still pending). */
        mov     %rax, DT_REC_ts(%rdx)
        mov     DT_RET_ENTRY_func(%r9), %rcx
        mov     %rcx, DT_REC_ip(%rdx)
        mov     DT_RET_ENTRY_calltime(%r9), %rcx
        mov     %rcx, DT_REC_parent_ip(%rdx)
        mov     DT_RET_ENTRY_ctx(%r9), %rcx
        bts     $DT_CTX_RET_BIT, %rcx
        mov     %rcx, DT_REC_ctx(%rdx)
        /* dt_ring_commit(): the count, smp_mb(), the status. */
        addq    $1, DT_RING_written(%rsi)
        lock addl $0, (%rsp)                    /* pairs as in ring.h */
        movl    $DT_RING_READY, DT_RING_status(%rsi)

        /* dt_ret_release(), R4: read the entry, then give its slot up. */
        mov     DT_RET_ENTRY_ret(%r9), %rax
        decl    DT_RET_STACK_depth(%r8)
        push    %r11
        popf
        RET

#endif
.Lret_cancel:
        movl    $DT_RING_READY, DT_RING_status(%rsi) /* dt_ring_cancel() */
.Lret_cold:
        push    %r11
        popf
        lea     RET_FRAME(%rsp), %rdi
        jmp     dyntrace_graph_return_cold
END(dyntrace_fast_graph_return)
#ifdef CONFIG_XEN_SHSTK

/*
 * The fast entry's DIVERT_AND_COOKIE with shadow stacks: %rax the slot,
 * %rdi the entry (its func filled); every register kept but the flags.
 * The usual case is checked and written here; any other goes to
 * arch_dyntrace_shstk_divert(), which looks further.  Not diverted (a
 * function entered by a JMP), the entry is given up again, as
 * dt_ret_push_entry() does: the call is not hooked, and is counted.  The
 * fast entry's later stores go to the slot given up, which no one else
 * uses then (IRQs are off; an NMI that pushed there has popped before we
 * go on).
 */
FUNC(dyntrace_graph_shstk_divert)
        movl    $0, DT_RET_ENTRY_cookie(%rdi)
        push    %rax
        push    %rcx
        push    %rdx
        /*
         * The usual case inline: from here the shadow stack holds the
         * return addresses into the fast entry and into the trampoline,
         * then the site's, then the traced function's own (R10), which
         * must equal the slot's.
         */
        mov     $1, %ecx                        /* SSP_NO_SHSTK */
        rdsspq  %rcx
        cmp     $1, %rcx
        je      .Lshstk_c                       /* off here: C decides */
        mov     DT_RET_ENTRY_func(%rdi), %rdx
        add     $DYNTRACE_RET_TO_SITE, %rdx
        cmp     %rdx, 2 * 8(%rcx)
        jne     .Lshstk_c
        mov     (%rax), %rdx
        cmp     %rdx, 3 * 8(%rcx)
        jne     .Lshstk_c
        lea     dyntrace_return_trampoline(%rip), %rdx
        wrssq   %rdx, 3 * 8(%rcx)
        mov     %rdx, (%rax)
        pop     %rdx
        pop     %rcx
        pop     %rax
        RET

.Lshstk_c:
        pop     %rdx
        pop     %rcx
        SAVE_SCRATCH
        mov     DT_RET_ENTRY_func(%rdi), %rsi
        mov     %rax, %rdi
        call    arch_dyntrace_shstk_divert
        test    %al, %al
        jnz     1f
        GET_STACK_END(ax)
        mov     STACK_CPUINFO_FIELD(per_cpu_offset)(%rax), %rax
        lea     per_cpu__dt_ret_stacks(%rip), %rcx
        decl    DT_RET_STACK_depth(%rax, %rcx)
        lock incl dt_ret_overflows(%rip)
1:      RESTORE_SCRATCH
        pop     %rax
        RET
END(dyntrace_graph_shstk_divert)
#endif
