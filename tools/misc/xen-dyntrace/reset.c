/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace reset: every /tracing setting back to what a fresh boot has,
 * for a host left set up by a recorder that was killed (SIGKILL cannot be
 * caught) or by hand.  Safe at any time and idempotent: a file already at
 * its boot value is not written.  The writes are ordered so that an
 * interrupted reset never leaves more traced than before it: recording
 * stops first, then nothing stays patched, then the rest; the stop signals
 * are held until it is done (run it again after a SIGKILL).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "xen-dyntrace.h"

#define TRACING XDT_TRACING

struct reset {
    xenhypfs_handle *fs;
    bool quiet;
    int failed;
};

/* A file's value, NULL with errno (ENOENT: this Xen has no such file). */
static char *get(struct reset *r, const char *file)
{
    return xdt_tracing_read(r->fs, file);
}

static int put_quiet(struct reset *r, const char *file, const char *val)
{
    return xdt_tracing_write(r->fs, file, val);
}

static int put(struct reset *r, const char *file, const char *val)
{
    if ( !put_quiet(r, file, val) )
        return 0;
    xdt_err("reset: writing '%s' to %s%s: %s", val, TRACING, file,
            strerror(errno));
    r->failed = 1;

    return -1;
}

/* A value as one short line: newlines as spaces, long ones cut. */
static void show(char *buf, size_t len, const char *val)
{
    size_t i, n = 0;

    for ( i = 0; val[i] && n + 4 < len; i++ )
        buf[n++] = val[i] == '\n' ? ' ' : val[i];
    while ( n && buf[n - 1] == ' ' )
        n--;
    if ( val[i] && n + 4 >= len )
        n = len - 4, memcpy(buf + n, "...", 3), n += 3;
    buf[n] = '\0';
}

static void said(struct reset *r, const char *file, const char *old,
                 const char *val)
{
    char a[64], b[64];

    if ( r->quiet )
        return;
    show(a, sizeof(a), old);
    show(b, sizeof(b), val);
    printf("reset: %s: '%s' -> '%s'\n", file, a, b);
}

/* The file to val unless it holds it already (or this Xen lacks it). */
static void want(struct reset *r, const char *file, const char *val)
{
    char *old = get(r, file);

    if ( !old )
    {
        if ( errno != ENOENT )
        {
            xdt_err("reset: reading %s%s: %s", TRACING, file, strerror(errno));
            r->failed = 1;
        }
        return;
    }
    if ( strcmp(old, val) && !put(r, file, val) )
        said(r, file, old, val);
    free(old);
}

/* Every trigger ("name:command:count=N" lines of set_function_filter). */
static void remove_triggers(struct reset *r)
{
    char *f = get(r, "set_function_filter"), *line, *save = NULL;

    if ( !f )
        return;
    for ( line = strtok_r(f, "\n", &save); line;
          line = strtok_r(NULL, "\n", &save) )
    {
        char *colon = strchr(line, ':'), *last, *word;

        if ( !colon )
            continue;
        /* "!name:command" removes it, whatever its count. */
        last = strrchr(line, ':');
        if ( last != colon )
            *last = '\0';
        if ( asprintf(&word, "!%s", line) < 0 )
        {
            r->failed = 1;
            break;
        }
        if ( !put(r, "set_function_filter", word) && !r->quiet )
            printf("reset: set_function_filter: trigger '%s' removed\n", line);
        free(word);
    }
    free(f);
}

/*
 * Every event's triggers (events/CLASS/EVENT/trigger, which read "# ..."
 * when there are none): an empty write removes them.  Nothing on a Xen
 * without events.
 */
static void remove_event_triggers(struct reset *r)
{
    char *ev = get(r, "available_events"), *line, *save = NULL;

    if ( !ev )
        return;
    for ( line = strtok_r(ev, "\n", &save); line;
          line = strtok_r(NULL, "\n", &save) )
    {
        char *colon = strchr(line, ':'), *file, *t;

        if ( !colon )
            continue;
        *colon = '\0';
        if ( asprintf(&file, "events/%s/%s/trigger", line, colon + 1) < 0 )
        {
            r->failed = 1;
            break;
        }
        t = get(r, file);
        if ( !t && errno != ENOENT )
        {
            xdt_err("reset: reading %s%s: %s", TRACING, file, strerror(errno));
            r->failed = 1;
        }
        if ( t && *t && *t != '#' )
        {
            char old[64];

            show(old, sizeof(old), t);
            if ( !put(r, file, "") && !r->quiet )
                printf("reset: %s: '%s' removed\n", file, old);
        }
        free(t);
        free(file);
    }
    free(ev);
}

/* tracing_cpumask's text with the first n CPUs set (Linux's format). */
static void mask_text(char *buf, size_t len, unsigned int n)
{
    unsigned int groups = (n + 31) / 32, top = n - 32 * (groups - 1);
    size_t k;

    k = snprintf(buf, len, "%x",
                 top == 32 ? 0xffffffffu : (1u << top) - 1);
    while ( --groups && k < len )
        k += snprintf(buf + k, len - k, ",ffffffff");
}

/*
 * tracing_cpumask to every CPU, as at boot: Xen prints and takes bits for
 * its nr_cpu_ids CPUs only, a number dom0 cannot read.  The current text
 * bounds it (its 32-bit groups); each mask of the first k CPUs written is
 * taken when k <= nr_cpu_ids and refused (EINVAL) beyond, so a binary
 * search finds it.  When the mask is already the first N CPUs, as a boot
 * or a reset leaves it, one refused write of N + 1 says it is every CPU.
 * Each refused write is a line of error_log, which reset clears afterwards.
 */
static void reset_cpumask(struct reset *r)
{
    char *old = get(r, "tracing_cpumask"), *p;
    char text[128 * 9 + 1];    /* 4096 CPUs */
    unsigned int groups = 1, lo, hi, ones = 0, cur = 0;
    bool contiguous = true, any_zero = false;

    if ( !old )
        return;                 /* A Xen without it. */
    for ( p = old; *p; p++ )
        groups += *p == ',';
    if ( groups > 128 )
        groups = 128;
    /* Is it the first `ones` CPUs, as a boot or a reset leaves it? */
    for ( p = old + strlen(old); p-- > old; )
    {
        unsigned int v, b;

        if ( *p == ',' || *p == '\n' )
            continue;
        v = *p >= 'a' ? *p - 'a' + 10 : *p >= 'A' ? *p - 'A' + 10 : *p - '0';
        for ( b = 0; b < 4; b++ )
        {
            if ( !(v & (1u << b)) )
                any_zero = true;
            else if ( any_zero )
                contiguous = false;
            else
                ones++;
        }
    }
    lo = 32 * (groups - 1) + 1;
    hi = 32 * groups;
    if ( contiguous && ones >= lo && ones <= hi )
    {
        lo = cur = ones;
        mask_text(text, sizeof(text), ones);
        if ( strcmp(text, old) )
            cur = 0;            /* Written another way: write it again. */
        /* The common case: one more CPU is refused, it was every CPU. */
        if ( ones < hi )
        {
            mask_text(text, sizeof(text), ones + 1);
            if ( !put_quiet(r, "tracing_cpumask", text) )
                lo = cur = ones + 1;
            else if ( errno == EINVAL )
                hi = ones;
        }
    }
    /* The largest k in [lo, hi] that Xen takes. */
    while ( lo < hi )
    {
        unsigned int mid = lo + (hi - lo + 1) / 2;

        mask_text(text, sizeof(text), mid);
        if ( !put_quiet(r, "tracing_cpumask", text) )
        {
            lo = cur = mid;
            continue;
        }
        if ( errno != EINVAL )
        {
            xdt_err("reset: writing '%s' to %stracing_cpumask: %s", text,
                    TRACING, strerror(errno));
            r->failed = 1;
            free(old);
            return;
        }
        hi = mid - 1;
    }
    mask_text(text, sizeof(text), lo);
    if ( cur != lo && put(r, "tracing_cpumask", text) )
    {
        free(old);
        return;
    }
    if ( strcmp(text, old) )
        said(r, "tracing_cpumask", old, text);
    free(old);
}

/* Records held by the buffers (every CPU's "entries:"), for a message. */
static unsigned long buffered(struct reset *r)
{
    unsigned int n, i, *cpus = xdt_tracing_cpus(r->fs, &n);
    unsigned long sum = 0;

    if ( !cpus )
        return 0;
    for ( i = 0; i < n; i++ )
    {
        char file[64], *st, *e;

        snprintf(file, sizeof(file), "per_cpu/cpu%u/stats", cpus[i]);
        st = get(r, file);
        if ( !st )
            continue;
        e = strstr(st, "entries: ");
        if ( e )
            sum += strtoul(e + 9, NULL, 10);
        free(st);
    }
    free(cpus);

    return sum;
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace reset [-b KB] [-q]\n"
"  puts every /tracing setting back to its boot value: tracing off, tracer\n"
"  nop, profiler off, no filter, notrace, trigger or graph function, every\n"
"  domain and CPU, no depth limit or threshold; clears the buffers and\n"
"  error_log, and prints what it changed\n"
"  -b KB  also set buffer_size_kb (left as it is otherwise: the boot size,\n"
"         64 or Xen's dyntrace_buf_size=, cannot be read from dom0)\n"
"  -q     print nothing\n");
}

int cmd_reset(int argc, char **argv)
{
    static const struct option longs[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct reset r = { 0 };
    const char *kb = NULL;
    sigset_t hold;
    unsigned long n;
    char *log, *e;
    int c;

    optind = 1;
    while ( (c = getopt_long(argc, argv, "b:qh", longs, NULL)) != -1 )
    {
        switch ( c )
        {
        case 'q': r.quiet = true; break;
        case 'b':
            errno = 0;
            n = strtoul(optarg, &e, 10);
            if ( errno || e == optarg || *e || !n || n > 0xffffffffUL )
            {
                xdt_err("reset: -b %s: not a size in KiB", optarg);
                return XDT_EXIT_USAGE;
            }
            kb = optarg;
            break;
        case 'h':
            usage(stdout);
            return XDT_EXIT_OK;
        default:
            usage(stderr);
            return XDT_EXIT_USAGE;
        }
    }
    if ( optind != argc )
    {
        xdt_err("reset: unexpected argument '%s'", argv[optind]);
        usage(stderr);
        return XDT_EXIT_USAGE;
    }

    /* Done whole or, at SIGKILL, left to be run again. */
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigaddset(&hold, SIGHUP);
    sigaddset(&hold, SIGQUIT);
    sigprocmask(SIG_BLOCK, &hold, NULL);
    signal(SIGPIPE, SIG_IGN);

    r.fs = xdt_tracing_open("reset");
    if ( !r.fs )
        return XDT_EXIT_FAIL;
    /* error_log as found: only the user's lines are worth a message. */
    log = get(&r, "error_log");
    /* Counted now: switching the tracer to nop clears the buffers too. */
    n = buffered(&r);
    if ( log && !*log )
    {
        free(log);
        log = NULL;
    }

    /* Recording off, then nothing patched: the tracer's and the profiler's. */
    want(&r, "tracing_on", "0");
    want(&r, "current_tracer", "nop");
    want(&r, "function_profile_enabled", "0");
    /* Events' triggers fire whatever the tracer: gone too. */
    remove_event_triggers(&r);
    /* A traceon trigger may have fired in between; nothing can now. */
    want(&r, "tracing_on", "0");
    /* The rest patches nothing under nop with the profiler off. */
    remove_triggers(&r);
    want(&r, "set_function_filter", "");
    want(&r, "set_function_notrace", "");
    want(&r, "set_graph_function", "");
    want(&r, "set_domain_filter", "");
    want(&r, "set_event", "");
    reset_cpumask(&r);
    want(&r, "max_graph_depth", "0");
    want(&r, "tracing_thresh", "0");
    want(&r, "options/funcgraph-retval", "0");
    if ( kb )
        want(&r, "buffer_size_kb", kb);
    /* Last, so that nothing recorded before the tracer stopped is left. */
    if ( !put(&r, "trace", "") && n && !r.quiet )
        printf("reset: trace: %lu records cleared\n", n);
    /* error_log is empty at boot: the lines found, and any reset added. */
    e = get(&r, "error_log");
    if ( e && *e && !put(&r, "error_log", "") && log && !r.quiet )
    {
        const char *p;
        unsigned long lines = 0;

        for ( p = log; *p; p++ )
            lines += *p == '\n' || !p[1];
        printf("reset: error_log: %lu lines cleared\n", lines);
    }
    free(e);
    free(log);
    xenhypfs_close(r.fs);

    return r.failed ? XDT_EXIT_FAIL : XDT_EXIT_OK;
}
