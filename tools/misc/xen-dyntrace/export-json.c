/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export -f json: the Chrome trace-event format, which Perfetto UI,
 * chrome://tracing and speedscope open.  One process ("Xen"), one thread per
 * physical CPU ("pCPU N").  On each CPU:
 *  - every record is an instant event named after the traced function, with
 *    the domain, vCPU, caller and flags as arguments;
 *  - each run of records of one context (d1v0, <idle>) is a complete event
 *    named after it, lasting from the run's first record to 1 ns before the
 *    next run's first record (the last run ends at its last record): on
 *    whose behalf the CPU was working, as far as the traced entries show;
 *  - a loss is an instant event "LOST N EVENTS".
 * A function_graph capture's records are calls instead: each return (or
 * leaf) is a complete event named after the function, from the call to its
 * return, on a thread of its CPU's own ("pCPU N calls", tid CALLS_TID + N),
 * so that the viewer nests them; an entry record adds nothing (a call whose
 * return was not recorded does not show).
 * Times are microseconds of Xen's system time.  Written to OUT.tmp, then
 * renamed: a failed export leaves no partial OUT.
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

static void us(FILE *f, uint64_t ns)
{
    fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

struct run {
    bool open;
    uint16_t domid, vcpu;
    uint64_t start, last;
};

static void close_run(FILE *f, unsigned int cpu, struct run *r, uint64_t end)
{
    struct xen_dyntrace_record rec = { .domid = r->domid, .vcpu = r->vcpu };
    char ctx[32];

    if ( !r->open )
        return;
    xdt_context(&rec, ctx, sizeof(ctx));
    fprintf(f, ",\n{\"name\":");
    json_str(f, ctx);
    fprintf(f, ",\"cat\":\"context\",\"ph\":\"X\",\"pid\":0,"
            "\"tid\":%u,\"ts\":", cpu);
    us(f, r->start);
    fprintf(f, ",\"dur\":");
    us(f, end - r->start);
    fprintf(f, "}");
    r->open = false;
}

struct json_ctx {
    FILE *f;
    const struct xdt_names *n;
    struct run *runs;
};

/* The calls of pCPU N (function_graph) are thread CALLS_TID + N. */
#define CALLS_TID 1000

/* A function_graph return or leaf: the call, as a complete event. */
static int json_call(struct json_ctx *j, const struct xen_dyntrace_record *r)
{
    uint64_t call = r->parent_ip < r->ts ? r->parent_ip : r->ts;
    char fn[256], ctx[32];
    FILE *f = j->f;

    xdt_name_ip(j->n, r->ip, fn, sizeof(fn));
    xdt_context(r, ctx, sizeof(ctx));
    fprintf(f, ",\n{\"name\":");
    json_str(f, fn);
    fprintf(f, ",\"cat\":\"call\",\"ph\":\"X\",\"pid\":0,\"tid\":%u,"
               "\"ts\":", CALLS_TID + r->cpu);
    us(f, call);
    fprintf(f, ",\"dur\":");
    us(f, r->ts - call);
    fprintf(f, ",\"args\":{\"context\":");
    json_str(f, ctx);
    fprintf(f, ",\"domain\":%u,\"vcpu\":%u,\"depth\":%u}}", r->domid,
            r->vcpu, r->depth);

    return ferror(f) ? -1 : 0;
}

static int json_event(const struct xdt_event *e, void *arg)
{
    struct json_ctx *j = arg;
    const struct xen_dyntrace_record *r = &e->rec;
    struct run *ru = &j->runs[r->cpu];
    char fn[256], caller[256], ctx[32];
    FILE *f = j->f;

    if ( e->lost )
    {
        fprintf(f, ",\n{\"name\":\"LOST %" PRIu64 " EVENTS\",\"cat\":\"lost\","
                   "\"ph\":\"i\",\"s\":\"t\",\"pid\":0,\"tid\":%u,\"ts\":",
                r->ip, r->cpu);
        us(f, r->ts);
        fprintf(f, "}");
        return ferror(f) ? -1 : 0;
    }
    /*
     * A run ends 1 ns before the next begins: viewers that turn complete
     * events into begin/end pairs would otherwise nest runs that touch.
     */
    if ( ru->open && (ru->domid != r->domid || ru->vcpu != r->vcpu) )
        close_run(f, r->cpu, ru, r->ts > ru->start ? r->ts - 1 : r->ts);
    if ( !ru->open )
        *ru = (struct run){ .open = true, .domid = r->domid,
                            .vcpu = r->vcpu, .start = r->ts };
    ru->last = r->ts;
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET )
        return json_call(j, r);
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT )
        return 0;

    xdt_name_ip(j->n, r->ip, fn, sizeof(fn));
    xdt_name_parent(j->n, r->parent_ip, caller, sizeof(caller));
    xdt_context(r, ctx, sizeof(ctx));
    fprintf(f, ",\n{\"name\":");
    json_str(f, fn);
    fprintf(f, ",\"cat\":\"function\",\"ph\":\"i\",\"s\":\"t\",\"pid\":0,"
               "\"tid\":%u,\"ts\":", r->cpu);
    us(f, r->ts);
    fprintf(f, ",\"args\":{\"context\":");
    json_str(f, ctx);
    fprintf(f, ",\"domain\":%u,\"vcpu\":%u,\"caller\":", r->domid, r->vcpu);
    json_str(f, caller);
    fprintf(f, ",\"flags\":\"%c%c%c\"}}",
            (r->flags & XEN_DYNTRACE_FLAG_IRQS_OFF) ? 'd' : '.',
            (r->flags & XEN_DYNTRACE_FLAG_IN_IRQ) ? 'h' : '.',
            (r->flags & XEN_DYNTRACE_FLAG_IN_NMI) ? 'z' : '.');

    return ferror(f) ? -1 : 0;
}

int export_json(const struct xdt_capture *c, const struct xdt_names *n,
                const char *out)
{
    struct json_ctx j = { .n = n };
    char *tmp = NULL;
    unsigned int cpu;
    bool graph;
    int bad;

    j.runs = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*j.runs));
    if ( !j.runs || asprintf(&tmp, "%s.tmp", out) < 0 )
    {
        free(j.runs);
        xdt_err("export: out of memory");
        return XDT_EXIT_FAIL;
    }
    j.f = fopen(tmp, "w");
    if ( !j.f )
    {
        xdt_err("export: %s: %s", tmp, strerror(errno));
        free(j.runs);
        free(tmp);
        return XDT_EXIT_FAIL;
    }
    fprintf(j.f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
                 "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,"
                 "\"args\":{\"name\":\"Xen\"}}");
    graph = xdt_capture_is_graph(c);
    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
    {
        fprintf(j.f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
                     "\"tid\":%u,\"args\":{\"name\":\"pCPU %u\"}}", cpu, cpu);
        if ( graph )
            fprintf(j.f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\","
                         "\"pid\":0,\"tid\":%u,\"args\":{\"name\":"
                         "\"pCPU %u calls\"}}", CALLS_TID + cpu, cpu);
    }
    bad = xdt_capture_iterate(c, json_event, &j);
    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
        close_run(j.f, cpu, &j.runs[cpu], j.runs[cpu].last);
    fprintf(j.f, "\n]}\n");
    free(j.runs);

    bad |= fflush(j.f) | ferror(j.f);
    bad |= fclose(j.f);
    if ( bad )
    {
        xdt_err("export: writing %s: %s", tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        return XDT_EXIT_FAIL;
    }
    if ( rename(tmp, out) )
    {
        xdt_err("export: %s: %s", out, strerror(errno));
        unlink(tmp);
        free(tmp);
        return XDT_EXIT_FAIL;
    }
    free(tmp);

    return XDT_EXIT_OK;
}
