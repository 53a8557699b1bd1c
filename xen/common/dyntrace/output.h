/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: the record the ring tracers keep, and the output layer
 * they share (function.c): the merge of the per-CPU buffers into one text,
 * the raw format, and the symbol caches.  A tracer gives its header and its
 * line printer (struct dt_format).
 */
#ifndef DYNTRACE_OUTPUT_H
#define DYNTRACE_OUTPUT_H

#include <xen/dyntrace.h>
#include <xen/symbols.h>

/*
 * One binary record of the ring tracers: 32 bytes on 64-bit.  function:
 * an entry.  function_graph: an entry (DT_FLAG_GRAPH_ENT), a return
 * (DT_FLAG_GRAPH_RET, parent_ip holding the entry's time) or a leaf call,
 * with no traced call inside (both flags, as a return); pad holds the
 * call's depth (1: outermost).
 */
struct dyntrace_record {
    uint64_t ts;                /* NOW(), ns (raw: DT_FLAG_RAW_TS) */
    unsigned long ip;           /* traced function's patch site */
    unsigned long parent_ip;    /* its caller's return address */
    /*
     * The context, also as one word (ctx): function_graph's return repeats
     * its entry's with the flags changed (graph.c).
     */
    union {
        struct {
            uint16_t domid;             /* domain running (DOMID_IDLE: idle) */
            uint16_t vcpu;
            uint16_t cpu;
            uint8_t flags;
#define DT_FLAG_IRQS_OFF  (1u << 0)
#define DT_FLAG_IN_IRQ    (1u << 1)
#define DT_FLAG_IN_NMI    (1u << 2)
/*
 * ts (and a return's parent_ip) hold arch_dyntrace_stamp(): set by every
 * writer, cleared once converted to ns when the trace is read.
 */
#define DT_FLAG_RAW_TS    (1u << 3)
#define DT_FLAG_GRAPH_ENT (1u << 4)
#define DT_FLAG_GRAPH_RET (1u << 5)
/* A return whose entry was not recorded (tracing_thresh). */
#define DT_FLAG_GRAPH_TAIL (1u << 6)
            uint8_t pad;
        };
        uint64_t ctx;
    };
};

/* The record layout is part of the interface (docs, benchmarks). */
#define RECORD_SIZE 32

/* Room for one formatted line: two symbol names and the fixed fields. */
#define LINE_MAX (2 * KSYM_NAME_LEN + 64)
/* Room for the header. */
#define HEADER_MAX 1024
/* Room for "d<domid>v<vcpu>" or "<idle>". */
#define CONTEXT_MAX 16

/*
 * Symbol names by address, for one formatting pass: a trace holds few
 * distinct functions and callers, and Xen's symbol lookup decompresses the
 * name each time.  A line names two addresses, so there is one cache for
 * each: a name returned for the function must survive the caller's lookup
 * (with one cache, both could hash to the same slot).
 */
#define SYM_CACHE_SIZE 64
struct sym_cache {
    unsigned long addr[SYM_CACHE_SIZE];
    char name[SYM_CACHE_SIZE][KSYM_NAME_LEN + 1];
};
struct sym_caches {
    struct sym_cache func, caller;
};

/* A cached name of addr, valid until the cache's next lookup of its slot. */
const char *dt_symbol_cached(struct sym_cache *c, unsigned long addr);

/* How a tracer's text is laid out. */
struct dt_format {
    const char *name;
    void (*header)(struct dyntrace_text *t, unsigned long max,
                   const char *name, uint64_t entries, uint64_t written,
                   unsigned int nr_present);
    /*
     * Print the line of the record r of one CPU (end: the end of that CPU's
     * records): returns how many records it used (at least 1).
     */
    unsigned int (*line)(struct dyntrace_text *t, unsigned long max,
                         struct sym_caches *c,
                         const struct dyntrace_record *r,
                         const struct dyntrace_record *end);
};

/* The text of the buffers the read asks for (struct tracer's print()). */
int dt_print_rings(const struct dt_format *f, struct dyntrace_text *t,
                   struct dyntrace_read *rd);
/* per_cpu/cpuN/trace_pipe_raw. */
int dt_print_raw(struct dyntrace_text *t, struct dyntrace_read *rd);
/* Convert a copied record's raw stamps to NOW()'s ns (function.c). */
struct dt_ring_copy;
void dt_record_to_ns(const struct dt_ring_copy *c, struct dyntrace_record *r);

/* The set_on() and clear() of the tracers that keep records in the rings. */
int cf_check dt_rings_set_on_cb(bool on);
int cf_check dt_rings_clear_cb(void);

#endif /* DYNTRACE_OUTPUT_H */
