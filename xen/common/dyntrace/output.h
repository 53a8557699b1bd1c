/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * dyntrace: the record the ring tracers keep, and the output layer
 * they share (output.c): the merge of the per-CPU buffers into one text,
 * the raw format, and the symbol caches.  A tracer gives its header and its
 * line printer (struct dt_format).
 */
#else
/*
 * dyntrace: the record the ring tracers keep, and the output layer
 * they share (output.c): the merge of the per-CPU buffers into one text,
 * and the symbol caches.  A tracer gives its header and its line printer
 * (struct dt_format).
 */
#endif
#ifndef DYNTRACE_OUTPUT_H
#define DYNTRACE_OUTPUT_H

#include <xen/dyntrace.h>
#include <xen/symbols.h>

#include <public/dyntrace.h>

/*
 * The ring tracers keep struct xen_dyntrace_record (public/dyntrace.h) in
 * the buffers, with XEN_DYNTRACE_FLAG_RAW_TS set and ts (and a return's
 * parent_ip) as arch_dyntrace_stamp(): every writer sets it, a read
 * converts to ns and clears it (dt_record_to_ns()).
 */
#define RECORD_SIZE sizeof(struct xen_dyntrace_record)

#ifdef DYNTRACE_WITH_RETVAL
/*
 * Room for one formatted line: two symbol names and the fixed fields, and
 * a value returned (" ret=0x" and 16 digits).
 */
#define LINE_MAX (2 * KSYM_NAME_LEN + 96)
#else
/* Room for one formatted line: two symbol names and the fixed fields. */
#define LINE_MAX (2 * KSYM_NAME_LEN + 64)
#endif
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

/*
 * The start of a record's line, as ftrace's function tracer prints it:
 * context, CPU, the irqs-off/hardirq/nmi marks and the time, in
 * microseconds rounded to the nearest, then ": ".
 */
void dt_print_context(struct dyntrace_text *t, unsigned long max,
                      const struct xen_dyntrace_record *r);
/* A record's context: "d<domid>v<vcpu>", or "<idle>". */
void dt_context_name(char ctx[CONTEXT_MAX],
                     const struct xen_dyntrace_record *r);

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
                         const struct xen_dyntrace_record *r,
                         const struct xen_dyntrace_record *end);
#ifdef DYNTRACE_WITH_EVENTS
    /*
     * Print the line of event record r, whose text is "NAME: FIELDS"
     * (NULL: as the function tracer lays it out).
     */
    void (*event_line)(struct dyntrace_text *t, unsigned long max,
                       const struct xen_dyntrace_record *r, const char *text);
#endif
};

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * The text of the buffers the read asks for (struct dyntrace_tracer's
 * print()).
 */
int dt_print_rings(const struct dt_format *f, struct dyntrace_text *t,
                   struct dyntrace_read *rd);
/* per_cpu/cpuN/trace_pipe_raw. */
int dt_print_raw(struct dyntrace_text *t, struct dyntrace_read *rd);
#else
/* The text of the buffers (struct dyntrace_tracer's print()). */
int dt_print_rings(const struct dt_format *f, struct dyntrace_text *t);
#endif
/* Convert a copied record's raw stamps to NOW()'s ns. */
struct dt_ring_copy;
void dt_record_to_ns(const struct dt_ring_copy *c,
                     struct xen_dyntrace_record *r);

/* The set_on() and clear() of the tracers that keep records in the rings. */
int cf_check dt_rings_set_on_cb(bool on);
int cf_check dt_rings_clear_cb(void);

#endif /* DYNTRACE_OUTPUT_H */
