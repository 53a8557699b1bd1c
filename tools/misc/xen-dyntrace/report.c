/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace report and export: load a capture, name its functions, and
 * print it in the layout of the hypervisor's /tracing/trace (report) or hand
 * it to an exporter.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xen-dyntrace.h"

static const struct option long_opts[] = {
    { "symbols", required_argument, NULL, 's' },
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

struct print_ctx {
    const struct xdt_names *n;
    bool ns;                    /* -t: nanoseconds, as trace-cmd report -t */
};

/* ftrace's marks for long durations, as the hypervisor's function_graph. */
static char duration_mark(uint64_t ns)
{
    static const struct { uint64_t over; char mark; } marks[] = {
        { 1000000000, '$' }, { 100000000, '@' }, { 10000000, '*' },
        { 1000000, '#' }, { 100000, '!' }, { 10000, '+' },
    };
    unsigned int i;

    for ( i = 0; i < sizeof(marks) / sizeof(marks[0]); i++ )
        if ( ns > marks[i].over )
            return marks[i].mark;

    return ' ';
}

/*
 * A function_graph record, as the hypervisor's trace prints it: a leaf
 * "f();" and a return (a "}" with the name in a comment) with the call's
 * duration, an entry "f() {".  (The hypervisor also prints an entry
 * followed by its own return as one leaf line; here they stay two.)
 */
static int print_graph(const struct xdt_names *n,
                       const struct xen_dyntrace_record *r)
{
    unsigned int indent = 2 * (r->depth ? r->depth : 1);
    char ctx[32], fn[256], dur[32] = "";
    uint64_t ns = 0;

    xdt_context(r, ctx, sizeof(ctx));
    xdt_name_ip(n, r->ip, fn, sizeof(fn));
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET )
    {
        ns = r->ts > r->parent_ip ? r->ts - r->parent_ip : 0;
        snprintf(dur, sizeof(dur), "%c%7" PRIu64 ".%03" PRIu64 " us",
                 duration_mark(ns), ns / 1000, ns % 1000);
    }
    printf("%3u) %10s | %15s |%*s", r->cpu, ctx, dur, indent, "");
    if ( (r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT) &&
         (r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) )
        printf("%s();\n", fn);
    else if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT )
        printf("%s() {\n", fn);
    else
        printf("} /* %s */\n", fn);

    return ferror(stdout) ? -1 : 0;
}

static int print_event(const struct xdt_event *e, void *arg)
{
    const struct print_ctx *pc = arg;
    const struct xdt_names *n = pc->n;
    const struct xen_dyntrace_record *r = &e->rec;
    char ctx[32], fn[256], caller[256];

    if ( e->lost )
    {
        printf("CPU:%u [LOST %" PRIu64 " EVENTS]\n", r->cpu, r->ip);
        return 0;
    }
    if ( r->flags & (XEN_DYNTRACE_FLAG_GRAPH_ENT |
                     XEN_DYNTRACE_FLAG_GRAPH_RET) )
        return print_graph(n, r);
    xdt_context(r, ctx, sizeof(ctx));
    xdt_name_ip(n, r->ip, fn, sizeof(fn));
    xdt_name_parent(n, r->parent_ip, caller, sizeof(caller));
    printf("%12s [%03u] %c%c%c %5" PRIu64 ".%0*" PRIu64 ": %s <-%s\n",
           ctx, r->cpu, (r->flags & XEN_DYNTRACE_FLAG_IRQS_OFF) ? 'd' : '.',
           (r->flags & XEN_DYNTRACE_FLAG_IN_IRQ) ? 'h' : '.',
           (r->flags & XEN_DYNTRACE_FLAG_IN_NMI) ? 'z' : '.',
           r->ts / 1000000000, pc->ns ? 9 : 6,
           pc->ns ? r->ts % 1000000000 : r->ts % 1000000000 / 1000, fn,
           caller);

    return ferror(stdout) ? -1 : 0;
}

/* The layout of the hypervisor's /tracing/trace, with #P the CPUs seen. */
int xdt_report_print(const struct xdt_capture *c, const struct xdt_names *n,
                     bool ns)
{
    struct print_ctx pc = { .n = n, .ns = ns };
    char tracer[64];

    if ( !xdt_capture_meta(c, "tracer", tracer, sizeof(tracer)) )
        strcpy(tracer, "function");
    printf("# tracer: %s\n"
           "#\n"
           "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64
           "   #P:%u\n"
           "#\n", tracer, c->records, c->records + c->lost, c->nr_cpus);
    /* The column legend of the tracer's layout. */
    if ( xdt_capture_is_graph(c) )
        printf("#CPU    CONTEXT |   DURATION      |  FUNCTION CALLS\n"
               "# |        |    |    |   |        |   |   |   |   |\n");
    else
        printf("#                    _---=> irqs-off\n"
               "#                   / _--=> hardirq\n"
               "#                  | / _-=> nmi\n"
               "#                  || /\n"
               "#   CONTEXT   CPU# |||  TIMESTAMP  FUNCTION\n"
               "#      |        |  |||      |         |\n");

    return xdt_capture_iterate(c, print_event, &pc);
}

static void report_usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace report [-t] [--symbols MAP] [FILE]\n"
"       xen-dyntrace export -f json|trace.dat [-o OUT] [--symbols MAP]\n"
"                           [FILE]\n"
"  FILE           capture (default: xen-dyntrace.dat)\n"
"  --symbols MAP  `nm -n xen-syms` output, to name callers\n"
"  -t             report: timestamps in nanoseconds\n"
"  -f FORMAT      json (Chrome/Perfetto trace events) or trace.dat\n"
"                 (trace-cmd)\n"
"  -o OUT         output (default: FILE with .json or .trace.dat appended)\n");
}

/*
 * An export writes OUT.tmp and renames it: one stopped by a signal removes
 * OUT.tmp, then dies of that signal as it would have, leaving no file.
 */
static const int export_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
#define NR_EXPORT_SIGNALS (sizeof(export_signals) / sizeof(export_signals[0]))
static char *export_tmp;

static void on_export_signal(int sig)
{
    if ( export_tmp )
        unlink(export_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int export_to(const struct xdt_capture *c, const struct xdt_names *n,
                     const char *format, const char *out)
{
    struct sigaction sa = { .sa_handler = on_export_signal };
    struct sigaction old[NR_EXPORT_SIGNALS];
    unsigned int i;
    int rc;

    if ( asprintf(&export_tmp, "%s.tmp", out) < 0 )
    {
        export_tmp = NULL;
        return XDT_EXIT_FAIL;
    }
    sigemptyset(&sa.sa_mask);
    for ( i = 0; i < NR_EXPORT_SIGNALS; i++ )
        sigaction(export_signals[i], &sa, &old[i]);
    rc = !strcmp(format, "json") ? export_json(c, n, out)
                                 : export_tracedat(c, n, out);
    for ( i = 0; i < NR_EXPORT_SIGNALS; i++ )
        sigaction(export_signals[i], &old[i], NULL);
    free(export_tmp);
    export_tmp = NULL;

    return rc;
}

static int run(int argc, char **argv, bool export)
{
    const char *syms = NULL, *format = NULL, *out = NULL, *in;
    struct xdt_capture c;
    struct xdt_names n = { .cap = &c };
    char *def_out = NULL;
    int opt, rc, rc2;
    bool ns = false;

    optind = 1;
    while ( (opt = getopt_long(argc, argv, export ? "s:f:o:h" : "s:th",
                               long_opts, NULL)) != -1 )
    {
        switch ( opt )
        {
        case 's': syms = optarg; break;
        case 'f': format = optarg; break;
        case 'o': out = optarg; break;
        case 't': ns = true; break;
        case 'h': report_usage(stdout); return XDT_EXIT_OK;
        default: report_usage(stderr); return XDT_EXIT_USAGE;
        }
    }
    if ( argc - optind > 1 )
    {
        xdt_err("unexpected argument '%s'", argv[optind + 1]);
        return XDT_EXIT_USAGE;
    }
    in = optind < argc ? argv[optind] : "xen-dyntrace.dat";
    if ( export && (!format || (strcmp(format, "json") &&
                                strcmp(format, "trace.dat"))) )
    {
        xdt_err("export: -f json or -f trace.dat is needed%s%s",
                format ? ", not " : "", format ? format : "");
        return XDT_EXIT_USAGE;
    }
    if ( syms && xdt_symtab_load(&n.map, syms) )
        return XDT_EXIT_USAGE;

    rc = xdt_capture_load(&c, in);
    if ( rc != XDT_EXIT_OK && rc != XDT_EXIT_TRUNCATED )
    {
        xdt_capture_free(&c);
        xdt_symtab_free(&n.map);
        return rc;
    }
    if ( !export )
    {
        if ( xdt_report_print(&c, &n, ns) )
            rc = XDT_EXIT_FAIL;
    }
    else
    {
        if ( !out && asprintf(&def_out, "%s.%s", in, format) < 0 )
            def_out = NULL;
        out = out ?: def_out;
        rc2 = out ? export_to(&c, &n, format, out) : XDT_EXIT_FAIL;
        if ( rc2 )
            rc = rc2;
        else
            fprintf(stderr, "xen-dyntrace: export: %s: %" PRIu64 " records, %"
                    PRIu64 " lost, %u CPUs\n", out, c.records, c.lost,
                    c.nr_cpus);
    }
    free(def_out);
    xdt_capture_free(&c);
    xdt_symtab_free(&n.map);
    if ( fflush(stdout) || ferror(stdout) )
    {
        xdt_err("writing the report failed");
        rc = XDT_EXIT_FAIL;
    }

    return rc;
}

int cmd_report(int argc, char **argv)
{
    return run(argc, argv, false);
}

int cmd_export(int argc, char **argv)
{
    return run(argc, argv, true);
}
