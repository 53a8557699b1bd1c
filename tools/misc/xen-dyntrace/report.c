/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace report and export: load a capture, choose the records shown
 * (filter.c), name their functions, and print them in the layout of the
 * hypervisor's /tracing/trace (report), summarise the capture (report
 * --stat), or hand them to an exporter and put its output where it belongs.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xen-dyntrace.h"

enum {
    OPT_CPU = 256, OPT_FROM, OPT_TO, OPT_STAT, OPT_MAX,
};

static const struct option long_opts[] = {
    { "symbols", required_argument, NULL, 's' },
    { "format", required_argument, NULL, 'f' },
    { "output", required_argument, NULL, 'o' },
    { "cpu", required_argument, NULL, OPT_CPU },
    { "domain", required_argument, NULL, 'd' },
    { "function", required_argument, NULL, 'F' },
    { "from", required_argument, NULL, OPT_FROM },
    { "to", required_argument, NULL, OPT_TO },
    { "stat", no_argument, NULL, OPT_STAT },
    { "max-records", required_argument, NULL, OPT_MAX },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

struct print_ctx {
    const struct xdt_names *n;
    bool ns;                    /* -t: nanoseconds, as trace-cmd report -t */
    bool graph;                 /* a function_graph capture */
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
static int print_graph(const struct xdt_names *n, const struct xdt_event *e)
{
    const struct xen_dyntrace_record *r = &e->rec;
    unsigned int indent = 2 * (r->depth ? r->depth : 1);
    char ctx[32], fn[256], dur[32] = "", ret[48] = "";
    uint64_t ns = 0;

    xdt_context(r, ctx, sizeof(ctx));
    xdt_name_ip(n, r->ip, fn, sizeof(fn));
    if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET )
    {
        ns = r->ts > r->parent_ip ? r->ts - r->parent_ip : 0;
        snprintf(dur, sizeof(dur), "%c%7" PRIu64 ".%03" PRIu64 " us",
                 duration_mark(ns), ns / 1000, ns % 1000);
    }
    /* options/funcgraph-retval: ftrace's " ret=VALUE", the error named. */
    if ( e->has_retval )
    {
        memcpy(ret, " ret=", 5);
        xdt_retval_text(e->retval, ret + 5, sizeof(ret) - 5);
    }
    printf("%3u) %10s | %15s |%*s", r->cpu, ctx, dur, indent, "");
    if ( (r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT) &&
         (r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) )
        printf("%s();%s%s%s\n", fn, *ret ? " /*" : "", ret, *ret ? " */" : "");
    else if ( r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT )
        printf("%s() {\n", fn);
    else
        printf("} /* %s%s */\n", fn, ret);

    return ferror(stdout) ? -1 : 0;
}

/*
 * The start of a line as the function tracer prints it: context, CPU, the
 * irqs-off/hardirq/nmi marks and the time.
 */
static void print_prefix(const struct print_ctx *pc,
                         const struct xen_dyntrace_record *r)
{
    char ctx[32];
    /* Microseconds rounded to the nearest, as ftrace and trace-cmd print. */
    uint64_t t = pc->ns ? r->ts : r->ts + 500;

    xdt_context(r, ctx, sizeof(ctx));
    printf("%12s [%03u] %c%c%c %5" PRIu64 ".%0*" PRIu64 ": ",
           ctx, r->cpu, (r->flags & XEN_DYNTRACE_FLAG_IRQS_OFF) ? 'd' : '.',
           (r->flags & XEN_DYNTRACE_FLAG_IN_IRQ) ? 'h' : '.',
           (r->flags & XEN_DYNTRACE_FLAG_IN_NMI) ? 'z' : '.',
           t / 1000000000, pc->ns ? 9 : 6,
           pc->ns ? t % 1000000000 : t % 1000000000 / 1000);
}

static int print_event(const struct xdt_event *e, void *arg)
{
    const struct print_ctx *pc = arg;
    const struct xdt_names *n = pc->n;
    const struct xen_dyntrace_record *r = &e->rec;
    char fn[256], caller[256];

    if ( e->lost )
    {
        printf("CPU:%u [LOST %" PRIu64 " EVENTS]\n", r->cpu, r->ip);
        return 0;
    }
    if ( xdt_is_event(r) )
    {
        char text[256];

        /* As the hypervisor's trace: a comment under function_graph. */
        xdt_event_text(e, text, sizeof(text));
        if ( pc->graph )
        {
            xdt_context(r, fn, sizeof(fn));
            printf("%3u) %10s | %15s |  /* %s */\n", r->cpu, fn, "", text);
        }
        else
        {
            print_prefix(pc, r);
            printf("%s\n", text);
        }
        return ferror(stdout) ? -1 : 0;
    }
    if ( r->flags & (XEN_DYNTRACE_FLAG_GRAPH_ENT |
                     XEN_DYNTRACE_FLAG_GRAPH_RET) )
        return print_graph(n, e);
    xdt_name_ip(n, r->ip, fn, sizeof(fn));
    xdt_name_parent(n, r->parent_ip, caller, sizeof(caller));
    print_prefix(pc, r);
    printf("%s <-%s\n", fn, caller);

    return ferror(stdout) ? -1 : 0;
}

static int count_event(const struct xdt_event *e, void *arg)
{
    (void)e;
    (void)arg;

    return 0;
}

/*
 * What the recording left out on purpose, from its settings: record's own
 * dom0 vCPU, and the filters it was given.
 */
static void print_scope(const struct xdt_capture *c)
{
    char self[32], val[512];

    if ( xdt_capture_meta(c, "self", self, sizeof(self)) )
        printf("# not recorded: %s, the dom0 vCPU xen-dyntrace record ran on "
               "(record --no-filter records it)\n", self);
    if ( xdt_capture_meta(c, "filter", val, sizeof(val)) )
        printf("# function filter: %s\n", val);
    if ( xdt_capture_meta(c, "notrace", val, sizeof(val)) )
        printf("# function notrace: %s\n", val);
    if ( xdt_capture_meta(c, "domains", val, sizeof(val)) )
        printf("# domain filter: %s\n", val);
    if ( xdt_capture_meta(c, "cpumask", val, sizeof(val)) )
        printf("# tracing_cpumask: %s\n", val);
    if ( xdt_capture_meta(c, "command", val, sizeof(val)) )
        printf("# command: %s\n", val);
}

/* The layout of the hypervisor's /tracing/trace, with #P the CPUs seen. */
int xdt_report_print(const struct xdt_capture *c, const struct xdt_names *n,
                     bool ns)
{
    struct print_ctx pc = { .n = n, .ns = ns,
                            .graph = xdt_capture_is_graph(c) };
    char tracer[64];

    if ( !xdt_capture_meta(c, "tracer", tracer, sizeof(tracer)) )
        strcpy(tracer, "function");
    printf("# tracer: %s\n"
           "#\n"
           "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64
           "   #P:%u\n", tracer, c->records - c->more,
           c->records - c->more + c->lost, c->nr_cpus);
    print_scope(c);
    if ( c->view && xdt_filter_active(c->view->filter) )
    {
        if ( xdt_capture_iterate(c, count_event, NULL) )
            return -1;
        printf("# shown: %" PRIu64 " of %" PRIu64 " records (report's "
               "filters)\n", c->view->shown, c->records - c->more);
    }
    printf("#\n");
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

/* --stat: each CPU's records, losses, reads and time span. */
struct cpu_stat {
    uint64_t records, lost, first, last;
};

static int stat_event(const struct xdt_event *e, void *arg)
{
    struct cpu_stat *s = (struct cpu_stat *)arg + e->rec.cpu;

    if ( e->lost )
    {
        s->lost += e->rec.ip;
        return 0;
    }
    if ( !s->records++ )
        s->first = e->rec.ts;
    s->last = e->rec.ts;

    return 0;
}

/* Seconds, microseconds rounded as the records' are. */
static void print_time(const char *label, uint64_t ns)
{
    uint64_t us = (ns + 500) / 1000;

    printf("%s%" PRIu64 ".%06" PRIu64, label, us / 1000000, us % 1000000);
}

static int print_stat(const struct xdt_capture *c, const char *path)
{
    struct cpu_stat *st = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*st));
    const char *p;
    unsigned int cpu;

    if ( !st )
    {
        xdt_err("out of memory");
        return -1;
    }
    if ( xdt_capture_iterate(c, stat_event, st) )
    {
        free(st);
        return -1;
    }
    printf("capture: %s (%" PRIu64 " bytes)\n", path, c->whole_bytes);
    /* The settings and the summary as record wrote them. */
    printf("settings:\n");
    for ( p = c->meta; p && *p; )
    {
        size_t l = strcspn(p, "\n");

        printf("  %.*s\n", (int)l, p);
        p += l + (p[l] == '\n');
    }
    if ( c->end )
    {
        printf("summary:\n");
        for ( p = c->end; *p; )
        {
            size_t l = strcspn(p, "\n");

            printf("  %.*s\n", (int)l, p);
            p += l + (p[l] == '\n');
        }
    }
    else
        printf("summary: none (the recorder did not finish)\n");
    printf("records: %" PRIu64 " shown, %" PRIu64 " in the capture, %"
           PRIu64 " lost\n", c->view ? c->view->shown : c->records - c->more,
           c->records - c->more, c->lost);
    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
    {
        if ( !c->cpu[cpu].nr &&
             (!c->view || !c->view->filter || !c->view->filter->cpus) )
            continue;
        if ( c->view && c->view->filter && c->view->filter->cpus &&
             !(c->view->filter->cpus[cpu / 8] & (1u << (cpu % 8))) )
            continue;
        printf("CPU %u: %" PRIu64 " records, %" PRIu64 " lost, %zu reads",
               cpu, st[cpu].records, st[cpu].lost, c->cpu[cpu].nr);
        if ( st[cpu].records )
        {
            print_time(", ", st[cpu].first);
            print_time(" .. ", st[cpu].last);
            printf(" s");
        }
        printf("\n");
    }
    free(st);

    return ferror(stdout) ? -1 : 0;
}

static void report_usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace report [-t] [--stat] [--symbols MAP] [FILTERS] [FILE]\n"
"       xen-dyntrace export -f json|trace.dat [-o OUT] [--symbols MAP]\n"
"                           [--max-records N] [FILTERS] [FILE]\n"
"  FILE            capture (default: xen-dyntrace.dat; - reads standard\n"
"                  input)\n"
"  --symbols MAP   `nm -n xen-syms` output, to name callers\n"
"  -t              report: timestamps in nanoseconds\n"
"  --stat          report: the capture's settings, summary and per-CPU\n"
"                  records, losses, reads and time span, not the records\n"
"  -f FORMAT       json (Chrome/Perfetto trace events) or trace.dat\n"
"                  (trace-cmd)\n"
"  -o OUT          output (default: FILE without .dat, and .json or\n"
"                  .trace.dat; - writes standard output)\n"
"  --max-records N export: at most N records (the first N shown)\n"
"FILTERS (each narrows what is shown; -d and -F may repeat):\n"
"  --cpu LIST      only these pCPUs, e.g. 1 or 0,2-3\n"
"  -d, --domain W  set_domain_filter's words: d1, d0v1, idle, !d0\n"
"  -F, --function P  functions matching glob P (!P: not matching)\n"
"  --from T, --to T  only records at or after / at or before T seconds\n"
"                  (Xen's time, as report prints it: e.g. 12.5)\n");
}

/*
 * An export into a regular file writes OUT.tmp.XXXXXX beside it and renames
 * it: one stopped by a signal removes that, then dies of the signal as it
 * would have, leaving no file.
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

static int run_exporter(const struct xdt_capture *c,
                        const struct xdt_names *n, const char *format,
                        FILE *f)
{
    return !strcmp(format, "json") ? export_json(c, n, f)
                                   : export_tracedat(c, n, f);
}

/* Copy a finished temporary file to a stream (a pipe, a terminal). */
static int copy_out(FILE *from, int fd, const char *out)
{
    char buf[65536];
    size_t got;

    rewind(from);
    while ( (got = fread(buf, 1, sizeof(buf), from)) )
    {
        const char *p = buf;

        while ( got )
        {
            ssize_t w = write(fd, p, got);

            if ( w < 0 && errno == EINTR )
                continue;
            if ( w <= 0 )
            {
                xdt_err("export: %s: %s", out, strerror(errno));
                return XDT_EXIT_FAIL;
            }
            p += w;
            got -= w;
        }
    }
    if ( ferror(from) )
    {
        xdt_err("export: reading back the temporary file: %s",
                strerror(errno));
        return XDT_EXIT_FAIL;
    }

    return XDT_EXIT_OK;
}

/*
 * Into something that is not a regular file ("-", a terminal, a pipe,
 * /dev/null, /dev/stdout): written as it is, never replaced or removed.
 * JSON streams; trace.dat is laid out by offsets, so it is built in an
 * unnamed temporary file first.
 */
static int export_stream(const struct xdt_capture *c,
                         const struct xdt_names *n, const char *format,
                         int fd, const char *out)
{
    FILE *f;
    int rc;

    if ( !strcmp(format, "json") )
    {
        int dup_fd = dup(fd);

        f = dup_fd >= 0 ? fdopen(dup_fd, "w") : NULL;
        if ( !f )
        {
            xdt_err("export: %s: %s", out, strerror(errno));
            if ( dup_fd >= 0 )
                close(dup_fd);
            return XDT_EXIT_FAIL;
        }
        rc = run_exporter(c, n, format, f);
        if ( fclose(f) && !rc )
        {
            xdt_err("export: %s: %s", out, strerror(errno));
            rc = XDT_EXIT_FAIL;
        }
        return rc;
    }
    f = tmpfile();
    if ( !f )
    {
        xdt_err("export: a temporary file: %s", strerror(errno));
        return XDT_EXIT_FAIL;
    }
    rc = run_exporter(c, n, format, f);
    if ( !rc && fflush(f) )
    {
        xdt_err("export: a temporary file: %s", strerror(errno));
        rc = XDT_EXIT_FAIL;
    }
    if ( !rc )
        rc = copy_out(f, fd, out);
    fclose(f);

    return rc;
}

/*
 * Where an export goes.  "-" is standard output; an existing OUT that is
 * not a regular file is written in place (export_stream()); a regular OUT,
 * or a new one, is written as TMP beside it, synced and renamed over it, so
 * that a failed export leaves no partial OUT.  A symbolic link to a regular
 * file stays a link: the file it names is replaced.
 */
static int export_to(const struct xdt_capture *c, const struct xdt_names *n,
                     const char *format, const char *out)
{
    struct sigaction sa = { .sa_handler = on_export_signal };
    struct sigaction old[NR_EXPORT_SIGNALS];
    bool caught[NR_EXPORT_SIGNALS] = { false };
    sigset_t hold, mask;
    struct stat st;
    char *real = NULL, *tmp = NULL;
    unsigned int i;
    mode_t mode, um;
    FILE *f = NULL;
    int rc, fd;

    /* "-", or a path to standard output's own file (/dev/stdout). */
    if ( xdt_is_stdout(out) )
        return export_stream(c, n, format, STDOUT_FILENO, "standard output");
    um = umask(0);
    umask(um);
    mode = 0666 & ~um;
    if ( !stat(out, &st) )
    {
        if ( S_ISDIR(st.st_mode) )
        {
            xdt_err("export: %s: a directory", out);
            return XDT_EXIT_FAIL;
        }
        if ( !S_ISREG(st.st_mode) )
        {
            fd = open(out, O_WRONLY | O_CLOEXEC);
            if ( fd < 0 )
            {
                xdt_err("export: %s: %s", out, strerror(errno));
                return XDT_EXIT_FAIL;
            }
            rc = export_stream(c, n, format, fd, out);
            if ( close(fd) && !rc )
            {
                xdt_err("export: %s: %s", out, strerror(errno));
                rc = XDT_EXIT_FAIL;
            }
            return rc;
        }
        real = realpath(out, NULL);
        if ( !real )
        {
            xdt_err("export: %s: %s", out, strerror(errno));
            return XDT_EXIT_FAIL;
        }
        mode = st.st_mode & 07777;      /* The file it replaces keeps it. */
    }
    /*
     * A temporary file of our own (mkstemp: never one that was there),
     * named for the signal handler only once it exists.
     */
    if ( asprintf(&tmp, "%s.tmp.XXXXXX", real ? real : out) < 0 )
    {
        free(real);
        xdt_err("export: out of memory");
        return XDT_EXIT_FAIL;
    }
    sigemptyset(&hold);
    for ( i = 0; i < NR_EXPORT_SIGNALS; i++ )
        sigaddset(&hold, export_signals[i]);
    sigprocmask(SIG_BLOCK, &hold, &mask);
    fd = mkstemp(tmp);
    if ( fd >= 0 )
    {
        export_tmp = tmp;
        sigemptyset(&sa.sa_mask);
        for ( i = 0; i < NR_EXPORT_SIGNALS; i++ )
        {
            /* A signal ignored on entry (nohup) stays ignored. */
            if ( sigaction(export_signals[i], NULL, &old[i]) ||
                 old[i].sa_handler == SIG_IGN )
                continue;
            sigaction(export_signals[i], &sa, NULL);
            caught[i] = true;
        }
    }
    sigprocmask(SIG_SETMASK, &mask, NULL);
    if ( fd < 0 || fchmod(fd, mode) || !(f = fdopen(fd, "w")) )
    {
        xdt_err("export: %s: %s", fd < 0 ? tmp : export_tmp,
                strerror(errno));
        if ( fd >= 0 )
            close(fd);
        rc = XDT_EXIT_FAIL;
        goto out;
    }
    rc = run_exporter(c, n, format, f);
    if ( !rc && (fflush(f) || fsync(fileno(f))) )
    {
        xdt_err("export: %s: %s", tmp, strerror(errno));
        rc = XDT_EXIT_FAIL;
    }
    if ( fclose(f) && !rc )
    {
        xdt_err("export: %s: %s", tmp, strerror(errno));
        rc = XDT_EXIT_FAIL;
    }
    if ( !rc && rename(tmp, real ? real : out) )
    {
        xdt_err("export: %s: %s", out, strerror(errno));
        rc = XDT_EXIT_FAIL;
    }
 out:
    if ( rc && export_tmp )
        unlink(export_tmp);
    sigprocmask(SIG_BLOCK, &hold, &mask);
    for ( i = 0; i < NR_EXPORT_SIGNALS; i++ )
        if ( caught[i] )
            sigaction(export_signals[i], &old[i], NULL);
    export_tmp = NULL;
    sigprocmask(SIG_SETMASK, &mask, NULL);
    free(tmp);
    free(real);

    return rc;
}

/*
 * The default output: the capture's name without ".dat", then ".json" or
 * ".trace.dat" (xen-dyntrace.dat: xen-dyntrace.json).  Standard input's
 * capture goes to standard output.
 */
static char *default_output(const char *in, const char *format)
{
    size_t len = strlen(in);
    char *out;

    if ( !strcmp(in, "-") )
        return strdup("-");
    if ( len > 4 && !strcmp(in + len - 4, ".dat") &&
         in[len - 5] != '/' )
        len -= 4;
    if ( asprintf(&out, "%.*s.%s", (int)len, in, format) < 0 )
        return NULL;

    return out;
}

/* Is OUT the capture itself (the same file, by any name)? */
static bool same_file(const char *in, const char *out)
{
    struct stat a, b;

    if ( !strcmp(in, "-") || !strcmp(out, "-") )
        return false;

    return !stat(in, &a) && !stat(out, &b) && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino && S_ISREG(a.st_mode);
}

static int run(int argc, char **argv, bool export)
{
    const char *syms = NULL, *format = NULL, *out = NULL, *in;
    struct xdt_capture c;
    struct xdt_names n = { .cap = &c };
    struct xdt_filter filt = { 0 };
    struct xdt_view view = { .filter = &filt };
    char *def_out = NULL, *e;
    int opt, rc, rc2;
    bool ns = false, show_stat = false;

    optind = 1;
    while ( (opt = getopt_long(argc, argv, export ? "s:f:o:d:F:h" : "s:td:F:h",
                               long_opts, NULL)) != -1 )
    {
        switch ( opt )
        {
        case 's': syms = optarg; break;
        case 'f':
            if ( !export )
                goto usage;
            format = optarg;
            break;
        case 'o':
            if ( !export )
                goto usage;
            out = optarg;
            break;
        case 't': ns = true; break;
        case OPT_STAT:
            if ( export )
                goto usage;
            show_stat = true;
            break;
        case OPT_CPU:
            if ( xdt_filter_cpus(&filt, optarg) )
                goto bad;
            break;
        case 'd':
            if ( xdt_filter_domains(&filt, optarg) )
                goto bad;
            break;
        case 'F':
            if ( xdt_filter_funcs(&filt, optarg) )
                goto bad;
            break;
        case OPT_FROM:
        case OPT_TO:
        {
            uint64_t t;

            if ( xdt_parse_time(optarg, &t) )
            {
                xdt_err("--%s %s: not a time in seconds (e.g. 12.5)",
                        opt == OPT_FROM ? "from" : "to", optarg);
                goto bad;
            }
            if ( opt == OPT_FROM )
                filt.from = t, filt.has_from = true;
            else
                filt.to = t, filt.has_to = true;
            break;
        }
        case OPT_MAX:
            if ( !export )
                goto usage;
            errno = 0;
            view.max_records = strtoull(optarg, &e, 10);
            if ( errno || e == optarg || *e || !view.max_records ||
                 optarg[0] == '-' )
            {
                xdt_err("--max-records %s: not a number of records", optarg);
                goto bad;
            }
            break;
        case 'h':
            report_usage(stdout);
            xdt_filter_free(&filt);
            return XDT_EXIT_OK;
        default:
            goto usage;
        }
    }
    if ( argc - optind > 1 )
    {
        xdt_err("unexpected argument '%s'", argv[optind + 1]);
        goto usage;
    }
    if ( filt.has_from && filt.has_to && filt.from > filt.to )
    {
        xdt_err("--from is after --to: no record would be shown");
        goto bad;
    }
    in = optind < argc ? argv[optind] : "xen-dyntrace.dat";
    if ( export && (!format || (strcmp(format, "json") &&
                                strcmp(format, "trace.dat"))) )
    {
        xdt_err("export: -f json or -f trace.dat is needed%s%s",
                format ? ", not " : "", format ? format : "");
        goto bad;
    }
    if ( export )
    {
        if ( !out && !(out = def_out = default_output(in, format)) )
        {
            xdt_err("out of memory");
            xdt_filter_free(&filt);
            return XDT_EXIT_FAIL;
        }
        if ( same_file(in, out) )
        {
            xdt_err("export: %s is the capture itself: give another -o",
                    out);
            free(def_out);
            goto bad;
        }
    }
    if ( syms && xdt_symtab_load(&n.map, syms) )
    {
        free(def_out);
        xdt_filter_free(&filt);
        return XDT_EXIT_FAIL;
    }

    rc = xdt_capture_load(&c, in);
    if ( (rc != XDT_EXIT_OK && rc != XDT_EXIT_TRUNCATED &&
          rc != XDT_EXIT_NOSUMMARY) || c.header_cut )
    {
        xdt_capture_free(&c);
        xdt_symtab_free(&n.map);
        xdt_filter_free(&filt);
        free(def_out);
        return rc;
    }
    c.view = &view;
    if ( show_stat )
    {
        if ( print_stat(&c, in) )
            rc = XDT_EXIT_FAIL;
    }
    else if ( !export )
    {
        if ( xdt_report_print(&c, &n, ns) )
            rc = XDT_EXIT_FAIL;
    }
    else
    {
        rc2 = export_to(&c, &n, format, out);
        if ( rc2 )
            rc = rc2;
        else
        {
            fprintf(stderr, "xen-dyntrace: export: %s: %" PRIu64 " records "
                    "of %" PRIu64 ", %" PRIu64 " lost, %u CPUs\n",
                    strcmp(out, "-") ? out : "standard output", view.shown,
                    c.records - c.more, c.lost, c.nr_cpus);
            if ( view.capped )
                fprintf(stderr, "xen-dyntrace: export: stopped at "
                        "--max-records %" PRIu64 "; the records after "
                        "those are not in %s\n", view.max_records,
                        strcmp(out, "-") ? out : "standard output");
        }
    }
    free(def_out);
    xdt_capture_free(&c);
    xdt_symtab_free(&n.map);
    xdt_filter_free(&filt);
    if ( fflush(stdout) || ferror(stdout) )
    {
        xdt_err("writing the report failed");
        rc = XDT_EXIT_FAIL;
    }

    return rc;

 usage:
    report_usage(stderr);
 bad:
    xdt_filter_free(&filt);

    return XDT_EXIT_USAGE;
}

int cmd_report(int argc, char **argv)
{
    return run(argc, argv, false);
}

int cmd_export(int argc, char **argv)
{
    return run(argc, argv, true);
}
