/* SPDX-License-Identifier: MIT */
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * dyntrace.h
 *
 * The records of Xen's dynamic function tracer (CONFIG_LIVEPATCH_TRACER),
 * as HypFS returns them in /tracing/per_cpu/cpuN/trace_pipe_raw: one
 * struct xen_dyntrace_raw_header, then nr records of record_size bytes
 * each, the oldest first.  Every field is little-endian (the tracer runs on
 * x86_64 and arm64 only).  A read consumes what it returns.
 *
 * A change of the layout bumps XEN_DYNTRACE_RAW_VERSION; a reader checks
 * magic and version, and steps by header_size and record_size.
 */
#else
/*
 * dyntrace.h
 *
 * The records of Xen's dynamic function tracer (CONFIG_LIVEPATCH_TRACER),
 * as its per-CPU buffers keep them, and the whole of their binary format's
 * version 1: a binary read of one CPU's buffer returns one
 * struct xen_dyntrace_raw_header, then nr records of record_size bytes
 * each, the oldest first.  Every field is little-endian (the tracer runs on
 * x86_64 and arm64 only).
 *
 * A change of the layout bumps XEN_DYNTRACE_RAW_VERSION; a reader checks
 * magic and version, and steps by header_size and record_size.
 */
#endif

#ifndef __XEN_PUBLIC_DYNTRACE_H__
#define __XEN_PUBLIC_DYNTRACE_H__

#define XEN_DYNTRACE_RAW_MAGIC       0x52544458U    /* "XDTR" */
#define XEN_DYNTRACE_RAW_VERSION     1
/* A read returns at most this many records (128 KiB of them). */
#define XEN_DYNTRACE_RAW_MAX_RECORDS 4096

struct xen_dyntrace_raw_header {
    uint32_t magic;             /* XEN_DYNTRACE_RAW_MAGIC */
    uint16_t version;           /* XEN_DYNTRACE_RAW_VERSION */
    uint16_t header_size;       /* 32 */
    uint16_t record_size;       /* 32 */
    uint16_t cpu;               /* the pCPU whose buffer this is */
    uint32_t nr;                /* records that follow */
    uint64_t lost;              /* records lost since the previous read */
    uint64_t left;              /* records still in the buffer */
};

/*
 * One record.  The function tracer writes one per traced call.
 * function_graph writes a call's entry (XEN_DYNTRACE_FLAG_GRAPH_ENT), its
 * return (XEN_DYNTRACE_FLAG_GRAPH_RET, parent_ip then holding the entry's
 * time), or both flags for a call with no traced call inside it.
 */
struct xen_dyntrace_record {
    uint64_t ts;                /* Xen's system time (NOW()), ns */
    uint64_t ip;                /* the traced function's patch site */
    uint64_t parent_ip;         /* the return address in its caller */
    uint16_t domid;             /* domain that ran it (DOMID_IDLE: idle) */
    uint16_t vcpu;              /* its vCPU */
    uint16_t cpu;               /* the pCPU */
    uint8_t flags;              /* XEN_DYNTRACE_FLAG_* */
    uint8_t depth;              /* function_graph: nesting, 1 outermost */
};

/*
 * The last eight bytes of a record, domid to depth, read as one
 * little-endian word: the bit each field starts at.
 */
#define XEN_DYNTRACE_CTX_OFFSET      24
#define XEN_DYNTRACE_CTX_VCPU_SHIFT  16
#define XEN_DYNTRACE_CTX_CPU_SHIFT   32
#define XEN_DYNTRACE_CTX_FLAGS_SHIFT 48
#define XEN_DYNTRACE_CTX_DEPTH_SHIFT 56

#define XEN_DYNTRACE_FLAG_IRQS_OFF   0x01 /* interrupts were off */
#define XEN_DYNTRACE_FLAG_IN_IRQ     0x02 /* in an interrupt handler */
#define XEN_DYNTRACE_FLAG_IN_NMI     0x04 /* in an NMI or #MC handler */
/*
 * ts (and a return's parent_ip) still hold the clock's raw count: set in
 * the buffers only, never in what a read returns.
 */
#define XEN_DYNTRACE_FLAG_RAW_TS     0x08
#define XEN_DYNTRACE_FLAG_GRAPH_ENT  0x10 /* function_graph: a call */
#define XEN_DYNTRACE_FLAG_GRAPH_RET  0x20 /* function_graph: a return */
/* function_graph: a return whose call was not recorded (tracing_thresh). */
#define XEN_DYNTRACE_FLAG_GRAPH_TAIL 0x40
#ifdef DYNTRACE_WITH_RETVAL

/*
 * function_graph with options/funcgraph-retval on: a return's record
 * (XEN_DYNTRACE_FLAG_GRAPH_RET) has this bit set in depth, and holds the
 * value the function returned (x86_64's rax, arm64's x0) in parent_ip.  ip
 * then holds the low 32 bits of the function's address (below bit 32) and
 * of the entry's time (above): every function Xen can trace, livepatches'
 * included, lies in one 4 GiB-aligned window, and the entry's time is the
 * return's time less less than 2^32 ticks of its clock (x86: the TSC, at
 * least a second; arm64: the generic timer, a minute at 62.5 MHz).
 */
#define XEN_DYNTRACE_GRAPH_RETVAL    0x80
#define XEN_DYNTRACE_GRAPH_DEPTH     0x7f /* depth's bits of nesting */
#define XEN_DYNTRACE_RETVAL_FUNC(ip) ((uint32_t)(ip))
#define XEN_DYNTRACE_RETVAL_CALL(ip) ((uint32_t)((ip) >> 32))
#endif

#endif /* __XEN_PUBLIC_DYNTRACE_H__ */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
