/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: the nop and function tracers, and the ftrace-style output.
 */

#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/symbols.h>
#include <xen/xmalloc.h>

#include "private.h"

#define LINE_MAX (2 * KSYM_NAME_LEN + 64)

static int cf_check rings_set_on(bool on)
{
    return dt_rings_set_on(on);
}

static int cf_check rings_clear(void)
{
    return dt_rings_clear();
}

static void print_header(struct dyntrace_text *t, unsigned long max,
                         const char *name, uint64_t entries, uint64_t written,
                         unsigned int nr_present)
{
    dyntrace_text_printf(t, max,
        "# tracer: %s\n"
        "#\n"
        "# entries-in-buffer/entries-written: %"PRIu64"/%"PRIu64"   #P:%u\n"
        "#\n"
        "#                    _---=> irqs-off\n"
        "#                   / _--=> hardirq\n"
        "#                  | / _-=> nmi\n"
        "#                  || /\n"
        "#   CONTEXT   CPU# |||  TIMESTAMP  FUNCTION\n"
        "#      |        |  |||      |         |\n",
        name, entries, written, nr_present);
}

/*
 * Symbol names by address, for one formatting pass: a trace holds few
 * distinct functions and callers, and Xen's symbol lookup decompresses the
 * name each time.
 */
#define SYM_CACHE_SIZE 64
struct sym_cache {
    unsigned long addr[SYM_CACHE_SIZE];
    char name[SYM_CACHE_SIZE][KSYM_NAME_LEN + 1];
};

static const char *symbol(struct sym_cache *c, unsigned long addr)
{
    unsigned int i = (addr ^ (addr >> 6) ^ (addr >> 12)) % SYM_CACHE_SIZE;

    if ( c->addr[i] != addr || !c->name[i][0] )
    {
        char buf[KSYM_NAME_LEN + 1];

        safe_strcpy(c->name[i], dyntrace_symbol(addr, buf));
        c->addr[i] = addr;
    }

    return c->name[i];
}

static void print_record(struct dyntrace_text *t, unsigned long max,
                         struct sym_cache *c,
                         const struct dyntrace_record *r)
{
    char ctx[16];

    if ( r->domid == DOMID_IDLE )
        safe_strcpy(ctx, "<idle>");
    else
        snprintf(ctx, sizeof(ctx), "d%uv%u", r->domid, r->vcpu);

    dyntrace_text_printf(t, max, "%12s [%03u] %c%c%c %5lu.%06lu: %s <-%s\n",
                         ctx, r->cpu,
                         (r->flags & DT_FLAG_IRQS_OFF) ? 'd' : '.',
                         (r->flags & DT_FLAG_IN_IRQ) ? 'h' : '.',
                         (r->flags & DT_FLAG_IN_NMI) ? 'z' : '.',
                         (unsigned long)(r->ts / SECONDS(1)),
                         (unsigned long)((r->ts % SECONDS(1)) / 1000),
                         symbol(c, r->ip), symbol(c, r->parent_ip));
}

/* One owned snapshot of every CPU's buffer, merged by time and formatted. */
static int print_rings(const char *name, struct dyntrace_text *t)
{
    struct dt_ring_snapshot *snap;
    struct sym_cache *cache;
    unsigned int i, pos[NR_CPUS];
    uint64_t entries = 0, written = 0;
    unsigned long max;
    int rc;

    cache = xzalloc(struct sym_cache);
    if ( !cache )
        return -ENOMEM;

    rc = dt_rings_snapshot(&snap);
    if ( rc )
    {
        xfree(cache);
        return rc;
    }

    for ( i = 0; i < snap->nr_cpus; i++ )
    {
        entries += snap->cpu[i].nr;
        written += snap->cpu[i].written + snap->cpu[i].dropped;
        pos[i] = 0;
    }

    max = 1024 + entries * LINE_MAX;
    rc = dyntrace_text_alloc(t, max);
    if ( rc )
        goto out;

    print_header(t, max, name, entries, written, snap->nr_present);

    for ( ;; )
    {
        const struct dyntrace_record *next = NULL;
        unsigned int best = 0;

        for ( i = 0; i < snap->nr_cpus; i++ )
        {
            const struct dt_ring_copy *c = &snap->cpu[i];

            if ( pos[i] < c->nr &&
                 (!next || c->recs[pos[i]].ts < next->ts) )
            {
                next = &c->recs[pos[i]];
                best = i;
            }
        }
        if ( !next )
            break;
        pos[best]++;
        print_record(t, max, cache, next);
    }

 out:
    dt_rings_free_snapshot(snap);
    xfree(cache);
    return rc;
}

static int cf_check nop_print(struct dyntrace_text *t)
{
    return print_rings("nop", t);
}

static int cf_check function_print(struct dyntrace_text *t)
{
    return print_rings("function", t);
}

static void cf_check function_call(unsigned long ip, unsigned long parent_ip,
                                   unsigned int flags)
{
    dt_ring_record(ip, parent_ip, flags);
}

static struct tracer nop_tracer = {
    .name = "nop",
    .set_on = rings_set_on,
    .clear = rings_clear,
    .print = nop_print,
};

static struct tracer function_tracer = {
    .name = "function",
    .uses_filter = true,
    .set_on = rings_set_on,
    .clear = rings_clear,
    .print = function_print,
    .func = function_call,
};

static int __init cf_check function_tracer_init(void)
{
    int rc = dt_rings_init();

    if ( rc )
        return rc;

    /* nop first: the core starts with the first tracer registered. */
    dyntrace_register_tracer(&nop_tracer);
    dyntrace_register_tracer(&function_tracer);

    return 0;
}
presmp_initcall(function_tracer_init);
