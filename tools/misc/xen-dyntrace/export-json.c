/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export -f json: the Chrome trace-event format, which Perfetto UI,
 * chrome://tracing and speedscope open.  One process ("Xen"), one thread per
 * physical CPU ("pCPU N").  Every record becomes a complete event ("X"),
 * the kind every one of those viewers draws, named after its function
 * alone: speedscope names a frame after an event's name and its arguments,
 * so an event has no arguments and its context (d1v0, <idle>) is its
 * category, which Perfetto shows.  On each CPU:
 *  - a function record lasts until the CPU's next record (1 ns before it):
 *    the time until the CPU's next traced call, which is as near as the
 *    function tracer comes to where the time went; the CPU's last record
 *    lasts 0;
 *  - each run of records of one context is a complete event named after
 *    it, in category "context", around its records' events: they nest in
 *    it;
 *  - no two events of a CPU's line touch or end together: records that
 *    share a timestamp are laid 1 ns apart, a run's first 2 ns later
 *    (struct run);
 *  - a loss is an instant event "LOST N EVENTS" (Perfetto shows it;
 *    speedscope draws no instants).
 * A function_graph capture's records are calls instead: each return (or
 * leaf) is a complete event named after the function, from the call to its
 * return, on a thread of its CPU's own ("pCPU N calls", tid CALLS_TID + N),
 * so that the viewer nests them; an entry record adds nothing (a call whose
 * return was not recorded does not show).
 * Events of Xen's trace points (record -e) go on tracks of their own, so
 * that they change nothing above:
 *  - each pCPU's "pCPU N vCPUs" (tid VCPUS_TID + N): from every vCPU
 *    switch (sched_switch) to the CPU's next, a complete event named after
 *    the vCPU switched in (d1v0, idle), and every event as an instant
 *    event named after it, its fields in args (Perfetto shows them);
 *  - each vCPU's own ("d1v0", tid VCPU_TID + its trace.dat pid): the same
 *    spans, named after the pCPU it ran on.
 * Times are microseconds of Xen's system time from a whole second before
 * the first record, which otherData.xen_time_base_seconds gives.  report.c
 * decides where the output goes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xen-dyntrace.h"

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for ( ; *s; s++ )
    {
        unsigned char ch = *s;

        if ( ch == '"' || ch == '\\' )
            fprintf(f, "\\%c", ch);
        else if ( ch < 0x20 )
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/*
 * Times are from json_base, a whole second of Xen's time one or two before
 * the capture's first record (otherData.xen_time_base_seconds; a
 * function_graph call may begin before the first record): viewers add up
 * microseconds in doubles, which keep 1 ns apart only below 2^42 us (51
 * days of uptime) from zero.
 */
static uint64_t json_base;

static void us(FILE *f, uint64_t ns)
{
    fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

static void at(FILE *f, uint64_t ns)
{
    us(f, ns > json_base ? ns - json_base : 0);
}

/* A CPU's open context run, and its function record not yet written. */
/*
 * A CPU's state.  Viewers turn complete events into begin/end pairs at
 * ts and ts + dur, added up in floating point: events that touch, or end
 * together, may come out in the wrong order and nest wrongly.  So on a
 * CPU's line every function event starts at least 1 ns after the previous
 * one ended (at), even where records share a timestamp, and a context run
 * starts 1 ns before its first function event and ends 1 ns after its
 * last, the next run's first function event 3 ns after that one at least.
 */
struct run {
    bool open;                  /* a context run */
    uint16_t domid, vcpu;
    uint64_t start;             /* the run's */
    bool pending;               /* a function record not yet written */
    uint64_t pstart;            /* its start */
    bool any;                   /* at is set */
    uint64_t at;                /* where the last event ended */
    struct xen_dyntrace_record rec;
};

/* A complete event: name, category, thread, start and end in ns. */
static void complete(FILE *f, const char *name, const char *cat,
                     unsigned int tid, uint64_t start, uint64_t end)
{
    fprintf(f, ",\n{\"name\":");
    json_str(f, name);
    fprintf(f, ",\"cat\":");
    json_str(f, cat);
    fprintf(f, ",\"ph\":\"X\",\"pid\":0,\"tid\":%u,\"ts\":", tid);
    at(f, start);
    fprintf(f, ",\"dur\":");
    us(f, end > start ? end - start : 0);
    fputc('}', f);
}

/* A pCPU's vCPU since its last switch (sched_switch). */
struct residency {
    bool open;
    uint32_t domid, vcpu;
    uint64_t start;
    bool named;                 /* its track's thread_name is written */
};

struct json_ctx {
    FILE *f;
    const struct xdt_names *n;
    struct run *runs;
    struct residency *res;
    uint64_t *last_ts;          /* each CPU's last record's time */
    uint32_t *vcpus;            /* the vCPU tracks named, as pids */
    size_t nr_vcpus, cap_vcpus;
};

/* The pending function record of a CPU, lasting until end. */
static void flush_function(struct json_ctx *j, struct run *ru, uint64_t end)
{
    char fn[256], ctx[32];

    if ( !ru->pending )
        return;
    xdt_name_ip(j->n, ru->rec.ip, fn, sizeof(fn));
    xdt_context(&ru->rec, ctx, sizeof(ctx));
    complete(j->f, fn, ctx, ru->rec.cpu, ru->pstart, end);
    ru->pending = false;
}

static void close_run(FILE *f, unsigned int cpu, struct run *r, uint64_t end)
{
    struct xen_dyntrace_record rec = { .domid = r->domid, .vcpu = r->vcpu };
    char ctx[32];

    if ( !r->open )
        return;
    xdt_context(&rec, ctx, sizeof(ctx));
    complete(f, ctx, "context", cpu, r->start, end);
    r->open = false;
}

/*
 * The calls of pCPU N (function_graph) are thread CALLS_TID + N, above any
 * pCPU's own.
 */
#define CALLS_TID XDT_MAX_CPUS

/* A function_graph return or leaf: the call, as a complete event. */
/*
 * A call's times in picoseconds from json_base, moved by its depth d: its
 * start d ps later, its end d ps earlier (never before its start).  Calls
 * that begin or end in the same nanosecond as their caller then nest
 * strictly inside it, and a call that begins in the nanosecond its sibling
 * returned comes strictly after it: viewers order begin/end pairs by time
 * alone.  Doubles keep a picosecond apart up to 2^53 ps (2.5 hours) from
 * json_base.
 */
static void ps(FILE *f, uint64_t v)
{
    fprintf(f, "%" PRIu64 ".%06" PRIu64, v / 1000000, v % 1000000);
}

static int json_call(struct json_ctx *j, const struct xdt_event *e)
{
    const struct xen_dyntrace_record *r = &e->rec;
    uint64_t call = r->parent_ip < r->ts ? r->parent_ip : r->ts;
    uint64_t start = (call > json_base ? call - json_base : 0) * 1000;
    uint64_t end = (r->ts > json_base ? r->ts - json_base : 0) * 1000;
    char fn[256], ctx[32];
    FILE *f = j->f;

    start += r->depth;
    end = end > start + r->depth ? end - r->depth : start;
    xdt_name_ip(j->n, r->ip, fn, sizeof(fn));
    xdt_context(r, ctx, sizeof(ctx));
    fprintf(f, ",\n{\"name\":");
    json_str(f, fn);
    fprintf(f, ",\"cat\":");
    json_str(f, ctx);
    fprintf(f, ",\"ph\":\"X\",\"pid\":0,\"tid\":%u,\"ts\":",
            CALLS_TID + r->cpu);
    ps(f, start);
    fprintf(f, ",\"dur\":");
    ps(f, end - start);
    /* options/funcgraph-retval: what it returned, as report prints it. */
    if ( e->has_retval )
    {
        char val[32];

        xdt_retval_text(e->retval, val, sizeof(val));
        fprintf(f, ",\"args\":{\"retval\":");
        json_str(f, val);
        fputc('}', f);
    }
    fputc('}', f);

    return ferror(f) ? -1 : 0;
}

/* The tracks of events: each pCPU's, above its calls'; each vCPU's. */
#define VCPUS_TID (2 * XDT_MAX_CPUS)
#define VCPU_TID  (3 * XDT_MAX_CPUS)

/* A vCPU's track: trace.dat's pid of it, 4096 * domain + vCPU + 1. */
static unsigned int vcpu_track(struct json_ctx *j, uint32_t domid,
                               uint32_t vcpu)
{
    uint32_t pid = (domid & 0x7fff) * 4096 + (vcpu & 4095) + 1;
    size_t i;

    for ( i = 0; i < j->nr_vcpus && j->vcpus[i] != pid; i++ )
        continue;
    if ( i == j->nr_vcpus )
    {
        if ( j->nr_vcpus == j->cap_vcpus )
        {
            size_t cap = j->cap_vcpus ? 2 * j->cap_vcpus : 32;
            uint32_t *v = realloc(j->vcpus, cap * sizeof(*v));

            if ( !v )
                return 0;
            j->vcpus = v;
            j->cap_vcpus = cap;
        }
        j->vcpus[j->nr_vcpus++] = pid;
        fprintf(j->f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
                      "\"tid\":%u,\"args\":{\"name\":\"d%uv%u\"}}",
                VCPU_TID + pid, domid & 0x7fff, vcpu & 4095);
    }

    return VCPU_TID + pid;
}

static void vcpu_name(char *buf, size_t len, uint32_t domid, uint32_t vcpu)
{
    if ( domid == XDT_DOMID_IDLE )
        snprintf(buf, len, "idle");
    else
        snprintf(buf, len, "d%uv%u", domid, vcpu);
}

/* The end of pCPU cpu's residency (1 ns before end: spans never touch). */
static void close_residency(struct json_ctx *j, unsigned int cpu,
                            uint64_t end)
{
    struct residency *rs = &j->res[cpu];
    char name[32];

    if ( !rs->open )
        return;
    end = end > rs->start + 1 ? end - 1 : rs->start;
    vcpu_name(name, sizeof(name), rs->domid, rs->vcpu);
    complete(j->f, name, "vcpu", VCPUS_TID + cpu, rs->start, end);
    if ( rs->domid != XDT_DOMID_IDLE )
    {
        unsigned int tid = vcpu_track(j, rs->domid, rs->vcpu);

        snprintf(name, sizeof(name), "pCPU %u", cpu);
        if ( tid )
            complete(j->f, name, "pcpu", tid, rs->start, end);
    }
    rs->open = false;
}

/* An event: an instant on its pCPU's track; a switch, a new residency. */
static int json_trace_event(struct json_ctx *j, const struct xdt_event *e)
{
    const struct xen_dyntrace_record *r = &e->rec;
    struct residency *rs = &j->res[r->cpu];
    const char *cls = "event", *name = xdt_event_name(e->id, &cls);
    char text[256];
    FILE *f = j->f;

    if ( !rs->named )
    {
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
                   "\"tid\":%u,\"args\":{\"name\":\"pCPU %u vCPUs\"}}",
                VCPUS_TID + r->cpu, r->cpu);
        rs->named = true;
    }
    if ( xdt_event_is_switch(e) )
    {
        close_residency(j, r->cpu, r->ts);
        rs->open = true;
        rs->domid = e->word[2];
        rs->vcpu = e->word[3];
        rs->start = r->ts;
    }
    xdt_event_text(e, text, sizeof(text));
    fprintf(f, ",\n{\"name\":");
    json_str(f, name ? name : "event");
    fprintf(f, ",\"cat\":");
    json_str(f, cls);
    fprintf(f, ",\"ph\":\"i\",\"s\":\"t\",\"pid\":0,\"tid\":%u,\"ts\":",
            VCPUS_TID + r->cpu);
    at(f, r->ts);
    fprintf(f, ",\"args\":{\"event\":");
    json_str(f, text);
    fprintf(f, "}}");

    return ferror(f) ? -1 : 0;
}

static int json_event(const struct xdt_event *e, void *arg)
{
    struct json_ctx *j = arg;
    const struct xen_dyntrace_record *r = &e->rec;
    struct run *ru = &j->runs[r->cpu];
    uint64_t start, end, gap;
    bool fresh;
    FILE *f = j->f;

    if ( e->lost )
    {
        fprintf(f, ",\n{\"name\":\"LOST %" PRIu64 " EVENTS\",\"cat\":\"lost\","
                   "\"ph\":\"i\",\"s\":\"t\",\"pid\":0,\"tid\":%u,\"ts\":",
                r->ip, r->cpu);
        at(f, r->ts);
        fprintf(f, "}");
        return ferror(f) ? -1 : 0;
    }
    if ( r->ts > j->last_ts[r->cpu] )
        j->last_ts[r->cpu] = r->ts;
    if ( xdt_is_event(r) )
        return json_trace_event(j, e);
    /*
     * The CPU's previous function record lasts until 1 ns before this one
     * (or is a point, when they share a timestamp); a run ends where its
     * last record's event did; the next starts 1 ns after that at least.
     */
    if ( ru->pending )
    {
        end = r->ts > ru->pstart ? r->ts - 1 : ru->pstart;
        flush_function(j, ru, end);
        ru->at = end;
    }
    fresh = !ru->open || ru->domid != r->domid || ru->vcpu != r->vcpu;
    if ( ru->open && fresh )
        close_run(f, r->cpu, ru, ru->at + 1);
    gap = fresh ? 3 : 1;
    if ( ru->any && r->ts < ru->at + gap )
        start = ru->at + gap;
    else
        start = r->ts ? r->ts : 1;
    ru->any = true;
    ru->at = start;
    if ( fresh )
    {
        ru->open = true;
        ru->domid = r->domid;
        ru->vcpu = r->vcpu;
        ru->start = start - 1;
    }
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET )
        return json_call(j, e);
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT )
        return 0;
    ru->pending = true;
    ru->pstart = start;
    ru->rec = *r;

    return ferror(f) ? -1 : 0;
}

int export_json(const struct xdt_capture *c, const struct xdt_names *n,
                FILE *f)
{
    struct json_ctx j = { .n = n, .f = f };
    unsigned int cpu;
    bool graph;
    int bad;

    j.runs = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*j.runs));
    j.res = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*j.res));
    j.last_ts = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*j.last_ts));
    if ( !j.runs || !j.res || !j.last_ts )
    {
        free(j.runs);
        free(j.res);
        free(j.last_ts);
        xdt_err("export: out of memory");
        return XDT_EXIT_FAIL;
    }
    json_base = 0;
    /* A second earlier if it can: a call may begin before the first record. */
    if ( xdt_capture_first_ts(c, &json_base) )
        json_base -= json_base % 1000000000 +
                     (json_base >= 1000000000 ? 1000000000 : 0);
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{"
               "\"xen_time_base_seconds\":%" PRIu64 "},\"traceEvents\":[\n",
            json_base / 1000000000);
    fprintf(f, ""
               "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,"
               "\"args\":{\"name\":\"Xen\"}}");
    graph = xdt_capture_is_graph(c);
    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
    {
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
                   "\"tid\":%u,\"args\":{\"name\":\"pCPU %u\"}}", cpu, cpu);
        if ( graph )
            fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\","
                       "\"pid\":0,\"tid\":%u,\"args\":{\"name\":"
                       "\"pCPU %u calls\"}}", CALLS_TID + cpu, cpu);
    }
    bad = xdt_capture_iterate(c, json_event, &j);
    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
    {
        struct run *ru = &j.runs[cpu];

        flush_function(&j, ru, ru->pstart);
        close_run(f, cpu, ru, ru->at + 1);
        /* A residency lasts until the CPU's last record. */
        close_residency(&j, cpu, j.last_ts[cpu] + 1);
    }
    fprintf(f, "\n]}\n");
    free(j.runs);
    free(j.res);
    free(j.last_ts);
    free(j.vcpus);
    bad |= fflush(f) | ferror(f);
    if ( bad )
    {
        xdt_err("export: writing JSON: %s", strerror(errno));
        return XDT_EXIT_FAIL;
    }

    return XDT_EXIT_OK;
}
