/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace list: what the running hypervisor can trace, as trace-cmd
 * list does for Linux: its tracers (-t), its traceable functions (-f,
 * available_functions), its events (-e; /tracing/events where a Xen has
 * them).  A glob pattern, as set_function_filter takes, narrows the list.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <string.h>

#include "xen-dyntrace.h"

/* Print the words of a file matching pat (NULL: all); the count printed. */
static long print_words(xenhypfs_handle *fs, const char *file,
                        const char *pat, bool quiet_enoent)
{
    char *text = xdt_tracing_read(fs, file), *w, *save = NULL;
    long n = 0;

    if ( !text )
    {
        if ( errno == ENOENT && quiet_enoent )
            return -2;
        xdt_err("list: %s%s: %s", XDT_TRACING, file, strerror(errno));
        return -1;
    }
    for ( w = strtok_r(text, " \t\n", &save); w;
          w = strtok_r(NULL, " \t\n", &save) )
        if ( !pat || !fnmatch(pat, w, 0) )
        {
            puts(w);
            n++;
        }
    free(text);

    return n;
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace list [-t | -f | -e] [PATTERN]\n"
"  lists what this Xen can trace (dom0, root); PATTERN is a glob, as\n"
"  set_function_filter takes ('do_*', '*irq*')\n"
"  -t  tracers (available_tracers)\n"
"  -f  traceable functions (available_functions)\n"
"  -e  events: Xen's trace points (available_events), as CLASS:EVENT\n"
"  with none of them: the tracers, and how many functions and events\n");
}

int cmd_list(int argc, char **argv)
{
    static const struct option longs[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *pat;
    xenhypfs_handle *fs;
    int c, what = 0, rc = XDT_EXIT_OK;
    long n;

    optind = 1;
    while ( (c = getopt_long(argc, argv, "tfeh", longs, NULL)) != -1 )
    {
        switch ( c )
        {
        case 't': case 'f': case 'e':
            if ( what && what != c )
            {
                xdt_err("list: one of -t, -f and -e");
                usage(stderr);
                return XDT_EXIT_USAGE;
            }
            what = c;
            break;
        case 'h':
            usage(stdout);
            return XDT_EXIT_OK;
        default:
            usage(stderr);
            return XDT_EXIT_USAGE;
        }
    }
    if ( argc - optind > 1 )
    {
        xdt_err("list: unexpected argument '%s'", argv[optind + 1]);
        usage(stderr);
        return XDT_EXIT_USAGE;
    }
    pat = optind < argc ? argv[optind] : NULL;
    fs = xdt_tracing_open("list");
    if ( !fs )
        return XDT_EXIT_FAIL;

    switch ( what )
    {
    case 't':
        rc = print_words(fs, "available_tracers", pat, false) < 0;
        break;
    case 'f':
        n = print_words(fs, "available_functions", pat, false);
        rc = n < 0;
        if ( !n && pat )
            xdt_err("list: no traceable function matches '%s'", pat);
        break;
    case 'e':
        n = print_words(fs, "available_events", pat, true);
        if ( n == -2 )
            xdt_err("list: this Xen's tracer has no events (no %s"
                    "available_events): functions only", XDT_TRACING);
        else if ( !n && pat )
            xdt_err("list: no event matches '%s'", pat);
        rc = n == -1;
        break;
    default:
        printf("tracers:\n");
        rc = print_words(fs, "available_tracers", pat, false) < 0;
        if ( !rc )
        {
            char *f = xdt_tracing_read(fs, "available_functions"), *p;
            unsigned long nr = 0;

            for ( p = f; p && *p; p++ )
                nr += *p == '\n' || !p[1];
            if ( f )
                printf("functions: %lu (xen-dyntrace list -f [PATTERN])\n",
                       nr);
            free(f);
            f = xdt_tracing_read(fs, "available_events");
            for ( nr = 0, p = f; p && *p; p++ )
                nr += *p == '\n' || !p[1];
            if ( f )
                printf("events: %lu (xen-dyntrace list -e [PATTERN])\n", nr);
            else
                printf("events: none\n");
            free(f);
        }
        break;
    }
    xenhypfs_close(fs);
    if ( fflush(stdout) || ferror(stdout) )
        rc = XDT_EXIT_FAIL;

    return rc ? XDT_EXIT_FAIL : XDT_EXIT_OK;
}
