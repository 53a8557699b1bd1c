/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer harness of xen-dyntrace's capture reader (tools/misc/xen-dyntrace):
 * each input is a capture file's bytes, read by xdt_capture_load_mem() and,
 * when it is a capture the tool uses (exit status 0 or 4), printed by report
 * (standard output goes to /dev/null) and exported to JSON and trace.dat,
 * into a temporary directory of our own.
 *
 * The bytes are copied to end where an inaccessible page begins, as a
 * mapped file may: a read beyond them faults even where the sanitizers
 * cannot see it (libc's own reads).  The merged events are checked against
 * the loader's counts (records, losses) and its CPUs: an event of a CPU the
 * capture has no chunk for, or a count that differs, aborts.
 *
 * Built and run by tests/host/test-capture-fuzz; run it on files to replay
 * them (./fuzz-capture FILE...).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xen-dyntrace.h"

/* trace.dat keeps a temporary file per CPU: bounded, to keep runs fast. */
#define TRACEDAT_MAX_CPUS 64

static char dir[4096], json_out[4200], tracedat_out[4200];
static size_t page;

/* The tool's error printer: formatted (its arguments are checked), not shown. */
void xdt_err(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
}

static void cleanup(void)
{
    unlink(json_out);
    unlink(tracedat_out);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *tmp = getenv("TMPDIR");

    (void)argc;
    (void)argv;
    page = sysconf(_SC_PAGESIZE);
    snprintf(dir, sizeof(dir), "%s/fuzz-capture.XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if ( !mkdtemp(dir) || !freopen("/dev/null", "w", stdout) )
    {
        perror("fuzz-capture: setting up");
        exit(1);
    }
    snprintf(json_out, sizeof(json_out), "%s/out.json", dir);
    snprintf(tracedat_out, sizeof(tracedat_out), "%s/out.trace.dat", dir);
    /* export -f trace.dat's temporary tracing directory goes in ours too. */
    setenv("TMPDIR", dir, 1);
    atexit(cleanup);

    return 0;
}

struct tally {
    const struct xdt_capture *c;
    uint64_t records, lost;
};

static int count(const struct xdt_event *e, void *arg)
{
    struct tally *t = arg;

    if ( e->rec.cpu >= t->c->nr_cpus )
    {
        fprintf(stderr, "fuzz-capture: an event of CPU %u, beyond the %u CPUs\n",
                e->rec.cpu, t->c->nr_cpus);
        abort();
    }
    if ( e->lost )
        t->lost += e->rec.ip;
    else
        t->records++;

    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t room = (size + page - 1) / page * page;
    struct xdt_capture c;
    struct xdt_names n = { .cap = &c };
    struct tally t = { .c = &c };
    uint8_t *map;
    int rc;

    map = mmap(NULL, room + page, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if ( map == MAP_FAILED || mprotect(map + room, page, PROT_NONE) )
    {
        perror("fuzz-capture: mmap");
        abort();
    }
    if ( size )
        memcpy(map + room - size, data, size);
    rc = xdt_capture_load_mem(&c, map + room - size, size, "input");
    if ( (rc == XDT_EXIT_OK || rc == XDT_EXIT_TRUNCATED ||
          rc == XDT_EXIT_NOSUMMARY) && !c.header_cut )
    {
        FILE *f;

        /*
         * An event's continuation record is never merged on its own: with
         * its head, or skipped when its head is gone (c.more counts both).
         */
        if ( xdt_capture_iterate(&c, count, &t) ||
             t.records != c.records - c.more || t.lost != c.lost )
        {
            fprintf(stderr, "fuzz-capture: merged %" PRIu64 " records, %"
                    PRIu64 " lost; the loader counted %" PRIu64 " (%" PRIu64
                    " of them continuations), %" PRIu64 "\n", t.records,
                    t.lost, c.records, c.more, c.lost);
            abort();
        }
        xdt_report_print(&c, &n, size & 1);
        f = fopen(json_out, "w");
        if ( f )
        {
            export_json(&c, &n, f);
            fclose(f);
        }
        f = c.nr_cpus <= TRACEDAT_MAX_CPUS ? fopen(tracedat_out, "w") : NULL;
        if ( f )
        {
            export_tracedat(&c, &n, f);
            fclose(f);
        }
    }
    xdt_capture_free(&c);
    munmap(map, room + page);

    return 0;
}
