/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: the nop and function tracers: their record, the callback
 * that fills it into a reserved ring slot, and the ftrace-style output.
 */

#include <xen/bug.h>
#include <xen/dyntrace.h>
#include <xen/errno.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/symbols.h>
#include <xen/time.h>
#include <xen/xmalloc.h>

#include "ring.h"

/* One binary record of the function tracer: 32 bytes on 64-bit. */
struct dyntrace_record {
    uint64_t ts;                /* NOW(), ns */
    unsigned long ip;           /* traced function's patch site */
    unsigned long parent_ip;    /* its caller's return address */
    uint16_t domid;             /* domain running (DOMID_IDLE: idle) */
    uint16_t vcpu;
    uint16_t cpu;
    uint8_t flags;
#define DT_FLAG_IRQS_OFF  (1u << 0)
#define DT_FLAG_IN_IRQ    (1u << 1)
#define DT_FLAG_IN_NMI    (1u << 2)
    uint8_t pad;
};

/* The record layout is part of the interface (docs, benchmarks). */
#define RECORD_SIZE 32

/* Room for one formatted line: two symbol names and the fixed fields. */
#define LINE_MAX (2 * KSYM_NAME_LEN + 64)
/* Room for the header. */
#define HEADER_MAX 1024
/* Room for "d<domid>v<vcpu>" or "<idle>". */
#define CONTEXT_MAX 16

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
    char ctx[CONTEXT_MAX];

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
    unsigned int i, *pos;
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

    /* Next record to print, per CPU of the snapshot. */
    pos = xzalloc_array(unsigned int, snap->nr_cpus);
    if ( !pos )
    {
        rc = -ENOMEM;
        goto out;
    }

    for ( i = 0; i < snap->nr_cpus; i++ )
    {
        entries += snap->cpu[i].nr;
        written += snap->cpu[i].written + snap->cpu[i].dropped;
    }

    max = HEADER_MAX + entries * LINE_MAX;
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
            const struct dyntrace_record *recs = c->recs;

            if ( pos[i] < c->nr &&
                 (!next || recs[pos[i]].ts < next->ts) )
            {
                next = &recs[pos[i]];
                best = i;
            }
        }
        if ( !next )
            break;
        pos[best]++;
        print_record(t, max, cache, next);
    }

 out:
    xfree(pos);
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

/*
 * The callback: IRQs off (the dispatcher), maybe nested through NMI/MCE.
 * Everything it calls is inline or notrace.
 */
static void cf_check function_call(unsigned long ip, unsigned long parent_ip,
                                   bool irqs_off)
{
    struct dyntrace_record *rec;
    struct dt_ring *r;
    const struct vcpu *v;
    unsigned int cpu, flags = irqs_off ? DT_FLAG_IRQS_OFF : 0;

    rec = dt_ring_reserve(&r, &cpu, sizeof(*rec));
    if ( !rec )
        return;

    if ( in_irq() )
        flags |= DT_FLAG_IN_IRQ;
    if ( arch_dyntrace_in_nmi() )
        flags |= DT_FLAG_IN_NMI;

    rec->ts = NOW();
    rec->ip = ip;
    rec->parent_ip = parent_ip;
    v = current;
    rec->domid = v->domain->domain_id;
    rec->vcpu = v->vcpu_id;
    rec->cpu = cpu;
    rec->flags = flags;
    rec->pad = 0;

    dt_ring_commit(r);
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
    int rc;

    BUILD_BUG_ON(sizeof(struct dyntrace_record) != RECORD_SIZE);

    rc = dt_rings_init(sizeof(struct dyntrace_record));
    if ( rc )
        return rc;

    /* nop first: tracing starts with the first tracer registered. */
    dyntrace_register_tracer(&nop_tracer);
    dyntrace_register_tracer(&function_tracer);

    return 0;
}
presmp_initcall(function_tracer_init);
