/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the function_graph tracer.  Its entry callback hooks the
 * call's return (return.c); the return records the call.  The output is
 * ftrace's function_graph layout with a context column:
 *
 *   1)       d0v0 |                |  do_xen_version() {
 *   1)       d0v0 |       2.955 us |    xen_extra_version();
 *   1)       d0v0 | +    16.294 us |  } (and the name in a comment)
 *
 * max_graph_depth limits the nesting hooked; with tracing_thresh set, only
 * returns that took at least that long are recorded; with set_graph_function
 * set, only the calls of its functions and the calls under way inside them
 * (their entries on the return stack carry DT_RET_TREE).
 *
 * The records (docs/designs/dyntrace-graph.md):
 *
 * G1  A call's entry record waits in its return-stack entry, pending
 *     (XEN_DYNTRACE_FLAG_GRAPH_ENT still set in the entry's ctx), until a
 *     record of a call inside it is written: that writer first writes
 *     every entry record still pending below it, oldest first
 *     (graph_flush()).  A call that ends with its own still pending is a
 *     leaf: one record, both flags set, "f();".  So each stack's pending
 *     entries are the top ones among function_graph's, and its records
 *     stay in call order.
 * G2  A pending entry whose frame is found gone (R2) writes its entry
 *     record then: "f() {" with no end, as the call left it.
 * G3  Records are written at returns (and at G2's drops), each stamped
 *     when written or, a flushed entry record, with its call's time: in
 *     a buffer's order, no older than what a G1 writer wrote before.  The
 *     anchor a writer may take (B14) is for the time it writes at.
 * G4  In NMI/MCE context nothing pending below the NMI's own entries is
 *     written: an entry of the interrupted context may be half-filled (R4).
 *     An NMI's calls then show before the line of the call they
 *     interrupted, in the one place the order is not kept.
 */

#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/time.h>

#ifdef DYNTRACE_WITH_EVENTS
#include "events.h"
#endif
#include "hypfs_files.h"
#include "output.h"
#include "patch.h"
#include "return.h"
#include "ring.h"
#include "tracer.h"

static dyntrace_func_t graph_entry;

/*
 * Its settings, written through its files and read by its callbacks (and
 * x86's fast entry, dyntrace-graph.S): max_graph_depth (0: no limit; at
 * most DT_GRAPH_DEPTH_MAX, the return stack's depth) and tracing_thresh
 * (microseconds; 0: off).
 */
#define DT_GRAPH_DEPTH_MAX 64
uint32_t dt_graph_max_depth;
uint32_t dt_tracing_thresh;
#ifdef DYNTRACE_WITH_RETVAL
/*
 * options/funcgraph-retval: returns recorded with the value returned
 * (XEN_DYNTRACE_GRAPH_RETVAL, public/dyntrace.h).
 */
bool dt_graph_retval;
#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * What x86's fast return reads of it and of tracing_thresh, in one word
 * (DYNTRACE_RET_MODE_*, asm/dyntrace.h): stored after either, under the
 * HypFS lock that serialises their writes.
 */
uint32_t dt_graph_ret_mode;
#endif
#endif

/*
 * The context word of a record: its last eight bytes, domid to depth, as
 * one value (public/dyntrace.h, XEN_DYNTRACE_CTX_*): who ran the call, on
 * which CPU, in which context (flags), at which depth.  A return repeats
 * its entry's.  Little-endian on every architecture of Xen
 * (graph_tracer_init() checks).
 */
#define CTX_FLAGS(f) ((uint64_t)(f) << XEN_DYNTRACE_CTX_FLAGS_SHIFT)
#define CTX_DEPTH(d) ((uint64_t)(d) << XEN_DYNTRACE_CTX_DEPTH_SHIFT)
static always_inline uint64_t graph_ctx(const struct vcpu *v,
                                        unsigned int cpu, unsigned int flags,
                                        unsigned int depth)
{
    return v->domain->domain_id |
           ((uint64_t)v->vcpu_id << XEN_DYNTRACE_CTX_VCPU_SHIFT) |
           ((uint64_t)cpu << XEN_DYNTRACE_CTX_CPU_SHIFT) |
           CTX_FLAGS(flags) | CTX_DEPTH(depth);
}

#define PENDING CTX_FLAGS(XEN_DYNTRACE_FLAG_GRAPH_ENT)

static always_inline void graph_fill(struct xen_dyntrace_record *rec,
                                     unsigned long ip, unsigned long parent_ip,
                                     uint64_t ts, uint64_t ctx,
                                     unsigned int cpu)
{
    rec->ts = ts;
    rec->ip = ip;
    rec->parent_ip = parent_ip;
    /* One store of the word (graph_tracer_init() checks where it lies). */
    memcpy(&rec->domid, &ctx, sizeof(ctx));
    rec->cpu = cpu;
}

/*
 * Write one record, IRQs off, maybe in NMI/MCE context; now: the time it is
 * written at (G3).  First, if flush is not NULL, the entry record of that
 * call (the one pending below, G1, no longer marked pending by the caller),
 * in the same reservation of the buffer; if none can be had, that call is
 * pending again.  The CPU is the buffer's (an Arm vCPU's return may come on
 * another CPU than its entry).
 */
static always_inline void graph_record(struct dt_ret_entry *flush,
                                       unsigned long ip,
                                       unsigned long parent_ip, uint64_t ts,
                                       uint64_t ctx, uint64_t now, bool nmi)
{
    struct xen_dyntrace_record *rec;
    struct dt_ring *r;
    unsigned int cpu;

    rec = dt_ring_reserve(&r, &cpu, sizeof(*rec));
    /* As in function_record(): turned off while we reserved. */
    if ( rec && unlikely(!ACCESS_ONCE(dt_recording)) )
    {
        dt_ring_cancel(r);
        rec = NULL;
    }
    if ( unlikely(!rec) )
    {
        if ( flush )
            flush->ctx |= PENDING;
        return;
    }
    dt_ring_anchor_if_due(r, now, false);
    if ( flush )
    {
        graph_fill(rec, flush->func, flush->ret, flush->calltime,
                   flush->ctx | PENDING, cpu);
        rec = dt_ring_next(r, sizeof(*rec));
    }
    graph_fill(rec, ip, parent_ip, ts, ctx, cpu);
    dt_ring_commit(r);
}

/*
 * A call: hook its return, its entry record pending (G1; none under
 * tracing_thresh).  IRQs off.  fast: from the fast entry, which finds the
 * call in its frame, makes no call but through arch thunks, and runs only
 * while set_graph_function is empty (the trampoline tests it).
 */
static always_inline void graph_call(unsigned long ip, unsigned long *ret,
                                     bool irqs_off, bool fast)
{
    unsigned int cpu, depth, flags;
    unsigned int owners = DT_RET_GRAPH;
    struct dt_ret_stack *st;
    struct dt_ret_entry *e;
    bool nmi;

    if ( unlikely(!ACCESS_ONCE(dt_recording)) )
        return;
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    if ( fast )
    {
        unsigned long *frame = (unsigned long *)arch_dyntrace_fast_frame();

        ip = frame[0] - DYNTRACE_RET_TO_SITE;
        ret = &frame[1];
    }
    else
#endif
    /* set_graph_function: a root, or a call inside a root's tree. */
    if ( unlikely(!dt_state_graph_all()) )
    {
        if ( !dt_state_graph_root(ip) &&
             !(dt_ret_enclosing(ret) & DT_RET_TREE) )
            return;
        owners |= DT_RET_TREE;
    }
    cpu = smp_processor_id();
    st = dt_ret_stack(cpu);
    if ( unlikely(!st) || unlikely(!dt_ring_cpu_ready(cpu)) )
        return;
    nmi = arch_dyntrace_cpu_in_nmi(cpu);
    e = dt_ret_push_entry(st, ret, ip, &dt_graph_max_depth, owners, nmi,
                          fast, &depth);
    /* Not hooked: no entry either, the output nests only what returns. */
    if ( !e )
        return;
    e->calltime = arch_dyntrace_stamp();
    e->cookie = 0;
    flags = XEN_DYNTRACE_FLAG_RAW_TS;
    if ( likely(!ACCESS_ONCE(dt_tracing_thresh)) )
        flags |= XEN_DYNTRACE_FLAG_GRAPH_ENT;
    if ( irqs_off )
        flags |= XEN_DYNTRACE_FLAG_IRQS_OFF;
    /* in_irq() on the CPU known: no second read of its number. */
    if ( local_irq_count(cpu) )
        flags |= XEN_DYNTRACE_FLAG_IN_IRQ;
    if ( nmi )
        flags |= XEN_DYNTRACE_FLAG_IN_NMI;
    e->ctx = graph_ctx(current, cpu, flags, depth);
}

static void cf_check graph_entry(unsigned long ip, unsigned long parent_ip,
                                 unsigned long *ret, bool irqs_off)
{
    if ( ret )
        graph_call(ip, ret, irqs_off, false);
}

#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * The trampoline's call while function_graph alone is active and
 * set_graph_function is empty (DYNTRACE_FAST_GRAPH), through x86's
 * dyntrace_fast_graph_entry (arch/x86/dyntrace-graph.S), which does the
 * usual case itself and jumps here for every other, with the trampoline's
 * frame as it was: the dispatcher's work and the callback's in one frame
 * that saves only the registers it uses.
 */
void ARCH_DYNTRACE_FAST_ENTRY dyntrace_graph_entry_cold(void);
void ARCH_DYNTRACE_FAST_ENTRY dyntrace_graph_entry_cold(void)
{
    unsigned long flags;

    local_irq_save(flags);
    graph_call(0, NULL, arch_dyntrace_irqs_off(flags), true);
    arch_dyntrace_irq_restore(flags);
}
#endif

/* Under tracing_thresh (microseconds)?  Out of line: the unusual case. */
static bool noinline too_short(const struct dt_ret_entry *e, uint64_t now,
                               uint32_t thresh)
{
    return dt_stamp_delta_ns(now - e->calltime) < thresh * 1000ULL;
}

/* Is the entry at depth d, if any, pending or not function_graph's? */
static always_inline bool pending_or_other(const struct dt_ret_stack *st,
                                           unsigned int d)
{
    return d && (!(st->e[d - 1].owners & DT_RET_GRAPH) ||
                 (st->e[d - 1].ctx & PENDING));
}

/*
 * G1: write the entry records pending at depth d and below, oldest first
 * (the unusual case: more than one).  Each is no longer pending before its
 * record is written: an NMI that comes meanwhile writes none twice (G4).
 */
static void noinline graph_flush(struct dt_ret_stack *st, unsigned int d,
                                 uint64_t now)
{
    unsigned int i = d;

    /* Down to function_graph's newest entry that is not pending. */
    while ( pending_or_other(st, i) )
        i--;
    for ( ; i < d; i++ )
    {
        struct dt_ret_entry *e = &st->e[i];

        if ( !(e->owners & DT_RET_GRAPH) || !(e->ctx & PENDING) )
            continue;
        e->ctx &= ~PENDING;
        barrier();
        graph_record(NULL, e->func, e->ret, e->calltime, e->ctx | PENDING,
                     now, false);
    }
}

#ifdef DYNTRACE_WITH_EVENTS
void dt_graph_flush_for_event(unsigned int cpu)
{
    struct dt_ret_stack *st;

    ASSERT(!local_irq_is_enabled());
    /* With tracing_thresh, entries are never recorded. */
    if ( dt_tracer_active() != graph_entry || !ACCESS_ONCE(dt_recording) ||
         ACCESS_ONCE(dt_tracing_thresh) || arch_dyntrace_cpu_in_nmi(cpu) ||
         !dt_ring_cpu_ready(cpu) )
        return;
    st = dt_ret_stack(cpu);
    if ( st && pending_or_other(st, st->depth) )
        graph_flush(st, st->depth, arch_dyntrace_stamp());
}

#endif
/*
 * The call at depth d returned (returned) or its frame is gone (G2): its
 * record, after the entry records pending below it (G1).
 */
static always_inline void graph_ret(struct dt_ret_stack *st,
                                    const struct dt_ret_entry *e,
                                    unsigned int d, bool returned)
{
    uint32_t thresh = ACCESS_ONCE(dt_tracing_thresh);
    uint64_t now, ctx = e->ctx;
    bool nmi = ctx & CTX_FLAGS(XEN_DYNTRACE_FLAG_IN_NMI);
    struct dt_ret_entry *flush = NULL;
    unsigned long ip = e->func, parent_ip = e->calltime;

    if ( dt_tracer_active() != graph_entry || !ACCESS_ONCE(dt_recording) )
        return;
    if ( !returned && !(ctx & PENDING) )
        return;
    now = arch_dyntrace_stamp();
#ifdef DYNTRACE_WITH_RETVAL
    /*
     * The return's record with its value (public/dyntrace.h), if its
     * entry's stamp and its duration in ns fit in 32 bits (V2, V3): a
     * longer call (tracing_thresh may ask for those) keeps its time, not
     * its value.
     */
    if ( returned && ACCESS_ONCE(dt_graph_retval) &&
         !((now - e->calltime) >> 32) &&
         dt_stamp_delta_ns(now - e->calltime) <= UINT32_MAX )
    {
        ip = ((unsigned long)(uint32_t)e->calltime << 32) | (uint32_t)ip;
        parent_ip = arch_dyntrace_ret_value(e->frame);
        ctx |= CTX_DEPTH(XEN_DYNTRACE_GRAPH_RETVAL);
    }
#endif
    if ( unlikely(thresh) )
    {
        /* Only the returns that took long enough, alone. */
        if ( !returned || too_short(e, now, thresh) )
            return;
        ctx = (ctx & ~PENDING) | CTX_FLAGS(XEN_DYNTRACE_FLAG_GRAPH_RET |
                                           XEN_DYNTRACE_FLAG_GRAPH_TAIL);
        graph_record(NULL, ip, parent_ip, now, ctx, now, nmi);
        return;
    }
    /* G4: in NMI/MCE context, an entry below may be half-filled. */
    if ( !nmi && pending_or_other(st, d - 1) )
    {
        /* The usual case: one pending, its own caller's written. */
        if ( (st->e[d - 2].owners & DT_RET_GRAPH) &&
             !pending_or_other(st, d - 2) )
        {
            flush = &st->e[d - 2];
            flush->ctx &= ~PENDING;
            barrier();
        }
        else
            graph_flush(st, d - 1, now);
    }
    if ( !returned )
    {
        /* G2: the entry record, as if a call inside had come. */
        graph_record(flush, e->func, e->ret, e->calltime, ctx, now, nmi);
        return;
    }
    /* Still pending: a leaf, GRAPH_ENT and GRAPH_RET both. */
    graph_record(flush, ip, parent_ip, now,
                 ctx | CTX_FLAGS(XEN_DYNTRACE_FLAG_GRAPH_RET), now, nmi);
}

/* The hook (return.c). */
static void cf_check graph_return(const struct dt_ret_entry *e,
                                  unsigned int depth, bool returned)
{
    graph_ret(dt_ret_stack(smp_processor_id()), e, depth, returned);
}

#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * The return trampoline's call while function_graph alone is active
 * (DYNTRACE_FAST_GRAPH), instead of dyntrace_return(), through x86's
 * dyntrace_fast_graph_return (arch/x86/dyntrace-graph.S), which does the
 * usual case itself and jumps here for every other, having changed nothing.
 */
static always_inline void graph_returned(struct dt_ret_stack *st,
                                         const struct dt_ret_entry *e,
                                         unsigned int depth)
{
    graph_ret(st, e, depth, true);
}

unsigned long dyntrace_graph_return_cold(unsigned long frame);
unsigned long dyntrace_graph_return_cold(unsigned long frame)
{
    return dt_ret_fast_return(frame, DT_RET_GRAPH, graph_returned);
}
#endif

/* ---- output ---- */

static void cf_check graph_header(struct dyntrace_text *t, unsigned long max,
                                  const char *name, uint64_t entries,
                                  uint64_t written, unsigned int nr_present)
{
    unsigned int overflow, abandoned;

    dt_ret_counts(&overflow, &abandoned);
    dyntrace_text_printf(t, max,
        "# tracer: %s\n"
        "#\n"
        "# entries-in-buffer/entries-written: %"PRIu64"/%"PRIu64"   #P:%u\n"
        "# returns not hooked (stack full): %u, abandoned stacks: %u\n"
        "#\n"
        "#CPU    CONTEXT |   DURATION      |  FUNCTION CALLS\n"
        "# |        |    |    |   |        |   |   |   |   |\n",
        name, entries, written, nr_present, overflow, abandoned);
}

/* ftrace's marks for long durations. */
static char duration_mark(uint64_t ns)
{
    if ( ns > SECONDS(1) )
        return '$';
    if ( ns > MILLISECS(100) )
        return '@';
    if ( ns > MILLISECS(10) )
        return '*';
    if ( ns > MILLISECS(1) )
        return '#';
    if ( ns > MICROSECS(100) )
        return '!';
    if ( ns > MICROSECS(10) )
        return '+';
    return ' ';
}

static void print_prefix(struct dyntrace_text *t, unsigned long max,
                         const struct xen_dyntrace_record *r, bool timed,
                         uint64_t ns)
{
    char ctx[CONTEXT_MAX];

    dt_context_name(ctx, r);
    if ( timed )
        dyntrace_text_printf(t, max, "%3u) %10s | %c%7lu.%03lu us |",
                             r->cpu, ctx, duration_mark(ns),
                             (unsigned long)(ns / 1000),
                             (unsigned long)(ns % 1000));
    else
        dyntrace_text_printf(t, max, "%3u) %10s | %15s |",
                             r->cpu, ctx, "");
}

/*
 * One line: a leaf's record (G1: GRAPH_ENT and GRAPH_RET) is "f();", as is
 * an entry whose next record on its CPU is its own return (two records);
 * another entry opens "f() {"; a return closes it with "}" and the
 * function's name in a comment (ftrace's funcgraph-tail: which call a "}"
 * closes need not be guessed when frames were abandoned).  Indented two
 * spaces per level.  A record of another tracer (not ours) is a bare name.
 */
#ifdef DYNTRACE_WITH_EVENTS
/* An event, as ftrace's function_graph shows one: a comment at its time. */
static void cf_check graph_event_line(struct dyntrace_text *t,
                                      unsigned long max,
                                      const struct xen_dyntrace_record *r,
                                      const char *text)
{
    print_prefix(t, max, r, false, 0);
    dyntrace_text_printf(t, max, "  /* %s */\n", text);
}

#endif
#ifdef DYNTRACE_WITH_RETVAL
/*
 * A return as dt_record_to_ns() left it: its function, its duration (ns)
 * and, with options/funcgraph-retval, its value in ftrace's words: "ret="
 * and the value in hexadecimal, or in decimal if it is an error code (-1
 * to -4095, as a long or, the upper half 0, as an int).  "" without one.
 */
struct ret_fields {
    unsigned long func;
    uint64_t ns;
    char val[32];
};

static void ret_fields(struct ret_fields *f,
                       const struct xen_dyntrace_record *r)
{
    long err;

    if ( !(r->depth & XEN_DYNTRACE_GRAPH_RETVAL) )
    {
        f->func = r->ip;
        f->ns = r->ts - r->parent_ip;
        f->val[0] = '\0';
        return;
    }
    f->func = (ARCH_DYNTRACE_TEXT_START & ~0xffffffffUL) |
              XEN_DYNTRACE_RETVAL_FUNC(r->ip);
    f->ns = XEN_DYNTRACE_RETVAL_CALL(r->ip);
    err = (r->parent_ip >> 32) ? (long)r->parent_ip
                               : (long)(int32_t)r->parent_ip;
    if ( err < 0 && err >= -4095 )
        snprintf(f->val, sizeof(f->val), " ret=%ld", err);
    else
        snprintf(f->val, sizeof(f->val), " ret=0x%lx", r->parent_ip);
}

/* Is n the return of the call whose entry record is r (two records)? */
static bool ret_of(const struct xen_dyntrace_record *n,
                   const struct xen_dyntrace_record *r,
                   const struct ret_fields *f)
{
    return (n->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) && f->func == r->ip &&
           (n->depth & XEN_DYNTRACE_GRAPH_DEPTH) == r->depth &&
           n->ts - f->ns == r->ts;
}

static unsigned int cf_check graph_line(struct dyntrace_text *t,
                                        unsigned long max,
                                        struct sym_caches *c,
                                        const struct xen_dyntrace_record *r,
                                        const struct xen_dyntrace_record *end)
{
    const struct xen_dyntrace_record *n = r + 1;
    unsigned int indent = 2 * ((r->depth & XEN_DYNTRACE_GRAPH_DEPTH) ?: 1);
    const unsigned int leaf = XEN_DYNTRACE_FLAG_GRAPH_ENT |
                              XEN_DYNTRACE_FLAG_GRAPH_RET;
    struct ret_fields f;

    if ( (r->flags & leaf) == leaf )
    {
        ret_fields(&f, r);
        print_prefix(t, max, r, true, f.ns);
        dyntrace_text_printf(t, max, "%*s%s();%s%s%s\n", indent, "",
                             dt_symbol_cached(&c->func, f.func),
                             f.val[0] ? " /*" : "", f.val,
                             f.val[0] ? " */" : "");
        return 1;
    }
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT )
    {
        if ( n < end && (n->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) &&
             (ret_fields(&f, n), ret_of(n, r, &f)) )
        {
            print_prefix(t, max, r, true, f.ns);
            dyntrace_text_printf(t, max, "%*s%s();%s%s%s\n", indent, "",
                                 dt_symbol_cached(&c->func, r->ip),
                                 f.val[0] ? " /*" : "", f.val,
                                 f.val[0] ? " */" : "");
            return 2;
        }
        print_prefix(t, max, r, false, 0);
        dyntrace_text_printf(t, max, "%*s%s() {\n", indent, "",
                             dt_symbol_cached(&c->func, r->ip));
        return 1;
    }
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET )
    {
        ret_fields(&f, r);
        print_prefix(t, max, r, true, f.ns);
        dyntrace_text_printf(t, max, "%*s} /* %s%s */\n", indent, "",
                             dt_symbol_cached(&c->func, f.func), f.val);
        return 1;
    }
#else
static unsigned int cf_check graph_line(struct dyntrace_text *t,
                                        unsigned long max,
                                        struct sym_caches *c,
                                        const struct xen_dyntrace_record *r,
                                        const struct xen_dyntrace_record *end)
{
    const struct xen_dyntrace_record *n = r + 1;
    unsigned int indent = 2 * (r->depth ?: 1);
    const unsigned int leaf = XEN_DYNTRACE_FLAG_GRAPH_ENT |
                              XEN_DYNTRACE_FLAG_GRAPH_RET;

    if ( (r->flags & leaf) == leaf )
    {
        print_prefix(t, max, r, true, r->ts - r->parent_ip);
        dyntrace_text_printf(t, max, "%*s%s();\n", indent, "",
                             dt_symbol_cached(&c->func, r->ip));
        return 1;
    }
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT )
    {
        if ( n < end && (n->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) &&
             n->ip == r->ip && n->depth == r->depth && n->parent_ip == r->ts )
        {
            print_prefix(t, max, r, true, n->ts - n->parent_ip);
            dyntrace_text_printf(t, max, "%*s%s();\n", indent, "",
                                 dt_symbol_cached(&c->func, r->ip));
            return 2;
        }
        print_prefix(t, max, r, false, 0);
        dyntrace_text_printf(t, max, "%*s%s() {\n", indent, "",
                             dt_symbol_cached(&c->func, r->ip));
        return 1;
    }
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET )
    {
        print_prefix(t, max, r, true, r->ts - r->parent_ip);
        dyntrace_text_printf(t, max, "%*s} /* %s */\n", indent, "",
                             dt_symbol_cached(&c->func, r->ip));
        return 1;
    }
#endif
    print_prefix(t, max, r, false, 0);
    dyntrace_text_printf(t, max, "%*s%s\n", indent, "",
                         dt_symbol_cached(&c->func, r->ip));
    return 1;
}

static const struct dt_format graph_format = {
    .name = "function_graph", .header = graph_header, .line = graph_line,
#ifdef DYNTRACE_WITH_EVENTS
    .event_line = graph_event_line,
#endif
};

#ifdef DYNTRACE_WITH_BUFFERS
static int cf_check graph_print(struct dyntrace_text *t,
                                struct dyntrace_read *rd)
{
    return rd->raw ? dt_print_raw(t, rd)
                   : dt_print_rings(&graph_format, t, rd);
}
#else
static int cf_check graph_print(struct dyntrace_text *t)
{
    return dt_print_rings(&graph_format, t);
}
#endif

static int cf_check graph_usable(const char **why)
{
#ifdef ARCH_DYNTRACE_RETURN
    return arch_dyntrace_return_usable(why);
#else
    *why = "no return hooking on this architecture yet";
    return -EOPNOTSUPP;
#endif
}

/* ---- Its files in /tracing ---- */

static int __init cf_check depth_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = &dt_graph_max_depth;
    leaf->e.size = sizeof(uint32_t);

    return 0;
}

static int __init cf_check thresh_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = &dt_tracing_thresh;
    leaf->e.size = sizeof(uint32_t);

    return 0;
}

/* max_graph_depth: 0 (no limit) to the return stack's depth. */
static int cf_check depth_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    return dt_fs_uint_write(&dt_graph_max_depth, DT_GRAPH_DEPTH_MAX, uaddr,
                            ulen);
}

/* tracing_thresh: microseconds, up to an hour. */
#define THRESH_MAX_US 3600000000U

#ifdef DYNTRACE_WITH_RETVAL
static void set_ret_mode(void)
{
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    write_atomic(&dt_graph_ret_mode,
                 dt_tracing_thresh ? DYNTRACE_RET_MODE_C
                 : dt_graph_retval ? DYNTRACE_RET_MODE_RETVAL
                                   : DYNTRACE_RET_MODE_PLAIN);
#endif
}

static int cf_check thresh_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    int rc = dt_fs_uint_write(&dt_tracing_thresh, THRESH_MAX_US, uaddr,
                              ulen);

    set_ret_mode();

    return rc;
}

static int __init cf_check retval_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = &dt_graph_retval;
    leaf->e.size = sizeof(bool);

    return 0;
}

/* options/funcgraph-retval: 0 or 1. */
static int cf_check retval_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    int rc = dt_fs_bool_write(&dt_graph_retval, uaddr, ulen);

    set_ret_mode();

    return rc;
}
#else
static int cf_check thresh_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    return dt_fs_uint_write(&dt_tracing_thresh, THRESH_MAX_US, uaddr, ulen);
}
#endif

/* set_graph_function: the roots, in the filter language. */
static int cf_check roots_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    return dt_fs_set_write(DT_GRAPH, leaf, uaddr, ulen);
}

static const struct dt_file graph_files[] = {
    { .name = "max_graph_depth", .type = XEN_HYPFS_TYPE_UINT,
      .max_write = sizeof(uint32_t), .init = depth_init,
      .write = depth_write },
    { .name = "tracing_thresh", .type = XEN_HYPFS_TYPE_UINT,
      .max_write = sizeof(uint32_t), .init = thresh_init,
      .write = thresh_write },
    { .name = "set_graph_function", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = DT_SET_MAX_WRITE, .fits_names = true,
      .build = dt_state_graph_text, .write = roots_write },
};

#ifdef DYNTRACE_WITH_RETVAL
/* ftrace's options/, for the options of function_graph's records. */
static HYPFS_DIR_INIT_FUNC(options_dir, "options", &dt_fs_dir_funcs);

static const struct dt_file option_files[] = {
    { .name = "funcgraph-retval", .type = XEN_HYPFS_TYPE_BOOL,
      .max_write = sizeof(bool), .init = retval_init,
      .write = retval_write },
};

#endif
static struct dyntrace_tracer graph_tracer = {
    .name = "function_graph",
    .uses_filter = true,
    .set_on = dt_rings_set_on_cb,
    .clear = dt_rings_clear_cb,
    .print = graph_print,
    .func = graph_entry,
    .usable = graph_usable,
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    /* The usual call and return by hand (asm/dyntrace.h). */
    .fast_entry = dyntrace_fast_graph_entry,
    .fast_return = dyntrace_fast_graph_return,
#endif
};

static int __init cf_check graph_tracer_init(void)
{
    BUILD_BUG_ON(DT_RET_DEPTH != DT_GRAPH_DEPTH_MAX);
    BUILD_BUG_ON(DT_GRAPH_DEPTH_MAX > UINT8_MAX);
    /* graph_ctx() and graph_fill(): the word is the record's last field. */
    BUILD_BUG_ON(__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__);
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_record, domid) !=
                 XEN_DYNTRACE_CTX_OFFSET);
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_record, vcpu) * 8 !=
                 XEN_DYNTRACE_CTX_OFFSET * 8 + XEN_DYNTRACE_CTX_VCPU_SHIFT);
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_record, cpu) * 8 !=
                 XEN_DYNTRACE_CTX_OFFSET * 8 + XEN_DYNTRACE_CTX_CPU_SHIFT);
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_record, flags) * 8 !=
                 XEN_DYNTRACE_CTX_OFFSET * 8 + XEN_DYNTRACE_CTX_FLAGS_SHIFT);
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_record, depth) * 8 !=
                 XEN_DYNTRACE_CTX_OFFSET * 8 + XEN_DYNTRACE_CTX_DEPTH_SHIFT);
    BUILD_BUG_ON(sizeof(struct xen_dyntrace_record) !=
                 XEN_DYNTRACE_CTX_OFFSET + sizeof(uint64_t));

    dt_ret_set_hook(DT_RET_GRAPH, graph_return);
    dt_fs_add_files(NULL, graph_files, ARRAY_SIZE(graph_files));
#ifdef DYNTRACE_WITH_RETVAL
    /* Every traceable function in one 4 GiB window (public/dyntrace.h). */
    BUILD_BUG_ON((ARCH_DYNTRACE_TEXT_START ^ (ARCH_DYNTRACE_TEXT_END - 1)) >>
                 32);
    dt_fs_add_files(&options_dir, option_files, ARRAY_SIZE(option_files));
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    BUILD_BUG_ON(CTX_DEPTH(XEN_DYNTRACE_GRAPH_RETVAL) !=
                 1ULL << DYNTRACE_CTX_RETVAL_BIT);
#endif
#endif
    dyntrace_register_tracer(&graph_tracer);

    return 0;
}
/*
 * It needs nothing of the other tracers at boot (the rings are written only
 * once it is selected, after /tracing exists).
 */
presmp_initcall(graph_tracer_init);
