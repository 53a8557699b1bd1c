/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /tracing in HypFS, as every command that talks to the hypervisor reads
 * and writes it: a read retried after a signal, a write retried after a
 * signal and, for up to 2 s, while another write holds the tracer (EBUSY).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xen-dyntrace.h"

xenhypfs_handle *xdt_tracing_open(const char *cmd)
{
    xenhypfs_handle *fs = xenhypfs_open(NULL, 0);
    char *tracer;

    if ( !fs )
    {
        xdt_err("%s: cannot open HypFS: %s (run as root in dom0)", cmd,
                strerror(errno));
        return NULL;
    }
    tracer = xdt_tracing_read(fs, "current_tracer");
    if ( !tracer )
    {
        xdt_err("%s: %scurrent_tracer: %s (a Xen without the tracer?)", cmd,
                XDT_TRACING, strerror(errno));
        xenhypfs_close(fs);
        return NULL;
    }
    free(tracer);

    return fs;
}

char *xdt_tracing_read(xenhypfs_handle *fs, const char *file)
{
    char path[256], *val;

    snprintf(path, sizeof(path), XDT_TRACING "%s", file);
    while ( !(val = xenhypfs_read(fs, path)) && errno == EINTR )
        ;

    return val;
}

static int cmp_uint(const void *a, const void *b)
{
    unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

    return x < y ? -1 : x > y;
}

unsigned int *xdt_tracing_cpus(xenhypfs_handle *fs, unsigned int *nr)
{
    struct xenhypfs_dirent *d;
    unsigned int n, i, k = 0, *cpus;

    d = xenhypfs_readdir(fs, XDT_TRACING "per_cpu", &n);
    if ( !d )
        return NULL;
    cpus = calloc(n ? n : 1, sizeof(*cpus));
    for ( i = 0; cpus && i < n; i++ )
    {
        unsigned int cpu;
        char c;

        if ( sscanf(d[i].name, "cpu%u%c", &cpu, &c) == 1 )
            cpus[k++] = cpu;
    }
    free(d);
    if ( !cpus )
    {
        errno = ENOMEM;
        return NULL;
    }
    qsort(cpus, k, sizeof(*cpus), cmp_uint);
    *nr = k;

    return cpus;
}

int xdt_tracing_write(xenhypfs_handle *fs, const char *file, const char *val)
{
    struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
    char path[256];
    unsigned int busy = 0;

    snprintf(path, sizeof(path), XDT_TRACING "%s", file);
    while ( xenhypfs_write(fs, path, val) )
    {
        if ( errno == EINTR )
            continue;
        if ( errno != EBUSY || ++busy > 200 )
            return -1;
        nanosleep(&ts, NULL);
    }

    return 0;
}
