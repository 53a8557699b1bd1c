/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace, x86_64: the C layouts that function_graph's hot paths in
 * assembly (arch/x86/dyntrace-graph.S) read, as numbers the assembler
 * takes.  common/dyntrace/graph.c checks each against its C type
 * (graph_check_layout()): a change to one of those types that is not made
 * here too breaks the build.
 */
#ifndef X86_DYNTRACE_LAYOUT_H
#define X86_DYNTRACE_LAYOUT_H

/* struct dt_ring (common/dyntrace/ring.h) and two of its status values. */
#define DT_RING_status          0
#define DT_RING_ready           4
#define DT_RING_mask            8
#define DT_RING_written         16
#define DT_RING_rec             80
#define DT_RING_anchor_stamp    88
#define DT_RING_READY           1
#define DT_RING_WRITING         2
/* DT_ANCHOR_PERIOD (ring.h) is 1 << DT_ANCHOR_SHIFT clock ticks. */
#define DT_ANCHOR_SHIFT         20

/* struct xen_dyntrace_record (public/dyntrace.h), 1 << DT_REC_SHIFT bytes */
#define DT_REC_ts               0
#define DT_REC_ip               8
#define DT_REC_parent_ip        16
#define DT_REC_ctx              24
#define DT_REC_SHIFT            5

/*
 * A record's context word (public/dyntrace.h, XEN_DYNTRACE_CTX_*; graph.c,
 * graph_ctx()): domain, vCPU, CPU, then the flags (XEN_DYNTRACE_FLAG_*) from
 * bit DT_CTX_FLAGS and the depth from bit DT_CTX_DEPTH.
 */
#define DT_CTX_FLAGS            48
#define DT_CTX_DEPTH            56
#define DT_ASM_FLAG_IRQS_OFF    0x01
#define DT_ASM_FLAG_IN_IRQ      0x02
#define DT_ASM_FLAG_RAW_TS      0x08
#define DT_ASM_FLAG_GRAPH_ENT   0x10
/* The bits of XEN_DYNTRACE_FLAG_IN_NMI, _GRAPH_ENT and _GRAPH_RET in it. */
#define DT_CTX_IN_NMI_BIT       (DT_CTX_FLAGS + 2)
#define DT_CTX_PENDING_BIT      (DT_CTX_FLAGS + 4)
#define DT_CTX_RET_BIT          (DT_CTX_FLAGS + 5)

/*
 * struct dt_ret_stack and struct dt_ret_entry (common/dyntrace/return.h),
 * DT_RET_DEPTH and DT_RET_GRAPH.  An entry is 3 << 4 bytes.
 */
#define DT_RET_STACK_depth      0
#define DT_RET_STACK_e          8
#define DT_RET_ENTRY_SIZE       48
#define DT_RET_ENTRY_frame      0
#define DT_RET_ENTRY_ret        8
#define DT_RET_ENTRY_func       16
#define DT_RET_ENTRY_calltime   24
#define DT_RET_ENTRY_ctx        32
#define DT_RET_ENTRY_cookie     40
#define DT_RET_ENTRY_owners     44
#define DT_ASM_RET_DEPTH        64
#define DT_ASM_RET_GRAPH        1

/*
 * irq_cpustat_t (asm/hardirq.h): local_irq_count, then nmi_count and
 * mce_count side by side, so that one 8-byte test covers both.
 */
#define DT_IRQSTAT_irq_count    8
#define DT_IRQSTAT_nmi_mce      12

/*
 * struct cpu_info (asm/current.h): processor_id is this many bytes below
 * current_vcpu (CPUINFO_processor_id is not in every base's asm-offsets).
 */
#define DT_CPUINFO_ID_TO_VCPU   8

#endif /* X86_DYNTRACE_LAYOUT_H */
