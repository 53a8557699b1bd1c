/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: the function_graph tracer.  Its entry callback records the
 * call and hooks its return (return.c); the return records the duration.
 * The output is ftrace's function_graph layout with a context column:
 *
 *   1)       d0v0 |                |  do_xen_version() {
 *   1)       d0v0 |       2.955 us |    xen_extra_version();
 *   1)       d0v0 | +    16.294 us |  } (and the name in a comment)
 *
 * max_graph_depth limits the nesting hooked; with tracing_thresh set, only
 * returns that took at least that long are recorded; with set_graph_function
 * set, only the calls of its functions and the calls under way inside them
 * (their entries on the return stack carry DT_RET_TREE).
 */

#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/time.h>

#include "output.h"
#include "patch.h"
#include "return.h"
#include "ring.h"
#include "scope.h"
#include "tracer.h"

static dyntrace_func_t graph_entry;

/* Fill one record: IRQs off, maybe in NMI/MCE context. */
static void graph_record(unsigned long ip, unsigned long parent_ip,
                         uint64_t ts, unsigned int depth, unsigned int flags)
{
    struct dyntrace_record *rec;
    const struct vcpu *v;
    struct dt_ring *r;
    unsigned int cpu;

    rec = dt_ring_reserve(&r, &cpu, sizeof(*rec));
    if ( !rec )
        return;
    /* As in function_call(): turned off while we reserved. */
    if ( unlikely(!ACCESS_ONCE(dt_recording)) )
    {
        dt_ring_cancel(r);
        return;
    }
    if ( in_irq() )
        flags |= DT_FLAG_IN_IRQ;
    /* No anchor in NMI/MCE context: NOW() may read a torn calibration. */
    if ( !(flags & DT_FLAG_IN_NMI) && unlikely(dt_ring_anchor_due(r, ts)) )
        dt_ring_anchor(r, ts);
    rec->ts = ts;
    rec->ip = ip;
    rec->parent_ip = parent_ip;
    v = current;
    rec->domid = v->domain->domain_id;
    rec->vcpu = v->vcpu_id;
    rec->cpu = cpu;
    rec->flags = flags;
    rec->pad = depth;

    dt_ring_commit(r);
}

/* The time now (raw, B14), and the flags of the context it is read in. */
static always_inline uint64_t graph_stamp(unsigned int *flags)
{
    *flags |= DT_FLAG_RAW_TS;
    if ( arch_dyntrace_in_nmi() )
        *flags |= DT_FLAG_IN_NMI;

    return arch_dyntrace_stamp();
}

static void cf_check graph_entry(unsigned long ip, unsigned long parent_ip,
                                 unsigned long *ret, bool irqs_off)
{
    unsigned int depth, flags = irqs_off ? DT_FLAG_IRQS_OFF : 0;
    unsigned int owners = DT_RET_GRAPH;
    uint64_t now;

    if ( !ret || !ACCESS_ONCE(dt_recording) )
        return;
    /* set_graph_function: a root, or a call inside a root's tree. */
    if ( unlikely(!dt_state_graph_all()) )
    {
        if ( !dt_state_graph_root(ip) &&
             !(dt_ret_enclosing(ret) & DT_RET_TREE) )
            return;
        owners |= DT_RET_TREE;
    }
    now = graph_stamp(&flags);
    depth = dt_ret_push(ret, ip, now, ACCESS_ONCE(dt_graph_max_depth),
                        owners, 0);
    /* Not hooked: no entry either, the output nests only what returns. */
    if ( !depth || ACCESS_ONCE(dt_tracing_thresh) )
        return;
    graph_record(ip, parent_ip, now, depth, flags | DT_FLAG_GRAPH_ENT);
}

/*
 * A hooked return (return.c): recorded while function_graph is the tracer
 * and tracing is on.  Returns still pending from an earlier run of it are
 * popped with no record.
 */
static void cf_check graph_return(unsigned long func, uint64_t calltime,
                                  unsigned int depth, uint32_t cookie)
{
    unsigned int flags = DT_FLAG_GRAPH_RET;
    uint32_t thresh = ACCESS_ONCE(dt_tracing_thresh);
    uint64_t now;

    if ( dt_tracer_active() != graph_entry || !ACCESS_ONCE(dt_recording) )
        return;
    now = graph_stamp(&flags);
    if ( thresh )
    {
        if ( dt_stamp_delta_ns(now - calltime) < thresh * 1000ULL )
            return;
        flags |= DT_FLAG_GRAPH_TAIL;
    }
    graph_record(func, calltime, now, depth, flags);
}

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
                         const struct dyntrace_record *r, bool timed,
                         uint64_t ns)
{
    char ctx[CONTEXT_MAX];

    if ( r->domid == DOMID_IDLE )
        safe_strcpy(ctx, "<idle>");
    else
        snprintf(ctx, sizeof(ctx), "d%uv%u", r->domid, r->vcpu);

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
 * One line: an entry whose next record on its CPU is its own return is a
 * leaf ("f();", two records); another entry opens "f() {"; a return closes
 * it with "}" and the function's name in a comment (ftrace's
 * funcgraph-tail: which call a "}" closes need not be guessed when frames
 * were abandoned).  Indented two spaces per level.  A record of another tracer (not ours) is a bare name.
 */
static unsigned int cf_check graph_line(struct dyntrace_text *t,
                                        unsigned long max,
                                        struct sym_caches *c,
                                        const struct dyntrace_record *r,
                                        const struct dyntrace_record *end)
{
    const struct dyntrace_record *n = r + 1;
    unsigned int indent = 2 * (r->pad ?: 1);

    if ( r->flags & DT_FLAG_GRAPH_ENT )
    {
        if ( n < end && (n->flags & DT_FLAG_GRAPH_RET) && n->ip == r->ip &&
             n->pad == r->pad && n->parent_ip == r->ts )
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
    if ( r->flags & DT_FLAG_GRAPH_RET )
    {
        print_prefix(t, max, r, true, r->ts - r->parent_ip);
        dyntrace_text_printf(t, max, "%*s} /* %s */\n", indent, "",
                             dt_symbol_cached(&c->func, r->ip));
        return 1;
    }
    print_prefix(t, max, r, false, 0);
    dyntrace_text_printf(t, max, "%*s%s\n", indent, "",
                         dt_symbol_cached(&c->func, r->ip));
    return 1;
}

static const struct dt_format graph_format = {
    .name = "function_graph", .header = graph_header, .line = graph_line,
};

static int cf_check graph_print(struct dyntrace_text *t,
                                struct dyntrace_read *rd)
{
    return rd->raw ? dt_print_raw(t, rd) : dt_print_rings(&graph_format, t, rd);
}

static int cf_check graph_usable(const char **why)
{
#ifdef ARCH_DYNTRACE_RETURN
    return arch_dyntrace_return_usable(why);
#else
    *why = "no return hooking on this architecture yet";
    return -EOPNOTSUPP;
#endif
}

static struct tracer graph_tracer = {
    .name = "function_graph",
    .uses_filter = true,
    .set_on = dt_rings_set_on_cb,
    .clear = dt_rings_clear_cb,
    .print = graph_print,
    .func = graph_entry,
    .usable = graph_usable,
};

static int __init cf_check graph_tracer_init(void)
{
    BUILD_BUG_ON(DT_RET_DEPTH != DT_GRAPH_DEPTH_MAX);
    BUILD_BUG_ON(DT_GRAPH_DEPTH_MAX > UINT8_MAX);

    dt_ret_set_hook(DT_RET_GRAPH, graph_return);
    dyntrace_register_tracer(&graph_tracer);

    return 0;
}
/* After function.c's: the rings exist, and nop is the first tracer. */
presmp_initcall(graph_tracer_init);
