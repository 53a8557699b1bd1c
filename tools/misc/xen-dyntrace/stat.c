/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace stat: the tracer's current settings and each CPU's buffer,
 * as trace-cmd stat shows ftrace's.  Reads only.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "xen-dyntrace.h"

/* The settings shown, in order, and how to say an empty one. */
static const struct {
    const char *file, *label, *empty;
} settings[] = {
    { "current_tracer", "tracer", NULL },
    { "tracing_on", "tracing_on", NULL },
    { "set_function_filter", "function filter", "(every function)" },
    { "set_function_notrace", "function notrace", "(none)" },
    { "set_graph_function", "graph functions", "(every function)" },
    { "set_domain_filter", "domain filter", "(every domain)" },
    { "set_event", "events", "(none)" },
    { "tracing_cpumask", "tracing_cpumask", NULL },
    { "max_graph_depth", "max_graph_depth", NULL },
    { "tracing_thresh", "tracing_thresh (us)", NULL },
    { "options/funcgraph-retval", "funcgraph-retval", NULL },
    { "function_profile_enabled", "profiler", NULL },
    { "buffer_size_kb", "buffer_size_kb (per CPU)", NULL },
    { "buffer_total_size_kb", "buffer_total_size_kb", NULL },
};

/* "label: value", a multi-line value on indented lines of its own. */
static void show(const char *label, const char *val, const char *empty)
{
    const char *p;
    size_t len = strlen(val);

    while ( len && val[len - 1] == '\n' )
        len--;
    if ( !len )
    {
        printf("%s: %s\n", label, empty ? empty : "");
        return;
    }
    if ( !memchr(val, '\n', len) )
    {
        printf("%s: %.*s\n", label, (int)len, val);
        return;
    }
    printf("%s:\n", label);
    for ( p = val; p < val + len; )
    {
        size_t l = strcspn(p, "\n");

        printf("    %.*s\n", (int)l, p);
        p += l + 1;
    }
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace stat\n"
"  prints the tracer's settings (tracer, tracing_on, filters, domain\n"
"  filter, CPU mask, graph depth and threshold, profiler, buffer size),\n"
"  how many functions are patched, error_log, and each CPU's buffer\n"
"  (per_cpu/cpuN/stats) (dom0, root)\n");
}

int cmd_stat(int argc, char **argv)
{
    static const struct option longs[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    unsigned int *cpus;
    xenhypfs_handle *fs;
    unsigned int i, n;
    int c, rc = XDT_EXIT_OK;
    char *val;

    optind = 1;
    while ( (c = getopt_long(argc, argv, "h", longs, NULL)) != -1 )
    {
        if ( c == 'h' )
        {
            usage(stdout);
            return XDT_EXIT_OK;
        }
        usage(stderr);
        return XDT_EXIT_USAGE;
    }
    if ( optind != argc )
    {
        xdt_err("stat: unexpected argument '%s'", argv[optind]);
        usage(stderr);
        return XDT_EXIT_USAGE;
    }
    fs = xdt_tracing_open("stat");
    if ( !fs )
        return XDT_EXIT_FAIL;

    for ( i = 0; i < sizeof(settings) / sizeof(settings[0]); i++ )
    {
        val = xdt_tracing_read(fs, settings[i].file);
        if ( !val )
        {
            if ( errno != ENOENT )
            {
                xdt_err("stat: %s%s: %s", XDT_TRACING, settings[i].file,
                        strerror(errno));
                rc = XDT_EXIT_FAIL;
            }
            continue;           /* A Xen without it (the first series). */
        }
        show(settings[i].label, val, settings[i].empty);
        free(val);
    }
    val = xdt_tracing_read(fs, "enabled_functions");
    if ( val )
    {
        unsigned long nr = 0;
        const char *p;

        for ( p = val; *p; p++ )
            nr += *p == '\n' || !p[1];
        printf("functions patched: %lu (enabled_functions)\n", nr);
        free(val);
    }
    val = xdt_tracing_read(fs, "error_log");
    if ( val )
    {
        show("error_log", val, "(empty)");
        free(val);
    }

    cpus = xdt_tracing_cpus(fs, &n);
    if ( cpus )
    {
        for ( i = 0; i < n; i++ )
        {
            char file[64];

            snprintf(file, sizeof(file), "per_cpu/cpu%u/stats", cpus[i]);
            val = xdt_tracing_read(fs, file);
            if ( !val )
                continue;       /* Gone offline meanwhile. */
            show(file, val, NULL);
            free(val);
        }
        free(cpus);
    }
    else if ( errno != ENOENT )
    {
        xdt_err("stat: %sper_cpu: %s", XDT_TRACING, strerror(errno));
        rc = XDT_EXIT_FAIL;
    }
    xenhypfs_close(fs);
    if ( fflush(stdout) || ferror(stdout) )
        rc = XDT_EXIT_FAIL;

    return rc;
}
