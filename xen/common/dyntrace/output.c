/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * dyntrace: the output layer of the tracers that keep records in the
 * rings (output.h): one owned snapshot of the buffers a read asks for,
 * merged by time and formatted by the tracer's struct dt_format; the raw
 * format of trace_pipe_raw; the symbol caches; the rings' set_on() and
 * clear() callbacks.
 */
#else
/*
 * dyntrace: the output layer of the tracers that keep records in the
 * rings (output.h): one owned snapshot of the buffers, merged by time and
 * formatted by the tracer's struct dt_format; the symbol caches; the
 * rings' set_on() and clear() callbacks.
 */
#endif

#include <xen/bug.h>
#include <xen/dyntrace.h>
#include <xen/errno.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/symbols.h>
#include <xen/time.h>
#include <xen/xmalloc.h>

#ifdef DYNTRACE_WITH_EVENTS
#include "events.h"
#endif
#include "output.h"
#include "ring.h"
#include "tracer.h"

#ifdef DYNTRACE_WITH_EVENTS
/*
 * The line of record r: the tracer's, or an event's, as the tracer lays
 * events out (or as the function tracer does).
 */
static unsigned int line_of(const struct dt_format *f,
                            struct dyntrace_text *t, unsigned long max,
                            struct sym_caches *c,
                            const struct xen_dyntrace_record *r,
                            const struct xen_dyntrace_record *end)
{
    char text[DT_EVENT_TEXT_MAX];
    unsigned int used;

    if ( !dt_record_is_event(r) )
        return f->line(t, max, c, r, end);
    used = dt_event_text(text, sizeof(text), r, end);
    if ( !text[0] )
        return used;
    if ( f->event_line )
        f->event_line(t, max, r, text);
    else
    {
        dt_print_context(t, max, r);
        dyntrace_text_printf(t, max, "%s\n", text);
    }

    return used;
}
#else
#define line_of(f, t, max, c, r, end) (f)->line(t, max, c, r, end)
#endif

/*
 * Recording on or off: dt_recording says whether the callback writes
 * (dt_state_set_on()); the buffers keep taking records, and holding each
 * one in turn drains the callbacks still writing.  A callback that passed
 * the test before recording went off and finds its buffer held drops an
 * event that comes after the switch: not counted as lost.
 */
int cf_check dt_rings_set_on_cb(bool on)
{
    return dt_rings_set_on(true, on);
}

int cf_check dt_rings_clear_cb(void)
{
    return dt_rings_clear();
}

void dt_context_name(char ctx[CONTEXT_MAX],
                     const struct xen_dyntrace_record *r)
{
    if ( r->domid == DOMID_IDLE )
        snprintf(ctx, CONTEXT_MAX, "<idle>");
    else
        snprintf(ctx, CONTEXT_MAX, "d%uv%u", r->domid, r->vcpu);
}

void dt_print_context(struct dyntrace_text *t, unsigned long max,
                      const struct xen_dyntrace_record *r)
{
    char ctx[CONTEXT_MAX];
    uint64_t us = (r->ts + 500) / 1000;

    dt_context_name(ctx, r);

    dyntrace_text_printf(t, max, "%12s [%03u] %c%c%c %5lu.%06lu: ",
                         ctx, r->cpu,
                         (r->flags & XEN_DYNTRACE_FLAG_IRQS_OFF) ? 'd' : '.',
                         (r->flags & XEN_DYNTRACE_FLAG_IN_IRQ) ? 'h' : '.',
                         (r->flags & XEN_DYNTRACE_FLAG_IN_NMI) ? 'z' : '.',
                         (unsigned long)(us / 1000000),
                         (unsigned long)(us % 1000000));
}

const char *dt_symbol_cached(struct sym_cache *c, unsigned long addr)
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

/*
 * The merge: one cursor per CPU of the snapshot, in a binary min-heap keyed
 * on the timestamp of the cursor's next record.  Each record costs
 * O(log CPUs), so formatting is linear in the records whatever NR_CPUS is.
 */
struct cursor {
#ifdef DYNTRACE_WITH_BUFFERS
    struct dt_ring_copy *copy;
#endif
    const struct xen_dyntrace_record *next, *end;
};

static bool cursor_before(const struct cursor *a, const struct cursor *b)
{
    return a->next->ts < b->next->ts;
}

static void heap_down(struct cursor *h, unsigned int n, unsigned int i)
{
    unsigned int child;

    for ( ; (child = 2 * i + 1) < n; i = child )
    {
        struct cursor t;

        if ( child + 1 < n && cursor_before(&h[child + 1], &h[child]) )
            child++;
        if ( !cursor_before(&h[child], &h[i]) )
            break;
        t = h[i];
        h[i] = h[child];
        h[child] = t;
    }
}

/*
 * A record's raw stamp in NOW()'s nanoseconds, with its buffer's anchors
 * (B14), for reading it.
 */
#ifdef DYNTRACE_WITH_GRAPH
/*
 * A function_graph return's entry time is converted the same way when an
 * anchor is near it, so that it equals its entry record's time (graph.c
 * pairs them so); otherwise (no entry record took an anchor:
 * tracing_thresh) it is the return's time less the duration.  Never after
 * the return.
 */
#endif
void dt_record_to_ns(const struct dt_ring_copy *c,
                     struct xen_dyntrace_record *r)
{
    if ( r->flags & XEN_DYNTRACE_FLAG_RAW_TS )
    {
        s_time_t ns = dt_copy_stamp_to_ns(c, r->ts, NULL);

#ifdef DYNTRACE_WITH_GRAPH
        if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET )
        {
            uint64_t stamp = r->parent_ip;
            bool anchored;
            s_time_t call;
#ifdef DYNTRACE_WITH_RETVAL
            /*
             * graph.c's record with the value returned: the entry's stamp
             * from its low 32 bits (public/dyntrace.h).
             */
            bool packed = r->depth & XEN_DYNTRACE_GRAPH_RETVAL;

            if ( packed )
                stamp = r->ts - (uint32_t)((uint32_t)r->ts -
                                           XEN_DYNTRACE_RETVAL_CALL(r->ip));
#endif

            call = dt_copy_stamp_to_ns(c, stamp, &anchored);
            if ( !anchored )
                call = ns - dt_stamp_delta_ns(r->ts - stamp);
            call = min(call, ns);
#ifdef DYNTRACE_WITH_RETVAL
            /* Its duration in nanoseconds where the stamp's bits were. */
            if ( packed )
                r->ip = XEN_DYNTRACE_RETVAL_FUNC(r->ip) |
                        ((uint64_t)min_t(uint64_t, ns - call, UINT32_MAX) <<
                         32);
            else
#endif
                r->parent_ip = call;
        }
#endif
        r->ts = ns;
        r->flags &= ~XEN_DYNTRACE_FLAG_RAW_TS;
    }
}

/*
 * First pass, in buffer order: convert NMI/MCE timestamps to nanoseconds
 * (the merge compares them), then add up the exact length of every line
 * (a line may use several records of its CPU: the same ones as below).
 */
static unsigned long measure(const struct dt_format *f,
                             struct dt_ring_snapshot *snap,
                             struct sym_caches *cache)
{
    unsigned long len = 0;
    unsigned int i, j;

    for ( i = 0; i < snap->nr_cpus; i++ )
    {
        struct xen_dyntrace_record *recs = snap->cpu[i].recs;
        unsigned int nr = snap->cpu[i].nr;

        for ( j = 0; j < nr; j++ )
            dt_record_to_ns(&snap->cpu[i], &recs[j]);
        for ( j = 0; j < nr; )
        {
            struct dyntrace_text line;
            char buf[LINE_MAX];

            line.buf = buf;
            buf[0] = '\0';
            line.len = 1;
            j += line_of(f, &line, sizeof(buf), cache, &recs[j], &recs[nr]);
            len += line.len - 1;
        }
    }

    return len;
}

#ifdef DYNTRACE_WITH_BUFFERS
/* A consuming read returns at most this many records. */
#define PIPE_MAX_RECORDS 1024
/* Room for "CPU:<cpu> [LOST <n> EVENTS]\n". */
#define LOST_LINE_MAX 48

static void print_lost(struct dyntrace_text *t, unsigned long max,
                       struct dt_ring_copy *c)
{
    if ( c->lost )
        dyntrace_text_printf(t, max, "CPU:%u [LOST %"PRIu64" EVENTS]\n",
                             c->cpu, c->lost);
    c->lost_shown = true;
}

/*
 * One owned snapshot of the buffers the read asks for, merged by time and
 * formatted into text of exactly the size its lines need (plus room for the
 * header, or for the lines of losses).  A consuming read (rd->pipe) takes
 * the oldest records, at most PIPE_MAX_RECORDS in time order, and counts in
 * each copy's take what it returned, for the commit.
 */
int dt_print_rings(const struct dt_format *f, struct dyntrace_text *t,
                   struct dyntrace_read *rd)
{
    struct dt_ring_snapshot *snap;
    struct sym_caches *cache;
    struct cursor *heap = NULL;
    unsigned int i, n = 0, left = PIPE_MAX_RECORDS;
    uint64_t entries = 0, written = 0;
    unsigned long max;
    int rc;

    cache = xzalloc(struct sym_caches);
    if ( !cache )
        return -ENOMEM;

    rc = dt_rings_snapshot(&snap, rd->cpu, rd->pipe ? PIPE_MAX_RECORDS : 0);
    if ( rc )
    {
        xfree(cache);
        return rc;
    }

    heap = xmalloc_array(struct cursor, snap->nr_cpus);
    rc = -ENOMEM;
    if ( !heap )
        goto out;

    for ( i = 0; i < snap->nr_cpus; i++ )
    {
        struct dt_ring_copy *c = &snap->cpu[i];

#ifdef DYNTRACE_WITH_EVENTS
        /* E3 of events.c: an event's head stays with its continuation. */
        if ( rd->pipe )
            c->nr = dt_events_whole(c->recs, c->nr);
#endif
        entries += c->nr;
#ifdef DYNTRACE_WITH_EVENTS
        entries -= dt_events_more(c->recs, c->nr);
#endif
        written += c->written + c->dropped;
        c->lost_shown = !rd->pipe;
        if ( !c->nr )
            continue;
        heap[n].copy = c;
        heap[n].next = c->recs;
        heap[n].end = heap[n].next + c->nr;
        n++;
    }

    max = (rd->pipe ? snap->nr_cpus * LOST_LINE_MAX : HEADER_MAX) +
          measure(f, snap, cache) + 1;
    rc = dyntrace_text_alloc(t, max);
    if ( rc )
        goto out;

    if ( !rd->pipe )
        f->header(t, max, f->name, entries, written, snap->nr_present);

    for ( i = n / 2; i-- > 0; )
        heap_down(heap, n, i);
    while ( n && (!rd->pipe || left--) )
    {
        struct dt_ring_copy *c = heap[0].copy;

        unsigned int used;

        if ( !c->lost_shown )
            print_lost(t, max, c);
        used = line_of(f, t, max, cache, heap[0].next, heap[0].end);
        c->take += used;
        heap[0].next += used;
        if ( heap[0].next == heap[0].end )
            heap[0] = heap[--n];
        heap_down(heap, n, 0);
    }

    if ( rd->pipe )
    {
        /* Losses of the buffers no record was returned from. */
        for ( i = 0; i < snap->nr_cpus; i++ )
            if ( !snap->cpu[i].lost_shown )
                print_lost(t, max, &snap->cpu[i]);
        rd->consume = snap;
        snap = NULL;
    }

 out:
    xfree(heap);
    dt_rings_free_snapshot(snap);
    xfree(cache);
    return rc;
}

/*
 * per_cpu/cpuN/trace_pipe_raw: struct xen_dyntrace_raw_header, then the
 * records as they are kept, in ns (public/dyntrace.h).
 */
int dt_print_raw(struct dyntrace_text *t, struct dyntrace_read *rd)
{
    struct dt_ring_snapshot *snap;
    struct xen_dyntrace_raw_header *h;
    struct dt_ring_copy *c;
    struct xen_dyntrace_record *recs;
    unsigned int i;
    int rc;

    ASSERT(rd->pipe && rd->cpu >= 0);
    rc = dt_rings_snapshot(&snap, rd->cpu, XEN_DYNTRACE_RAW_MAX_RECORDS);
    if ( rc )
        return rc;
    c = &snap->cpu[0];
    recs = c->recs;
#ifdef DYNTRACE_WITH_EVENTS
    /* E3 of events.c: an event's head stays with its continuation. */
    c->nr = dt_events_whole(recs, c->nr);
#endif

    rc = dyntrace_text_alloc(t, sizeof(*h) +
                                (unsigned long)c->nr * RECORD_SIZE);
    if ( rc )
    {
        dt_rings_free_snapshot(snap);
        return rc;
    }
    for ( i = 0; i < c->nr; i++ )
        dt_record_to_ns(c, &recs[i]);

    h = (struct xen_dyntrace_raw_header *)t->buf;
    h->magic = XEN_DYNTRACE_RAW_MAGIC;
    h->version = XEN_DYNTRACE_RAW_VERSION;
    h->header_size = sizeof(*h);
    h->record_size = RECORD_SIZE;
    h->cpu = c->cpu;
    h->nr = c->nr;
    h->lost = c->lost;
    h->left = c->entries - c->nr;
    memcpy(h + 1, recs, (unsigned long)c->nr * RECORD_SIZE);
    t->len = sizeof(*h) + c->nr * RECORD_SIZE;
    c->take = c->nr;
    rd->consume = snap;

    return 0;
}
#else
/*
 * One owned snapshot of the buffers, merged by time and formatted into
 * text of exactly the size its lines need, plus room for the header.
 */
int dt_print_rings(const struct dt_format *f, struct dyntrace_text *t)
{
    struct dt_ring_snapshot *snap;
    struct sym_caches *cache;
    struct cursor *heap = NULL;
    unsigned int i, n = 0;
    uint64_t entries = 0, written = 0;
    unsigned long max;
    int rc;

    cache = xzalloc(struct sym_caches);
    if ( !cache )
        return -ENOMEM;

    rc = dt_rings_snapshot(&snap);
    if ( rc )
    {
        xfree(cache);
        return rc;
    }

    heap = xmalloc_array(struct cursor, snap->nr_cpus);
    rc = -ENOMEM;
    if ( !heap )
        goto out;

    for ( i = 0; i < snap->nr_cpus; i++ )
    {
        struct dt_ring_copy *c = &snap->cpu[i];

        entries += c->nr;
        written += c->written + c->dropped;
        if ( !c->nr )
            continue;
        heap[n].next = c->recs;
        heap[n].end = heap[n].next + c->nr;
        n++;
    }

    max = HEADER_MAX + measure(f, snap, cache) + 1;
    rc = dyntrace_text_alloc(t, max);
    if ( rc )
        goto out;

    f->header(t, max, f->name, entries, written, snap->nr_present);

    for ( i = n / 2; i-- > 0; )
        heap_down(heap, n, i);
    while ( n )
    {
        heap[0].next += line_of(f, t, max, cache, heap[0].next,
                                heap[0].end);
        if ( heap[0].next == heap[0].end )
            heap[0] = heap[--n];
        heap_down(heap, n, 0);
    }

 out:
    xfree(heap);
    dt_rings_free_snapshot(snap);
    xfree(cache);
    return rc;
}
#endif
