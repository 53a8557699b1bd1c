/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scale (issue 15, defects 1 and 2), in a build with NR_CPUS = 4095: 256
 * CPUs with full buffers, filled through the real writer path (the
 * dispatcher and the function tracer's callback, each CPU's records from
 * that CPU).  A read and a clear of trace then run as HypFS operations on a
 * thread with a 64 KiB stack (a guard page below it), whose high-water mark
 * is measured: an NR_CPUS-sized array on the stack would overflow Xen's
 * 8 KiB primary stack.  The clear must allocate nothing proportional to the
 * records; the read's text must be sized from its records; the figures are
 * printed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <xen/dyntrace.h>
#include <xen/hypfs.h>
#include <xen/sched.h>
#include <xen/time.h>

#include "ring.h"
#include "unit.h"

#define SCALE_CPUS   256
#define EXTRA_ROUNDS 100        /* records beyond a full buffer, per CPU */
#define STACK_SIZE   (64 << 10)
#define STACK_GUARD  4096
#define STACK_PAINT  0x5a
/* Xen x86's primary stack (PRIMARY_STACK_SIZE). */
#define XEN_STACK    8192

struct op {
    bool write;
    void *buf;
    unsigned long ulen;
    int rc;
    double ms;
    uintptr_t top;              /* the thread's stack pointer at entry */
};

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *op_thread(void *arg)
{
    struct op *op = arg;
    volatile char here = 0;
    double t0;

    op->top = (uintptr_t)&here;
    stub_ctx_enter(WRITER_CPU, dom0(0), true);
    t0 = now_ms();
    op->rc = stub_hypfs_op(op->write, "/tracing/trace", op->buf, op->ulen);
    op->ms = now_ms() - t0;

    return NULL;
}

/* Run op on a 64 KiB stack; returns the bytes of stack it used. */
static size_t on_small_stack(struct op *op)
{
    uint8_t *mem, *stack, *p;
    pthread_attr_t attr;
    pthread_t th;

    mem = mmap(NULL, STACK_GUARD + STACK_SIZE, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if ( mem == MAP_FAILED || mprotect(mem, STACK_GUARD, PROT_NONE) )
    {
        perror("stack");
        exit(1);
    }
    stack = mem + STACK_GUARD;
    memset(stack, STACK_PAINT, STACK_SIZE);
    pthread_attr_init(&attr);
    if ( pthread_attr_setstack(&attr, stack, STACK_SIZE) ||
         pthread_create(&th, &attr, op_thread, op) || pthread_join(th, NULL) )
    {
        fprintf(stderr, "stack thread failed\n");
        exit(1);
    }
    pthread_attr_destroy(&attr);
    for ( p = stack; p < stack + STACK_SIZE && *p == STACK_PAINT; p++ )
        ;
    munmap(mem, STACK_GUARD + STACK_SIZE);

    return op->top - (uintptr_t)p;
}

/* Does every CPU have exactly each record lines in the text? */
static bool per_cpu_lines(const char *text, unsigned int ncpus,
                          unsigned long each)
{
    unsigned long *n = calloc(ncpus, sizeof(*n));
    const char *p, *eol;
    unsigned int cpu, i;
    bool good = true;

    for ( p = text; *p; p = *eol ? eol + 1 : eol )
    {
        const char *br = strchr(p, '[');
        char *end = NULL;

        eol = strchrnul(p, '\n');
        if ( *p == '#' )
            continue;
        if ( br && br < eol )
            cpu = strtoul(br + 1, &end, 10);
        if ( !end || *end != ']' || cpu >= ncpus )
        {
            good = false;
            break;
        }
        n[cpu]++;
    }
    for ( i = 0; i < ncpus; i++ )
        good &= n[i] == each;
    free(n);

    return good;
}

static bool trace_info_ok(struct trace_info *ti)
{
    char *s = tool_read("trace");

    parse_trace(s ? s : "", ti);
    free(s);

    return s && ti->header_ok && !ti->bad_lines;
}

void t_scale(void)
{
    unsigned long per, rounds, r, entries, written, bad = 0;
    unsigned int cpu, len, text_len;
    struct trace_info ti;
    struct op rd = { 0 }, cl = { 0 };
    size_t base, read_peak, read_largest, clear_peak, st_read, st_clear;
    struct xen_hypfs_direntry *e;
    bool good;

    if ( NR_CPUS < SCALE_CPUS )
    {
        ok(false, "scale: needs NR_CPUS >= %u (built with %u)", SCALE_CPUS,
           NR_CPUS);
        return;
    }
    boot(SCALE_CPUS, 64);
    if ( !ok(start_tracing("gfunc_00?"), "NR_CPUS=%u, %u CPUs up, function "
             "tracer on", NR_CPUS, SCALE_CPUS) )
        return;

    /* Fill every buffer, CPU by CPU in turn, times strictly increasing. */
    per = dt_rings[0]->mask + 1;
    rounds = per + EXTRA_ROUNDS;
    for ( r = 0; r < rounds; r++ )
        for ( cpu = 0; cpu < SCALE_CPUS; cpu++ )
            record(cpu, 2 + (r + cpu) % 7, 20 + cpu % 13,
                   SECONDS(1) + MICROSECS(r * SCALE_CPUS + cpu));
    entries = SCALE_CPUS * per;
    written = SCALE_CPUS * rounds;

    /* The read, into a guest buffer large enough for any text. */
    rd.ulen = sizeof(*e) + entries * 128 + 4096;
    rd.buf = malloc(rd.ulen);
    base = stub_mem.cur;
    stub_mem_mark();
    stub_truncations = 0;
    st_read = on_small_stack(&rd);
    read_peak = stub_mem.peak - base;
    read_largest = stub_mem.largest;
    e = rd.buf;
    text_len = len = rd.rc ? 0 : e->content_len;
    ((char *)(e + 1))[len ? len - 1 : 0] = '\0';

    ok(rd.rc == 0 && st_read < XEN_STACK,
       "defect 1: NR_CPUS=%u, %u CPUs: a read of trace runs on a 64 KiB "
       "stack, using %zu bytes of it (bound: Xen's %u-byte primary stack)",
       NR_CPUS, SCALE_CPUS, st_read, XEN_STACK);
    ok(rd.rc == 0 && read_largest <= 1024 + len && !stub_truncations &&
       stub_mem.cur == base,
       "defect 2: the read's text is sized from its records: largest "
       "allocation %zu bytes for %u bytes of text (bound: 1024 + text; "
       "worst case per record would be %lu)", read_largest, len,
       1024 + entries * (2 * 127 + 64));

    parse_trace(rd.rc ? "" : (char *)(e + 1), &ti);
    good = ti.header_ok && ti.entries == entries && ti.written == written &&
           ti.lines == entries && !ti.bad_lines && ti.sorted &&
           ti.first_us == 1000000 + EXTRA_ROUNDS * SCALE_CPUS &&
           ti.last_us == 1000000 + rounds * SCALE_CPUS - 1 &&
           per_cpu_lines((char *)(e + 1), SCALE_CPUS, per);
    ok(good,
       "defect 2: the text is well-formed: entries-in-buffer/entries-"
       "written %llu/%llu (expected %lu/%lu), %lu lines sorted by time, %lu "
       "per CPU, the oldest surviving first", ti.entries, ti.written,
       entries, written, ti.lines, per);
    good = !rd.rc && names_match((char *)(e + 1), &bad);
    ok(good, "symbols: every line names the function and caller recorded "
       "(%lu of %lu lines do not)", bad, ti.lines);
    free(rd.buf);

    /* The clear: a HypFS write of "" to trace. */
    cl.write = true;
    cl.buf = "";
    cl.ulen = 1;
    base = stub_mem.cur;
    stub_mem_mark();
    st_clear = on_small_stack(&cl);
    clear_peak = stub_mem.peak - base;
    ok(cl.rc == 0 && st_clear < XEN_STACK,
       "defect 1: a clear of trace runs on a 64 KiB stack, using %zu bytes "
       "of it", st_clear);
    ok(cl.rc == 0 && clear_peak < 64 * 1024 && stub_mem.cur == base,
       "defect 2: a clear of %u full buffers allocates nothing proportional "
       "to the records: peak %zu extra bytes (bound 64 KiB), %lu "
       "allocations, %.2f ms", SCALE_CPUS, clear_peak, stub_mem.allocs,
       cl.ms);

    ok(trace_info_ok(&ti) && ti.entries == 0 && ti.written == 0,
       "the trace is empty after the clear");

    diag("scale: cpus=%u nr_cpus=%u records=%lu written=%lu clear_ms=%.2f "
         "clear_peak_bytes=%zu read_ms=%.1f read_peak_bytes=%zu "
         "read_largest_alloc=%zu text_bytes=%u read_stack_bytes=%zu "
         "clear_stack_bytes=%zu", SCALE_CPUS, NR_CPUS, entries, written,
         cl.ms, clear_peak, rd.ms, read_peak, read_largest, text_len,
         st_read, st_clear);
}
