/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The functional tests.  Each shows one behaviour that issue 15 ("Defects
 * found in an independent review") asks for, through what the hypervisor
 * files expose: HypFS operations as Xen runs them, the dispatcher the
 * trampoline calls, and the continuation, timer and rendezvous stubs.
 * Defect numbers are the issue's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xen/dyntrace.h>
#include <xen/hypfs.h>
#include <xen/sched.h>
#include <xen/time.h>

#include "output.h"
#include "ring.h"
#include "scope.h"

#include "unit.h"

#define NF     64               /* functions of the fake image */
#define NR_TRACING_FILES 21     /* the files of /tracing */
#define NR_TRACING_DIRS  4      /* per_cpu/, trace_stat/, events/, options/ */
#define NCPUS  4

static unsigned long want[BITS_TO_LONGS(IMG_MAX_FUNCS)];

/* want := the functions listed (-1 ends the list). */
static const unsigned long *fns(int first, ...)
{
    va_list ap;
    int i;

    memset(want, 0, sizeof(want));
    va_start(ap, first);
    for ( i = first; i >= 0; i = va_arg(ap, int) )
        want[i / BITS_PER_LONG] |= 1UL << (i % BITS_PER_LONG);
    va_end(ap);

    return want;
}

static bool read_is(const char *leaf, const char *expect)
{
    char *s = tool_read(leaf);
    bool same = s && !strcmp(s, expect);

    if ( !same )
        diag("%s reads \"%s\", expected \"%s\"", leaf, s ? s : "(error)",
             expect);
    free(s);

    return same;
}

static bool read_trace_info(struct trace_info *ti)
{
    char *s = tool_read("trace");

    if ( !s )
    {
        memset(ti, 0, sizeof(*ti));
        return false;
    }
    parse_trace(s, ti);
    free(s);

    return ti->header_ok && !ti->bad_lines && ti->lines == ti->entries;
}

/* ---- Boot and the basic interface ---- */

static int write_bytes_raw(const char *leaf, const void *data,
                           unsigned int len)
{
    return hyp_write(dom0(0), WRITER_CPU, leaf, data, len);
}

void t_boot(void)
{
    struct trace_info ti;
    char *s, *p, line[64];
    unsigned int i, n = 0;
    bool order = true;
    uint8_t on = 1;
    unsigned int len;

    boot(NCPUS, NF);
    ok(stub_hypfs_children("/tracing") == NR_TRACING_FILES + NR_TRACING_DIRS,
       "boot: /tracing holds its %u files, per_cpu/, trace_stat/, events/ "
       "and options/",
       NR_TRACING_FILES);

    for ( i = 0; i < NF; i++ )
        order &= img_site_is_nop(img_addr(i));
    s = tool_read("available_functions");
    for ( p = s; p && *p; n++ )
    {
        size_t l = strcspn(p, "\n");

        snprintf(line, sizeof(line), "%.*s", (int)l, p);
        if ( n >= NF || strcmp(line, img_name(n)) )
            order = false;
        p += l + (p[l] == '\n');
    }
    free(s);
    ok(order && n == NF, "boot: every text site made the untraced NOP; "
       "available_functions lists the %u text functions in address order "
       "(init-text sites dropped)", n);

    ok(read_is("available_tracers", "nop function function_graph") &&
       read_is("current_tracer", "nop") &&
       read_is("set_function_filter", "") &&
       hyp_read("/tracing/tracing_on", &on, 1, &len) == 0 && on == 0,
       "boot: nop tracer, empty filter, recording off");

    ok(tool_write("set_function_filter", "nosite_fn") == -EPERM &&
       tool_write("set_function_filter", "no_such_fn") == -ENOENT &&
       tool_write("set_function_filter", "zz*") == -ENOENT &&
       tool_write("current_tracer", "function") == -ENODATA &&
       tool_write("current_tracer", "bogus") == -EINVAL &&
       tool_write("set_function_filter", "gfunc_00?") == 0 &&
       read_is("set_function_filter", "gfunc_000\ngfunc_002\ngfunc_003\n"
                                      "gfunc_004\ngfunc_006\ngfunc_007\n"
                                      "gfunc_008") &&
       tool_write("set_function_filter", "lfunc_005 f1.c#lfunc_001") == 0 &&
       read_is("set_function_filter", "f1.c#lfunc_001\nf2.c#lfunc_005"),
       "filter: names, static names, patterns; errors for a function "
       "without a site, an unknown name, an empty pattern, no filter");

    ok(tool_write("trace", "x") == -ENOSPC &&
       tool_write("current_tracer", "functionfunctionfunctionfunctionfunction"
                                    "functionfunctionfunction") == -ENOSPC &&
       tool_write("available_tracers", "nop") == -EACCES &&
       tool_write("available_functions", "") == -EACCES &&
       tool_write_bool("tracing_on", 2) == -EINVAL &&
       write_bytes_raw("current_tracer", "nop", 3) == -EINVAL,
       "writes: longer than the file's maximum -ENOSPC, read-only files "
       "-EACCES, a bad boolean or a string without its NUL -EINVAL");

    ok(start_tracing("gfunc_002 lfunc_005") &&
       traced_exactly(fns(2, 5, -1)) && read_is("current_tracer", "function"),
       "tracing: a filter, the function tracer, recording on: exactly the "
       "filter's sites hold the CALL");

    record(2, 2, 3, SECONDS(1) + MICROSECS(7));
    s = tool_read("trace");
    parse_trace(s ? s : "", &ti);
    ok(s && ti.entries == 1 && ti.written == 1 && ti.lines == 1 &&
       strstr(s, "[002] ...     1.000007: gfunc_002 <-gfunc_003\n") &&
       strstr(s, "#P:4\n"),
       "tracing: a call through the dispatcher is one record, formatted "
       "with its CPU, time and symbols");
    free(s);

    ok(tool_write("current_tracer", "nop") == 0 && last_runs == 1 &&
       traced_exactly(fns(-1)) && read_trace_info(&ti) && ti.entries == 0,
       "tracing: back to nop: every site untraced, buffers cleared");
}

/* ---- Symbols ---- */

void t_names(void)
{
    unsigned int fn, caller, n = 0;
    unsigned long bad = 0;
    struct trace_info ti;
    bool named;
    char *s;

    boot(NCPUS, NF);
    start_tracing("gfunc_002");
    /* Every (function, caller) pair of the image, in time order. */
    for ( fn = 0; fn < NF; fn++ )
        for ( caller = 0; caller < NF; caller++, n++ )
            record(n % NCPUS, fn, caller, SECONDS(2) + MICROSECS(n));
    s = tool_read("trace");
    parse_trace(s ? s : "", &ti);
    named = s && names_match(s, &bad);
    ok(ti.lines == NF * NF && named,
       "symbols: every line names the function and caller recorded, for "
       "each of the %u pairs of functions (%lu lines wrong)", NF * NF, bad);
    free(s);
}

/* ---- Defect 2, small: what a clear, a listing and a read allocate ---- */

void t_clear_read_small(void)
{
    struct trace_info ti;
    unsigned int r, cpu, len, cap = 1 << 20;
    size_t base;
    char *buf = malloc(cap);
    int rc;

    boot(NCPUS, NF);
    start_tracing("gfunc_00?");
    for ( r = 0; r < 500; r++ )
        for ( cpu = 0; cpu < NCPUS; cpu++ )
            record(cpu, 2 + r % 5, 10 + cpu, SECONDS(1) +
                                             MICROSECS(r * NCPUS + cpu));

    base = stub_mem.cur;
    stub_mem_mark();
    rc = hyp_read("/tracing", buf, cap, &len);
    ok(rc == 0 && stub_mem.peak - base < 1024,
       "defect 2: listing /tracing builds no trace snapshot (peak %zu extra "
       "bytes)", stub_mem.peak - base);

    base = stub_mem.cur;
    stub_mem_mark();
    stub_truncations = 0;
    rc = hyp_read("/tracing/trace", buf, cap, &len);
    ok(rc == 0 && stub_mem.largest > 65536 &&
       stub_mem.largest <= 1024 + len && !stub_truncations &&
       stub_mem.cur == base,
       "defect 2: a read's text is sized from its records: largest "
       "allocation %zu bytes for %u bytes of text (bound: 1024 + text)",
       stub_mem.largest, len);
    parse_trace(rc ? "" : buf, &ti);
    ok(ti.header_ok && ti.entries == 2000 && ti.written == 2000 &&
       ti.lines == 2000 && !ti.bad_lines && ti.sorted,
       "defect 2: the text holds the 2000 records, merged by time");

    base = stub_mem.cur;
    stub_mem_mark();
    rc = tool_write("trace", "");
    ok(rc == 0 && stub_mem.peak - base < 1024 && stub_mem.cur == base,
       "defect 2: a clear formats nothing (peak %zu extra bytes, %lu "
       "allocations)", stub_mem.peak - base, stub_mem.allocs);
    ok(read_trace_info(&ti) && ti.entries == 0 && ti.written == 0,
       "defect 2: the clear emptied every buffer");
    free(buf);
}

/* ---- Defect 3: the snapshot kept for a retry ---- */

/* A read with a buffer too small for anything: the size it reports. */
static int probe(unsigned int *len)
{
    return hyp_read("/tracing/trace", NULL, 16, len);
}

void t_retry_cache(void)
{
    struct trace_info ti;
    unsigned int i, len1, len2, la, lb, lc, ld;
    s_time_t t1, t2;
    size_t base, kept;
    char *buf, *first;
    int rc1, rc2;
    bool held, freed, same;

    boot(NCPUS, NF);
    start_tracing("gfunc_002");
    for ( i = 0; i < 20; i++ )
        record(1 + i % 2, 2, 3, SECONDS(10) + MICROSECS(i));
    first = tool_read("trace");         /* read whole: nothing kept */
    base = stub_mem.cur;

    rc1 = probe(&len1);
    kept = stub_mem.cur - base;
    ok(rc1 == -ENOBUFS && kept >= len1 && first && len1 == strlen(first) + 1,
       "defect 3: a read with a too-small buffer fails -ENOBUFS (%u bytes "
       "needed) and keeps its snapshot (%zu bytes)", len1, kept);

    for ( i = 0; i < 5; i++ )
        record(1, 2, 3, SECONDS(11) + MICROSECS(i));
    buf = malloc(len1 + 1);
    rc2 = hyp_read("/tracing/trace", buf, len1, &len2);
    buf[len1] = '\0';
    parse_trace(rc2 ? "" : buf, &ti);
    same = !rc2 && first && !strcmp(buf, first);
    free(buf);
    free(first);
    ok(rc2 == 0 && len2 == len1 && same && ti.entries == 20 &&
       stub_mem.cur == base,
       "defect 3: the retry 1 s later gets the kept snapshot (the same %u "
       "bytes of text, 20 entries, not the 25 there are now) and frees it",
       len2);

    t1 = stub_now_ns;
    rc1 = probe(&len1);
    stub_advance_to(t1 + SECONDS(2) - 1);
    held = stub_mem.cur > base;
    stub_advance_to(t1 + SECONDS(2));
    freed = stub_mem.cur == base;
    ok(rc1 == -ENOBUFS && held && freed,
       "defect 3: an unread snapshot is kept until 2 s after it was taken, "
       "then freed by its timer with no further read");

    t2 = stub_now_ns;
    probe(&la);
    for ( i = 0; i < 3; i++ )
        record(2, 2, 3, t2 + MILLISECS(1500) + MICROSECS(i));
    probe(&lb);                 /* at +1.5 s: served, put back */
    stub_advance_to(t2 + MILLISECS(1900));
    probe(&lc);                 /* at +1.9 s: served, put back */
    held = stub_mem.cur > base;
    stub_advance_to(t2 + SECONDS(2));
    freed = stub_mem.cur == base;
    probe(&ld);                 /* a new snapshot: 28 entries */
    buf = malloc(ld + 1);
    rc2 = hyp_read("/tracing/trace", buf, ld, &len2);
    buf[ld] = '\0';
    parse_trace(rc2 ? "" : buf, &ti);
    free(buf);
    ok(lb == la && lc == la && held && freed && ld > la && rc2 == 0 &&
       ti.entries == 28 && stub_mem.cur == base,
       "defect 3: a snapshot served and put back at +1.5 s and +1.9 s still "
       "expires 2 s after it was first taken (not refreshed)");

    probe(&la);
    rc1 = tool_write("trace", "");
    ok(rc1 == 0 && read_trace_info(&ti) && ti.entries == 0 && stub_mem.cur == base,
       "defect 3: a clear invalidates a kept snapshot");
}

/* ---- Defect 4: one operation at a time, computed from committed state ---- */

static struct vcpu *race_busy;

static void race_hook(void)
{
    while ( stub_run_tasklet_except(race_busy) )
        ;
}

struct race {
    const char *name;
    const char *leaf2, *data2;  /* the second write, by dom0 vCPU 1 */
    bool (*check)(int rc2);
};

static bool check_filter_vs_switch(int rc2)
{
    /* Switch to function (filter gfunc_002) racing a filter write. */
    if ( !read_is("current_tracer", "function") )
        return false;
    if ( rc2 == -EBUSY )
        return read_is("set_function_filter", "gfunc_002") &&
               traced_exactly(fns(2, -1));
    return rc2 == 0 && read_is("set_function_filter", "gfunc_003") &&
           traced_exactly(fns(3, -1));
}

static bool check_switch_vs_filter(int rc2)
{
    /* Filter change gfunc_002 -> gfunc_003 racing a write of "function". */
    return (rc2 == 0 || rc2 == -EBUSY) &&
           read_is("current_tracer", "function") &&
           read_is("set_function_filter", "gfunc_003") &&
           traced_exactly(fns(3, -1));
}

/* In a child: preempt the second write at its kth point; exit status. */
static void race_child(const struct race *r, unsigned int k)
{
    struct vcpu *v2 = dom0(1);
    struct stub_hcall *h = stub_hcall_of(v2);
    bool fired, good;
    int rc2;

    race_busy = v2;
    h->done = false;
    stub_preempt_fn = race_hook;
    stub_preempt_seen = 0;
    stub_preempt_at = k;
    rc2 = hyp_write(v2, 2, r->leaf2, r->data2, strlen(r->data2) + 1);
    fired = !stub_preempt_at;
    stub_preempt_at = 0;
    while ( stub_run_tasklet() )
        ;
    if ( h->done )
        rc2 = h->result;
    good = r->check(rc2) && !stub_anomalies && !stub_hcall_of(dom0(0))->paused;
    if ( !good )
        diag("%s, preempted at point %u: second write %d%s%s", r->name, k,
             rc2, stub_anomalies ? "; stub anomaly: " : "",
             stub_anomaly_first);
    fflush(stdout);
    exit(!good ? 1 : !fired ? 2 : rc2 == -EBUSY ? 3 : 0);
}

/* From the current state (first operation pending): every interleaving. */
static void race_all(const struct race *r)
{
    unsigned int k, busy = 0, applied = 0, bad = 0;
    bool end = false;

    for ( k = 1; k < 200 && !end; k++ )
    {
        int status;
        pid_t pid;

        fflush(stdout);
        pid = fork();
        if ( !pid )
            race_child(r, k);
        waitpid(pid, &status, 0);
        if ( !WIFEXITED(status) || WEXITSTATUS(status) == 1 ||
             WEXITSTATUS(status) > 3 )
        {
            bad++;
            if ( !WIFEXITED(status) || WEXITSTATUS(status) != 1 )
                diag("%s, preempted at point %u: child %s %d", r->name, k,
                     WIFSIGNALED(status) ? "killed by signal" : "exit",
                     WIFSIGNALED(status) ? WTERMSIG(status)
                                         : WEXITSTATUS(status));
        }
        else if ( WEXITSTATUS(status) == 2 )
            end = true;
        else if ( WEXITSTATUS(status) == 3 )
            busy++;
        else
            applied++;
    }
    ok(!bad && end && busy + applied == k - 2,
       "defect 4: %s, preempted at each of its %u points: -EBUSY (%u) or "
       "applied on top of the committed state (%u), never undoing it",
       r->name, k - 2, busy, applied);
}

void t_pending_op(void)
{
    static const struct race a = {
        "a filter write racing the commit of a tracer switch",
        "set_function_filter", "gfunc_003", check_filter_vs_switch,
    };
    static const struct race b = {
        "a tracer write racing the commit of a filter change",
        "current_tracer", "function", check_switch_vs_filter,
    };
    struct vcpu *v0 = dom0(0), *v1 = dom0(1);
    int rc1, rca, rcb;
    bool pending;

    boot(NCPUS, NF);
    tool_write("set_function_filter", "gfunc_002");

    /* The switch is queued; the hypercall of vCPU 0 is not over. */
    rc1 = hyp_write(v0, 1, "current_tracer", "function", 9);
    pending = stub_hcall_of(v0)->paused && stub_tasklets_queued() == 1;
    rca = hyp_write(v1, 2, "current_tracer", "nop", 4);
    rcb = hyp_write(v1, 2, "set_function_filter", "gfunc_003", 10);
    ok(rc1 == 0 && pending && rca == -EBUSY && rcb == -EBUSY &&
       stub_tasklets_queued() == 1 && read_is("current_tracer", "nop") &&
       read_is("set_function_filter", "gfunc_002") &&
       traced_exactly(fns(-1)),
       "defect 4: while a patch operation is pending, writes to "
       "current_tracer and set_function_filter fail -EBUSY and change "
       "nothing");

    /* Every interleaving, each in a child started from this state. */
    race_all(&a);

    finish_hcall(v0);
    ok(stub_hcall_of(v0)->result == 0 && stub_hcall_of(v0)->runs == 1 &&
       read_is("current_tracer", "function") && traced_exactly(fns(2, -1)),
       "defect 4: the continuation then commits the switch");

    ok(tool_write("set_function_filter", "gfunc_003") == 0 &&
       traced_exactly(fns(3, -1)) && tool_write("current_tracer", "nop") == 0 &&
       traced_exactly(fns(-1)) && tool_write("current_tracer", "function") == 0 &&
       traced_exactly(fns(3, -1)),
       "defect 4: writes computed from the committed state then work");

    tool_write("set_function_filter", "gfunc_002");
    rc1 = hyp_write(v0, 1, "set_function_filter", "gfunc_003", 10);
    if ( ok(rc1 == 0 && stub_hcall_of(v0)->paused,
            "defect 4: a filter change under the function tracer is queued") )
        race_all(&b);
}

/* ---- Defect 8: rendezvous retries, each in its own tasklet run ---- */

void t_rendezvous_retry(void)
{
    static const uint32_t waits[] = { 50, 100, 200, 400, 800, 1600, 2000 };
    unsigned int c0, i;
    bool waits_ok = true;
    long rc;

    boot(NCPUS, NF);
    start_tracing("gfunc_002");

    c0 = stub_lp_calls;
    stub_lp_script(-EAGAIN);
    stub_lp_script(-ETIMEDOUT);
    rc = tool_write("set_function_filter", "gfunc_002 gfunc_003");
    ok(rc == 0 && last_runs == 3 && stub_lp_calls - c0 == 3 &&
       traced_exactly(fns(2, 3, -1)) &&
       read_is("set_function_filter", "gfunc_002\ngfunc_003"),
       "defect 8: -EAGAIN, -ETIMEDOUT, then success: the write returns 0 "
       "after 3 separate tasklet runs (%u), filter committed", last_runs);
    ok(stub_lp_timeouts[c0] == MILLISECS(50) &&
       stub_lp_timeouts[c0 + 1] == MILLISECS(100) &&
       stub_lp_timeouts[c0 + 2] == MILLISECS(200),
       "defect 8: each attempt waits twice as long (50, 100, 200 ms)");

    c0 = stub_lp_calls;
    for ( i = 0; i < 7; i++ )
        stub_lp_script(i % 2 ? -EAGAIN : -ETIMEDOUT);
    rc = tool_write("set_function_filter", "gfunc_004");
    for ( i = 0; i < 7; i++ )
        waits_ok &= stub_lp_timeouts[c0 + i] == MILLISECS(waits[i]);
    ok(rc == -ETIMEDOUT && last_runs == 7 && stub_lp_calls - c0 == 7 &&
       waits_ok && traced_exactly(fns(2, 3, -1)) &&
       read_is("set_function_filter", "gfunc_002\ngfunc_003") &&
       read_is("current_tracer", "function"),
       "defect 8: 7 failed attempts (waits up to 2 s): the write fails with "
       "the last error (%ld) and nothing changes", rc);

    ok(tool_write("set_function_filter", "gfunc_004") == 0 && last_runs == 1 &&
       traced_exactly(fns(4, -1)),
       "defect 8: the operation is over: the next write works");
}

/* ---- Defect 10: boot error paths ---- */

/* After a boot: /tracing complete and working, or absent. */
static int boot_outcome(unsigned int k)
{
    int n = stub_hypfs_children("/tracing");
    struct trace_info ti;
    unsigned int cpu, i;
    bool good = true;

    if ( n == -ENOENT )
    {
        /* Absent: the dispatcher and the livepatch check stay harmless. */
        for ( cpu = 0; cpu < NCPUS; cpu++ )
            record(cpu, 2, 3, stub_now_ns + 1000);
        good = !dyntrace_range_is_traced(img_addr(0), img_addr(NF - 1) + 5);
        return good && !stub_anomalies ? 0 : 1;
    }
    /* The files and the directories. */
    if ( n != NR_TRACING_FILES + NR_TRACING_DIRS )
    {
        diag("allocation %u failed: /tracing has %d files", k, n);
        return 1;
    }
    for ( i = 0; i < NR_TRACING_FILES; i++ )
    {
        static const char *const leaves[NR_TRACING_FILES] = {
            "available_tracers", "current_tracer", "available_functions",
            "available_functions_addrs",
            "set_function_filter", "set_function_notrace",
            "set_domain_filter", "tracing_cpumask", "tracing_on",
            "trace", "trace_pipe", "buffer_size_kb", "buffer_total_size_kb",
            "enabled_functions", "max_graph_depth", "tracing_thresh",
            "set_graph_function", "function_profile_enabled", "error_log",
            "available_events", "set_event",
        };
        /* The UINT files, and whether their boot value is non-zero. */
        bool is_uint = strstr(leaves[i], "_kb") ||
                       !strcmp(leaves[i], "max_graph_depth") ||
                       !strcmp(leaves[i], "tracing_thresh");
        char *s;

        if ( is_uint )
        {
            uint32_t kb = 0;
            char path[64];
            unsigned int len;

            /* Buffer sizes are never 0; the graph settings are 0 at boot. */
            snprintf(path, sizeof(path), "/tracing/%s", leaves[i]);
            good &= hyp_read(path, &kb, sizeof(kb), &len) == 0 &&
                    len == sizeof(kb) && (kb != 0) == !!strstr(leaves[i], "_kb");
            continue;
        }
        s = tool_read(leaves[i]);
        good &= s != NULL;
        free(s);
    }
    {
        char *s = tool_read("per_cpu/cpu0/stats");

        good &= s && strstr(s, "entries: 0\n");
        free(s);
    }
    good &= start_tracing("gfunc_002") && traced_exactly(fns(2, -1));
    for ( cpu = 0; cpu < NCPUS; cpu++ )
        record(cpu, 2, 3, stub_now_ns + 1000);
    good &= read_trace_info(&ti) && ti.entries <= NCPUS && ti.entries >= 1 &&
            tool_write("trace", "") == 0 &&
            tool_write("current_tracer", "nop") == 0 &&
            traced_exactly(fns(-1));
    if ( !good || stub_anomalies )
        diag("allocation %u failed: /tracing present but not working%s%s", k,
             stub_anomalies ? "; stub anomaly: " : "", stub_anomaly_first);

    return good && !stub_anomalies ? 3 : 1;
}

static bool no_sites_case(unsigned int nfuncs, bool init_only)
{
    int status;
    pid_t pid;

    fflush(stdout);
    pid = fork();
    if ( !pid )
    {
        bool good;

        boot_no_sites = init_only;
        boot(NCPUS, nfuncs);
        good = stub_hypfs_children("/tracing") == -ENOENT &&
               stub_log_has("no patch sites") &&
               !dyntrace_range_is_traced(0, ~0UL) && !stub_anomalies;
        if ( nfuncs )
            record(1, 0, 1, stub_now_ns + 1);
        exit(good ? 0 : 1);
    }
    waitpid(pid, &status, 0);

    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void t_boot_errors(void)
{
    unsigned int k, present = 0, absent = 0, bad = 0;
    bool end = false;

    for ( k = 1; k < 500 && !end; k++ )
    {
        int status, code;
        pid_t pid;

        fflush(stdout);
        pid = fork();
        if ( !pid )
        {
            stub_alloc_fail_in = k;
            boot(NCPUS, NF);
            stub_alloc_fail_in = 0;
            code = boot_outcome(k);
            fflush(stdout);
            exit(code == 1 ? 1 : !stub_alloc_failed ? 2 : code);
        }
        waitpid(pid, &status, 0);
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        if ( code == 2 )
            end = true;
        else if ( code == 0 )
            absent++;
        else if ( code == 3 )
            present++;
        else
        {
            bad++;
            diag("allocation %u failed at boot: %s %d", k,
                 WIFSIGNALED(status) ? "killed by signal" : "exit",
                 WIFSIGNALED(status) ? WTERMSIG(status) : code);
        }
    }
    ok(end && !bad,
       "defect 10: an allocation failure at each of the %u boot allocations: "
       "/tracing complete and working (%u) or absent (%u), never partial, no "
       "crash", k - 2, present, absent);

    ok(no_sites_case(0, false) && no_sites_case(NF, true),
       "defect 10: no patch sites (no functions; only init-text sites): "
       "tracer absent, no crash");
}

/* ---- Defect 11: 64-bit loss counter, NMI timestamps ---- */

void t_counters(void)
{
    const uint64_t d1 = (1ULL << 32) - 2, d2 = (1ULL << 31) - 1;
    struct trace_info ti;
    struct stub_ctx ctx;
    const uint64_t *slot;
    unsigned int i;
    s_time_t t;
    char *s;
    const char *nmi, *before, *after;
    bool good;

    boot(NCPUS, NF);
    start_tracing("gfunc_002 gfunc_004");
    for ( i = 0; i < 10; i++ )
        record(1, 2, 3, SECONDS(3) + MICROSECS(i));
    for ( i = 0; i < 7; i++ )
        record(2, 2, 3, SECONDS(3) + MICROSECS(20 + i));

    /* Near the 32-bit limits, then events lost through the writer. */
    dt_rings[1]->dropped = d1;
    dt_rings[2]->dropped = d2;
    stub_nested_ip = img_addr(4);
    stub_nested_parent = img_addr(5) + 0x11;
    stub_nested_writes = 5;
    record(1, 2, 3, SECONDS(3) + MICROSECS(40));
    stub_nested_writes = 3;
    record(2, 2, 3, SECONDS(3) + MICROSECS(41));
    good = read_trace_info(&ti);
    ok(dt_rings[1]->dropped == d1 + 5 && dt_rings[2]->dropped == d2 + 3 &&
       good && ti.entries == 19 &&
       ti.written == 19 + d1 + 5 + d2 + 3,
       "defect 11: events lost by nested writers past 2^31 and 2^32 drops: "
       "entries-written %llu/%llu is the exact 64-bit sum", ti.entries,
       ti.written);

    /* A record in NMI context between three ordinary ones. */
    tool_write("trace", "");
    t = SECONDS(5);
    record(1, 2, 3, t + MICROSECS(1));
    stub_advance_to(t + MICROSECS(2));
    ctx = stub_ctx_enter(1, stub_guest_vcpu(1, 1), true);
    stub_nmi_count = 1;
    stub_trampoline(img_addr(4), img_addr(6) + 0x11);
    stub_nmi_count = 0;
    stub_ctx_restore(ctx);
    record(2, 2, 3, t + MICROSECS(3));
    record(1, 2, 3, t + MICROSECS(4));

    /* The second record of CPU 1: 32 bytes, ts first (function.c). */
    slot = (const uint64_t *)((const uint8_t *)dt_rings[1]->rec + 32);
    s = tool_read("trace");
    parse_trace(s ? s : "", &ti);
    nmi = s ? strstr(s, "..z     5.000002: gfunc_004 <-gfunc_006\n") : NULL;
    before = s ? strstr(s, "...     5.000001: gfunc_002 <-gfunc_003\n") : NULL;
    after = s ? strstr(s, "...     5.000003: gfunc_002 <-gfunc_003\n") : NULL;
    ok(slot[0] == 2 * (uint64_t)(t + MICROSECS(2)) &&
       ti.lines == 4 && ti.sorted && nmi && before && after &&
       before < nmi && nmi < after,
       "defect 11: a record written in NMI context keeps the raw stamp (not "
       "NOW()) and is converted when read: right time, in order");
    free(s);
}

/*
 * ---- B14: records keep the TSC; the anchors keep each one's NOW() across
 * a recalibration ----
 */

void t_anchors(void)
{
    const s_time_t t = SECONDS(7);
    struct dt_ring *r;
    char *s;
    bool good;

    boot(NCPUS, NF);
    start_tracing("gfunc_002");
    stub_calibration_ns = 0;
    record(1, 2, 3, t);
    record(1, 2, 3, t + MICROSECS(1));
    r = dt_rings[1];
    good = r->nr_anchors == 1 && r->anchor[0].stamp == 2 * (uint64_t)t &&
           r->anchor[0].ns == t;
    /*
     * The calibration moves: converting the old stamps now would put them
     * 300 us later.  A record DT_ANCHOR_PERIOD ticks on takes a new anchor,
     * with the new calibration.
     */
    stub_calibration_ns = MICROSECS(300);
    record(1, 2, 3, t + MILLISECS(20));
    good &= r->nr_anchors == 2;
    s = tool_read("trace");
    ok(good && s &&
       strstr(s, "...     7.000000: gfunc_002 <-gfunc_003\n") &&
       strstr(s, "...     7.000001: gfunc_002 <-gfunc_003\n") &&
       strstr(s, "...     7.020300: gfunc_002 <-gfunc_003\n") &&
       !strstr(s, "7.000300") && !strstr(s, "7.000301"),
       "B14: a record's time is NOW() when it was taken, from its anchor, "
       "after the calibration moved; a record a period later takes a new "
       "anchor (anchors %u)", r->nr_anchors);
    free(s);
    stub_calibration_ns = 0;
}

/*
 * ---- B14 and G3: a stamp with no near anchor before it converts back from
 * the near one after it ----
 *
 * function_graph writes a call's entry record late, when a call inside it
 * writes (G1), with the call's time; the anchor taken then is later.  Its
 * entry record and its return's copy of that time (read in another copy,
 * where that anchor may be the first) must convert alike, and not by the
 * reading CPU's calibration, 300 us off here.
 */
void t_anchor_after(void)
{
    const s_time_t t = SECONDS(7), t2 = t + MILLISECS(20);
    struct dt_anchor anchors[2] = {
        { .stamp = 2 * (uint64_t)t, .ns = t },
        { .stamp = 2 * (uint64_t)t2, .ns = t2 },
    };
    struct dt_ring_copy c = { .nr_anchors = 2, .anchors = anchors };
    struct dt_ring_copy later = { .nr_anchors = 1, .anchors = &anchors[1] };
    struct xen_dyntrace_record ret = {
        .ts = anchors[1].stamp + 2 * MICROSECS(1),
        .parent_ip = anchors[1].stamp - 2 * MICROSECS(5),
        .flags = XEN_DYNTRACE_FLAG_RAW_TS | XEN_DYNTRACE_FLAG_GRAPH_RET,
    };
    bool anchored = false, far = true;
    s_time_t entry, lone;

    boot(NCPUS, NF);
    stub_calibration_ns = MICROSECS(300);
    entry = dt_copy_stamp_to_ns(&c, ret.parent_ip, &anchored);
    /* Nothing near either side: the calibration, unanchored. */
    lone = dt_copy_stamp_to_ns(&c, anchors[1].stamp - 2 * MILLISECS(10), &far);
    dt_record_to_ns(&later, &ret);
    ok(anchored && entry == t2 - MICROSECS(5) &&
       ret.parent_ip == (uint64_t)entry &&
       ret.ts == (uint64_t)(t2 + MICROSECS(1)) &&
       !far && lone == t2 - MILLISECS(10) + MICROSECS(300),
       "B14/G3: a stamp 5 us before the next anchor, the previous 20 ms "
       "away, converts back from the next (%lld ns before it), as its "
       "return's copy of it does in a copy holding that anchor alone (%lld); "
       "with no anchor near, the calibration",
       (long long)(t2 - entry), (long long)(t2 - ret.parent_ip));
    stub_calibration_ns = 0;
}

/* ---- Defect 12: writes that patch text need the livepatch permission ---- */

void t_permission(void)
{
    struct trace_info ti;
    uint8_t on = 1;
    unsigned int len, calls;
    long r1, r2;

    boot(NCPUS, NF);
    start_tracing("gfunc_002");
    record(1, 2, 3, SECONDS(1));

    stub_lp_permission = -EPERM;
    calls = stub_lp_permission_calls;
    r1 = tool_write("current_tracer", "nop");
    r2 = tool_write("set_function_filter", "gfunc_003");
    ok(r1 == -EPERM && r2 == -EPERM && stub_lp_permission_calls - calls == 2 &&
       !stub_tasklets_queued() && read_is("current_tracer", "function") &&
       read_is("set_function_filter", "gfunc_002") &&
       traced_exactly(fns(2, -1)),
       "defect 12: without the livepatch permission, writes to "
       "current_tracer and set_function_filter fail -EPERM, nothing changed");

    ok(tool_write_bool("tracing_on", 0) == 0 &&
       hyp_read("/tracing/tracing_on", &on, 1, &len) == 0 && on == 0 &&
       tool_write_bool("tracing_on", 1) == 0 &&
       tool_write("trace", "") == 0 && read_trace_info(&ti) && ti.entries == 0,
       "defect 12: tracing_on and the trace clear still work without it");
    stub_lp_permission = 0;
}

/* ---- Defect 7: partial overlaps with a traced site ---- */

void t_overlap(void)
{
    unsigned long s, n;
    bool hits, misses;

    boot(NCPUS, NF);
    start_tracing("gfunc_002");
    s = img_addr(2);
    n = img_addr(3);            /* the next site, untraced */
    hits = dyntrace_range_is_traced(s + 1, s + 2) &&
           dyntrace_range_is_traced(s + 4, s + 5) &&
           dyntrace_range_is_traced(s - 3, s + 1) &&
           dyntrace_range_is_traced(s, s + 5) &&
           dyntrace_range_is_traced(s - 100, s + 100);
    misses = !dyntrace_range_is_traced(s + 5, s + 9) &&
             !dyntrace_range_is_traced(s - 4, s) &&
             !dyntrace_range_is_traced(n, n + 5) &&
             !dyntrace_range_is_traced(n + 1, n + 3);
    ok(hits && misses,
       "defect 7: a range overlapping a traced 5-byte site at S is traced "
       "([S+1,S+2), [S+4,S+5), [S-3,S+1)); [S+5,S+9), [S-4,S) and an "
       "untraced site are not");
    ok(tool_write("current_tracer", "nop") == 0 &&
       !dyntrace_range_is_traced(s + 1, s + 2) &&
       !dyntrace_range_is_traced(s - 100, s + 100),
       "defect 7: nothing is traced once the sites are put back");
}

/* ---- Defect 9: a failed patch is rolled back, checked, and stops tracing ---- */

void t_rollback(void)
{
    struct trace_info ti;
    unsigned int len;
    uint8_t on = 1;
    long rc;

    /*
     * gfunc_002 traced; the filter then adds 3, 4 and 6.  The second site
     * written (4) fails: 3 must be put back, 2 stays as it was, the write
     * fails, the committed filter is unchanged and tracing is stopped.
     */
    boot(NCPUS, NF);
    start_tracing("gfunc_002");
    stub_patch_calls = 0;
    stub_patch_fail_mask = 1u << 1;
    rc = tool_write("set_function_filter", "gfunc_002 gfunc_003 gfunc_004 gfunc_006");
    stub_patch_fail_mask = 0;
    ok(rc == -EEXIST && stub_patch_calls == 3 &&
       traced_exactly(fns(2, -1)) &&
       read_is("set_function_filter", "gfunc_002") &&
       stub_log_has("dyntrace: bad site gfunc_004"),
       "defect 9: a site failing mid-operation: the write fails -EEXIST, the "
       "sites already rewritten are put back (3 patch calls), the filter is "
       "unchanged and the bad site is reported");
    ok(hyp_read("/tracing/tracing_on", &on, 1, &len) == 0 && on == 0 &&
       tool_write("trace", "") == 0 &&
       (record(0, 2, 5, stub_now_ns + 1000), read_trace_info(&ti)) &&
       ti.entries == 0,
       "defect 9: tracing stopped: tracing_on reads 0 and a call of the "
       "still-patched gfunc_002 records nothing");
    {
        char *ef = tool_read("enabled_functions");

        ok(ef && !strncmp(ef, "gfunc_002 (1) ->(stopped) e8 ", 29) &&
           !strchr(ef, '\n')[1],
           "enabled_functions after the stop: the still-patched entry, "
           "attached to no tracer");
        free(ef);
    }

}

/*
 * The same, but putting site 3 back fails too: the failure is loud and the
 * traced bits keep telling what each entry holds.
 */
void t_rollback_fails(void)
{
    long rc;

    boot(NCPUS, NF);
    start_tracing("gfunc_002");
    stub_patch_calls = 0;
    stub_patch_fail_mask = (1u << 1) | (1u << 2);
    rc = tool_write("set_function_filter", "gfunc_002 gfunc_003 gfunc_004 gfunc_006");
    stub_patch_fail_mask = 0;
    ok(rc == -EEXIST && traced_exactly(fns(2, 3, -1)) &&
       dyntrace_range_is_traced(img_addr(3), img_addr(3) + 1) &&
       stub_log_has("could not put back gfunc_003"),
       "defect 9: a rollback that fails is reported and the traced bits "
       "match the entries' bytes (2 and 3 hold CALL)");
}

/* ---- Issue 13: the filter language and set_function_notrace ---- */

void t_filter_language(void)
{
    char *back;
    bool good;

    boot(NCPUS, NF);
    /* gfunc_NNN exist for NNN % 4 != 1; the others are f?.c#lfunc_NNN. */
    good = start_tracing("gfunc_002 gfunc_003") &&
           traced_exactly(fns(2, 3, -1)) &&
           tool_write("set_function_filter", "+gfunc_006") == 0 &&
           traced_exactly(fns(2, 3, 6, -1)) &&
           tool_write("set_function_filter", "!gfunc_003") == 0 &&
           traced_exactly(fns(2, 6, -1)) &&
           read_is("set_function_filter", "gfunc_002\ngfunc_006");
    ok(good, "filter: '+word' adds to and '!word' removes from the current "
       "set in place");

    good = tool_write("set_function_filter", "+gfunc_00* !gfunc_004") == 0 &&
           traced_exactly(fns(0, 2, 3, 6, 7, 8, -1)) &&
           tool_write("set_function_filter", "gfunc_00? !gfunc_00[0]") ==
           -ENOENT && traced_exactly(fns(0, 2, 3, 6, 7, 8, -1)) &&
           tool_write("set_function_filter", "gfunc_010 !gfunc_010") == 0 &&
           traced_exactly(fns(-1)) &&
           tool_write("set_function_filter", "gfunc_00* !gfunc_00?") == 0 &&
           traced_exactly(fns(-1));
    ok(good, "filter: words apply left to right; a plain first word "
       "replaces the set; a failing word changes nothing");

    good = tool_write("set_function_filter", "!") == -EINVAL &&
           tool_write("set_function_filter", "+") == -EINVAL &&
           tool_write("set_function_filter", "!no_such_fn") == -ENOENT &&
           tool_write("set_function_filter", "+nosite_fn") == -EPERM &&
           traced_exactly(fns(-1));
    ok(good, "filter: a bare '!' or '+' is -EINVAL, an unknown name -ENOENT, "
       "a function without a site -EPERM, nothing changed");

    good = tool_write("set_function_filter", "*") == 0 &&
           tool_write("set_function_notrace", "gfunc_00* f1.c#lfunc_013") == 0;
    back = tool_read("set_function_notrace");
    good &= back && !strcmp(back, "gfunc_000\ngfunc_002\ngfunc_003\n"
                            "gfunc_004\ngfunc_006\ngfunc_007\ngfunc_008\n"
                            "f1.c#lfunc_013");
    free(back);
    good &= !traced_exactly(fns(-1)) &&
            !dyntrace_range_is_traced(img_addr(0), img_addr(0) + 1) &&
            !dyntrace_range_is_traced(img_addr(13), img_addr(13) + 1) &&
            dyntrace_range_is_traced(img_addr(9), img_addr(9) + 1) &&
            dyntrace_range_is_traced(img_addr(12), img_addr(12) + 1);
    ok(good, "notrace: functions in set_function_notrace are never traced, "
       "even under '*'");

    good = tool_write("set_function_notrace", "!gfunc_000") == 0 &&
           dyntrace_range_is_traced(img_addr(0), img_addr(0) + 1) &&
           tool_write("set_function_notrace", "") == 0 &&
           dyntrace_range_is_traced(img_addr(2), img_addr(2) + 1);
    ok(good, "notrace: edited in place and emptied, the functions are traced "
       "again");

    /* What is read back can be written back, and changes nothing. */
    good = tool_write("set_function_filter", "gfunc_0* !gfunc_01*") == 0 &&
           tool_write("set_function_notrace", "f?.c#lfunc_00*") == 0;
    back = tool_read("set_function_filter");
    good &= back && tool_write("set_function_filter", back) == 0 &&
            read_is("set_function_filter", back);
    free(back);
    back = tool_read("set_function_notrace");
    good &= back && tool_write("set_function_notrace", back) == 0 &&
            read_is("set_function_notrace", back);
    free(back);
    ok(good, "filter, notrace: what is read back is accepted when written "
       "back and changes nothing");

    good = tool_write("set_function_notrace", "*") == 0 &&
           traced_exactly(fns(-1)) &&
           tool_write("current_tracer", "nop") == 0 &&
           tool_write("current_tracer", "function") == -ENODATA &&
           read_is("current_tracer", "nop");
    ok(good, "notrace: a filter entirely in notrace leaves nothing to trace: "
       "selecting function fails -ENODATA");
}

/* ---- Issue 13: error_log and enabled_functions ---- */

void t_error_log(void)
{
    char *log;
    bool good;

    boot(NCPUS, NF);
    log = tool_read("error_log");
    good = log && !*log;
    free(log);
    {
        long r1 = tool_write("set_function_filter",
                             "gfunc_002 no_such_fn gfunc_003");
        long r2 = tool_write("current_tracer", "functoin");
        long r3 = tool_write("set_function_notrace", "+nosite_fn");
        long r4 = tool_write_bool("tracing_on", 7);
        long r5 = tool_write("trace", "x");

        good &= r1 == -ENOENT && r2 == -EINVAL && r3 == -EPERM &&
                r4 == -EINVAL && r5 == -ENOSPC;
        if ( !good )
            diag("writes: %ld %ld %ld %ld %ld", r1, r2, r3, r4, r5);
    }
    log = tool_read("error_log");
    good &= log &&
            strstr(log, "] set_function_filter: 'no_such_fn': no such function") &&
            strstr(log, "] current_tracer: 'functoin': invalid value (-22)") &&
            strstr(log, "] set_function_notrace: '+nosite_fn': not traceable") &&
            strstr(log, "] tracing_on: '7': invalid value") &&
            strstr(log, "] trace: (2 bytes): longer than the file takes (-28)");
    if ( log && !good )
        diag("error_log: %s", log);
    free(log);
    ok(good, "error_log: empty at boot; each failed write names its file, "
       "the word that failed and why");

    good = tool_write("error_log", "") == 0;
    log = tool_read("error_log");
    good &= log && !*log;
    free(log);
    ok(good, "error_log: writing \"\" clears it");
}

/* Defect 10 (second review): -EDOM is a wrong size, said per file type. */
void t_error_log_sizes(void)
{
    const uint64_t kb = 64;
    const uint16_t depth = 2, on = 1;
    const uint8_t thresh = 1;
    long rc[4];
    char *log;
    bool good;

    boot(NCPUS, NF);
    rc[0] = tool_write_raw("buffer_size_kb", &kb, sizeof(kb));
    rc[1] = tool_write_raw("max_graph_depth", &depth, sizeof(depth));
    rc[2] = tool_write_raw("tracing_thresh", &thresh, sizeof(thresh));
    rc[3] = tool_write_raw("tracing_on", &on, sizeof(on));
    log = tool_read("error_log");
    good = rc[0] == -EDOM && rc[1] == -EDOM && rc[2] == -EDOM &&
           rc[3] == -EDOM && log &&
           strstr(log, "] buffer_size_kb: (8 bytes): not a 32-bit unsigned "
                       "integer (4 bytes) (-33)\n") &&
           strstr(log, "] max_graph_depth: (2 bytes): not a 32-bit unsigned "
                       "integer (4 bytes) (-33)\n") &&
           strstr(log, "] tracing_thresh: (1 bytes): not a 32-bit unsigned "
                       "integer (4 bytes) (-33)\n") &&
           strstr(log, "] tracing_on: (2 bytes): not a boolean (1 byte) "
                       "(-33)\n");
    if ( !good )
        diag("writes: %ld %ld %ld %ld; error_log:\n%s", rc[0], rc[1], rc[2],
             rc[3], log ? log : "(error)");
    free(log);
    ok(good, "error_log: a write of the wrong size says what the file takes: "
       "buffer_size_kb (8 bytes), max_graph_depth (2), tracing_thresh (1) "
       "not a 32-bit unsigned integer (4 bytes), tracing_on (2) not a "
       "boolean (1 byte), each -EDOM");
}

void t_enabled_functions(void)
{
    char *s;
    bool good;

    boot(NCPUS, NF);
    s = tool_read("enabled_functions");
    good = s && !*s;
    free(s);
    good &= start_tracing("gfunc_002 gfunc_006");
    s = tool_read("enabled_functions");
    good &= s && !strncmp(s, "gfunc_002 (1) ->function e8 ", 28) &&
            strstr(s, "\ngfunc_006 (1) ->function e8 ") &&
            strlen(s) == 2 * strlen("gfunc_002 (1) ->function e8 00 00 00 00\n");
    if ( s && !good )
        diag("enabled_functions: %s", s);
    free(s);
    ok(good, "enabled_functions: each patched entry with its tracer and its "
       "bytes (a CALL)");

    good = tool_write("current_tracer", "nop") == 0;
    s = tool_read("enabled_functions");
    good &= s && !*s;
    free(s);
    ok(good, "enabled_functions: empty once the entries are put back");
}

/* ---- Issue 13: the scope (set_domain_filter, tracing_cpumask, triggers) ---- */

/* One traced call of fn on cpu, made while v runs. */
static void call_as(unsigned int cpu, struct vcpu *v, unsigned int fn)
{
    struct stub_ctx ctx;

    stub_advance_to(stub_now_ns + 1000);
    ctx = stub_ctx_enter(cpu, v, true);
    stub_trampoline(img_addr(fn), img_addr(3) + 0x11);
    stub_ctx_restore(ctx);
}

/* Clear, then the calls of d1v0, d2v0, d2v1 (CPUs 0-2) and CPU 3's idle. */
static unsigned int entries_after_calls(void)
{
    struct trace_info ti;

    if ( tool_write("trace", "") )
        return ~0u;
    call_as(0, stub_guest_vcpu(1, 0), 2);
    call_as(1, stub_guest_vcpu(2, 0), 2);
    call_as(2, stub_guest_vcpu(2, 1), 2);
    call_as(3, stub_idle_vcpu(3), 2);

    return read_trace_info(&ti) ? ti.entries : ~0u;
}

void t_scope(void)
{
    static const struct {
        const char *file, *value;
        unsigned int entries;
        const char *readback;
    } cases[] = {
        { "set_domain_filter", "", 4, "" },
        { "set_domain_filter", "d2", 2, "d2" },
        { "set_domain_filter", "d2v1", 1, "d2v1" },
        { "set_domain_filter", "!d2", 2, "!d2" },
        { "set_domain_filter", "idle", 1, "idle" },
        { "set_domain_filter", " !d2v0\td2 idle d2 ", 2, "d2 idle !d2v0" },
        { "set_domain_filter", "", 4, "" },
        { "tracing_cpumask", "5", 2, "5" },
        { "tracing_cpumask", "0", 0, "0" },
        { "tracing_cpumask", "0000000f", 4, "f" },
    };
    unsigned int i, lp;
    bool good = true;
    char *s;

    boot(NCPUS, NF);
    /* The stubs' nr_cpu_ids is 8 (4 of them up). */
    good &= read_is("set_domain_filter", "") && read_is("tracing_cpumask", "ff");
    /* Nothing patched: installed at once, no rendezvous. */
    lp = stub_lp_calls;
    good &= tool_write("set_domain_filter", "d2") == 0 &&
            stub_lp_calls == lp && read_is("set_domain_filter", "d2");
    good &= start_tracing("gfunc_002");
    for ( i = 0; i < ARRAY_SIZE(cases); i++ )
    {
        unsigned int n;

        lp = stub_lp_calls;
        if ( tool_write(cases[i].file, cases[i].value) ||
             stub_lp_calls != lp + 1 )
        {
            diag("%s '%s' failed or took %u rendezvous", cases[i].file,
                 cases[i].value, stub_lp_calls - lp);
            good = false;
            continue;
        }
        n = entries_after_calls();
        if ( n != cases[i].entries ||
             !read_is(cases[i].file, cases[i].readback) )
        {
            diag("%s '%s': %u entries (expected %u)", cases[i].file,
                 cases[i].value, n, cases[i].entries);
            good = false;
        }
    }
    ok(good, "scope: set_domain_filter (dN, dNvM, !dN, idle) and "
       "tracing_cpumask record only the calls they select; while entries "
       "are patched each change takes one rendezvous");

    good = true;
    {
        static const struct {
            const char *file, *value;
            long rc;
        } bad[] = {
            { "set_domain_filter", "dx", -EINVAL },
            { "set_domain_filter", "d01", -EINVAL },
            { "set_domain_filter", "d32752", -EINVAL },
            { "set_domain_filter", "d1v65535", -EINVAL },
            { "set_domain_filter", "!", -EINVAL },
            { "set_domain_filter",
              "d1 d2 d3 d4 d5 d6 d7 d8 d9 d10 d11 d12 d13 d14 d15 d16 d17",
              -ENOSPC },
            { "tracing_cpumask", "100", -EINVAL },
            { "tracing_cpumask", "g", -EINVAL },
            { "tracing_cpumask", "1,", -EINVAL },
            { "tracing_cpumask", "1 1", -EINVAL },
            { "tracing_cpumask", "", -EINVAL },
        };

        good &= tool_write("set_domain_filter", "d2") == 0;
        for ( i = 0; i < ARRAY_SIZE(bad); i++ )
        {
            long rc = tool_write(bad[i].file, bad[i].value);

            if ( rc != bad[i].rc )
            {
                diag("%s '%s': %ld", bad[i].file, bad[i].value, rc);
                good = false;
            }
        }
        good &= read_is("set_domain_filter", "d2") &&
                read_is("tracing_cpumask", "f");
        if ( !good )
            diag("after the bad writes");
    }
    ok(good, "scope: malformed words and masks are refused and change "
       "nothing");

    /* Triggers. */
    good = tool_write("set_domain_filter", "") == 0 &&
           tool_write("set_function_filter", "gfunc_002 gfunc_003") == 0 &&
           tool_write("set_function_filter", "gfunc_004:traceoff:2") == 0 &&
           traced_exactly(fns(2, 3, 4, -1)) &&
           read_is("set_function_filter",
                   "gfunc_002\ngfunc_003\ngfunc_004:traceoff:count=2");
    ok(good, "triggers: a trigger's function is patched and reads back "
       "after the names");
    {
        unsigned int fired = 0, round;
        struct trace_info ti;

        for ( round = 0; round < 4; round++ )
        {
            uint8_t on = 1;

            good &= tool_write("trace", "") == 0 &&
                    tool_write_bool("tracing_on", 1) == 0;
            call_as(0, stub_guest_vcpu(1, 0), 2);
            call_as(1, stub_guest_vcpu(1, 1), 4);
            call_as(0, stub_guest_vcpu(1, 0), 3);
            s = tool_read("tracing_on");
            if ( s )
                on = s[0];
            free(s);
            good &= read_trace_info(&ti);
            if ( !on )
                fired++;
            good &= ti.entries == (on ? 3u : 2u);
        }
        good &= fired == 2 &&
                read_is("set_function_filter",
                        "gfunc_002\ngfunc_003\ngfunc_004:traceoff:count=0");
    }
    ok(good, "triggers: traceoff:2 stops recording at its function twice, "
       "then no more (the trace ends at it)");

    good = tool_write("set_function_filter", "!gfunc_004:traceoff") == 0 &&
           traced_exactly(fns(2, 3, -1)) &&
           read_is("set_function_filter", "gfunc_002\ngfunc_003") &&
           tool_write("set_function_filter", "gfunc_004:stacktrace") ==
               -EOPNOTSUPP &&
           tool_write("set_function_filter", "gfunc_004:bogus") == -EINVAL &&
           tool_write("set_function_filter", "gfunc_0*:traceon") == -EINVAL &&
           tool_write("set_function_filter", "!gfunc_004:traceon") ==
               -ENOENT &&
           read_is("set_function_filter", "gfunc_002\ngfunc_003");
    ok(good, "triggers: '!name:cmd' removes one; stacktrace, unknown "
       "commands, patterns and absent triggers are refused");

    good = tool_write("set_function_filter", "") == 0 &&
           tool_write("set_function_filter", "gfunc_004:traceon") == 0 &&
           read_is("set_function_filter", "gfunc_004:traceon:unlimited") &&
           tool_write("current_tracer", "functoin\n\x01\xff") == -EINVAL;
    s = tool_read("error_log");
    good &= s && strstr(s, "current_tracer: 'functoin\x3f\x3f\x3f': invalid value");
    if ( s && !good )
        diag("error_log: %s", s);
    free(s);
    ok(good, "triggers alone read back with their exact size; error_log "
       "shows control and non-ASCII bytes of a bad word as '?'");
}

/*
 * scope: a CPU coming online runs traced code before it has a current
 * (x86's __high_start calls xen_msr_s_cet_value() before start_secondary()
 * sets it).  With a domain rule set, the scope must not read current
 * there: it lets nothing through until the CPU is up for tracing (R8).
 */
static unsigned int early_calls;

static void early_traced_calls(unsigned int cpu)
{
    ASSERT(cpu == smp_processor_id() && !current);
    stub_trampoline(img_addr(2), img_addr(3) + 0x11);
    stub_trampoline(img_addr(4), img_addr(3) + 0x11);
    early_calls += 2;
}

void t_scope_cpu_not_ready(void)
{
    static const struct {
        const char *filter, *cpumask;
        unsigned int entries;   /* of an idle call and a d2v0 call, once up */
    } scopes[] = {
        { "d2", "ff", 1 },      /* whole domains, every CPU: one bit */
        { "!d0v1", "ff", 2 },   /* a vCPU: the rules */
        { "idle", "7f", 1 },    /* whole domains, some CPUs */
    };
    unsigned int i;
    bool good = true;
    struct trace_info ti;

    boot(NCPUS, NF);
    good &= start_tracing("gfunc_002 gfunc_004");
    for ( i = 0; i < ARRAY_SIZE(scopes); i++ )
    {
        /* A CPU present at boot but not brought up, then brought up. */
        unsigned int cpu = NCPUS + i, calls = early_calls;

        good &= tool_write("set_domain_filter", scopes[i].filter) == 0 &&
                tool_write("tracing_cpumask", scopes[i].cpumask) == 0 &&
                tool_write("trace", "") == 0;
        cpumask_set_cpu(cpu, &cpu_present_map);
        stub_cpu_early_fn = early_traced_calls;
        stub_cpu_up(cpu);
        stub_cpu_early_fn = NULL;
        good &= early_calls == calls + 2 && cpu_online(cpu);
        /* Nothing recorded there; once up, its calls are scoped. */
        good &= read_trace_info(&ti) && ti.entries == 0;
        call_as(cpu, stub_idle_vcpu(cpu), 2);
        call_as(cpu, stub_guest_vcpu(2, 0), 4);
        if ( !read_trace_info(&ti) || ti.entries != scopes[i].entries )
        {
            diag("'%s' on %s: %llu entries (expected %u)", scopes[i].filter,
                 scopes[i].cpumask, (unsigned long long)ti.entries,
                 scopes[i].entries);
            good = false;
        }
    }
    ok(good, "scope: a CPU coming online runs traced functions before it "
       "has a current while domain rules are set; nothing reads current "
       "there, nothing is recorded, then its calls are scoped as usual");
}

/* A parked CPU's traced calls, as its idle vCPU (x86's dead_idle()). */
static unsigned int parked_calls;

static void parked_traced_calls(unsigned int cpu)
{
    ASSERT(cpu == smp_processor_id() && current == stub_idle_vcpu(cpu));
    stub_trampoline(img_addr(2), img_addr(3) + 0x11);
    stub_trampoline(img_addr(4), img_addr(3) + 0x11);
    parked_calls += 2;
}

/*
 * A CPU taken down, then woken while parked, runs traced functions with
 * domain rules set (idle included): nothing is recorded there (it is not
 * up for tracing), the one-bit path comes back once it is dead (S0:
 * dt_scope_slow 0), other CPUs' calls are scoped meanwhile, and its own
 * once it is back.
 */
void t_scope_cpu_parked(void)
{
    unsigned int cpu = 1;
    bool good = true;
    struct trace_info ti;

    boot(NCPUS, NF);
    good &= start_tracing("gfunc_002 gfunc_004") &&
            tool_write("set_domain_filter", "d2 idle") == 0;
    good &= !atomic_read(&dt_scope_slow);
    stub_cpu_dead_fn = parked_traced_calls;
    parked_calls = 0;
    stub_cpu_down(cpu);
    stub_cpu_dead_fn = NULL;
    good &= parked_calls == 2 && !cpu_online(cpu) &&
            !atomic_read(&dt_scope_slow);
    good &= read_trace_info(&ti) && ti.entries == 0;
    call_as(0, stub_guest_vcpu(2, 0), 4);
    call_as(0, stub_guest_vcpu(3, 0), 4);
    good &= read_trace_info(&ti) && ti.entries == 1;
    stub_cpu_up(cpu);
    good &= !atomic_read(&dt_scope_slow);
    call_as(cpu, stub_guest_vcpu(2, 1), 2);
    good &= read_trace_info(&ti) && ti.entries == 2;
    ok(good, "scope: a parked CPU woken runs traced functions while domain "
       "rules are set: nothing recorded there; the one-bit path is back "
       "once it is dead and once it is up; the others' calls and its own "
       "once back are scoped");
}

/*
 * The trampolines' calls follow the active callbacks, rewritten in the
 * rendezvous: the function tracer's fast entry alone (no fast return), the
 * dispatcher's once the profiler runs beside it, the profiler's entry and
 * return when it runs alone, the dispatcher's when nothing is traced.
 */
void t_fast_targets(void)
{
    const void *fn_entry;
    bool good = true;

    boot(NCPUS, NF);
    good &= start_tracing("gfunc_002") && stub_fast_entry &&
            !stub_fast_return;
    fn_entry = stub_fast_entry;
    good &= tool_write_bool("function_profile_enabled", 1) == 0 &&
            !stub_fast_entry && !stub_fast_return;
    good &= tool_write("current_tracer", "nop") == 0 && stub_fast_entry &&
            stub_fast_entry != fn_entry && stub_fast_return;
    good &= tool_write_bool("function_profile_enabled", 0) == 0 &&
            !stub_fast_entry && !stub_fast_return;
    good &= tool_write("current_tracer", "function") == 0 &&
            stub_fast_entry == fn_entry && !stub_fast_return;
    ok(good, "fast entries: the trampolines call the function tracer's "
       "entry while it runs alone, the dispatcher beside the profiler, the "
       "profiler's entry and return alone, the dispatcher with nothing "
       "traced (%u rewrites)", stub_set_fast_calls);
}

/* ---- Issue 14: buffer_size_kb, buffer_total_size_kb ---- */

static uint32_t read_kb(const char *leaf)
{
    char path[64];
    uint32_t kb = 0;
    unsigned int len;

    snprintf(path, sizeof(path), "/tracing/%s", leaf);
    if ( hyp_read(path, &kb, sizeof(kb), &len) || len != sizeof(kb) )
        return 0;

    return kb;
}

static bool trace_is(unsigned long long entries, unsigned long long written)
{
    struct trace_info ti;
    char *s = tool_read("trace");
    unsigned long bad = 0;
    bool good;

    if ( !s )
        return false;
    parse_trace(s, &ti);
    good = ti.header_ok && !ti.bad_lines && ti.entries == entries &&
           ti.written == written && ti.lines == entries &&
           (!entries || (ti.sorted && names_match(s, &bad)));
    if ( !good )
        diag("trace: entries %llu/%llu lines %lu bad %lu header %d sorted %d "
             "(expected %llu/%llu)", ti.entries, ti.written, ti.lines,
             ti.bad_lines, ti.header_ok, ti.sorted, entries, written);
    free(s);

    return good;
}

void t_buffer_size(void)
{
    unsigned int i, k;
    bool good, refused;
    const uint16_t two = 1;

    boot(NCPUS, NF);
    ok(read_kb("buffer_size_kb") == 64 &&
       read_kb("buffer_total_size_kb") == 64 * NCPUS,
       "buffer_size_kb: 64 KiB per CPU at boot, buffer_total_size_kb %u",
       64 * NCPUS);

    good = start_tracing("gfunc_002");
    for ( i = 0; i < 100; i++ )
        record(0, 2, 3, stub_now_ns + 1000);
    good &= trace_is(100, 100);
    refused = tool_write_u32("buffer_size_kb", 0) == -EINVAL &&
              tool_write_u32("buffer_size_kb", 65537) == -EINVAL &&
              tool_write_raw("buffer_size_kb", &two, sizeof(two)) == -EDOM;
    good &= refused && read_kb("buffer_size_kb") == 64 && trace_is(100, 100);
    ok(good, "buffer_size_kb: 0, 65537 and a 2-byte write are refused "
       "(EINVAL, EINVAL, EDOM) and change nothing: the 100 records stay");

    good = tool_write_u32("buffer_size_kb", 1) == 0 &&
           read_kb("buffer_size_kb") == 1 &&
           read_kb("buffer_total_size_kb") == NCPUS && trace_is(0, 0);
    for ( i = 0; i < 100; i++ )
        record(0, 2, 3, stub_now_ns + 1000);
    good &= trace_is(32, 100);
    good &= tool_write_u32("buffer_size_kb", 3) == 0 &&
            read_kb("buffer_size_kb") == 4;
    ok(good, "buffer_size_kb: a resize empties the buffers; 1 KiB keeps the "
       "newest 32 records of 100; 3 KiB rounds up to 4 (128 records)");

    /* An allocation failure at each allocation of a resize: all or nothing. */
    for ( i = 0; i < 50; i++ )
        record(1, 2, 3, stub_now_ns + 1000);
    good = trace_is(50, 50);
    for ( k = 1; k <= NCPUS + 1; k++ )
    {
        long rc;

        stub_alloc_fail_in = k;
        rc = tool_write_u32("buffer_size_kb", 16);
        stub_alloc_fail_in = 0;
        good &= rc == -ENOMEM && read_kb("buffer_size_kb") == 4 &&
                trace_is(50, 50);
    }
    good &= !stub_anomalies && tool_write_u32("buffer_size_kb", 16) == 0 &&
            read_kb("buffer_size_kb") == 16 && trace_is(0, 0);
    for ( i = 0; i < 600; i++ )
        record(i % NCPUS, 2, 3, stub_now_ns + 1000);
    good &= trace_is(NCPUS * 512 < 600 ? NCPUS * 512 : 600, 600);
    ok(good, "buffer_size_kb: an allocation failure at each of a resize's "
       "%u allocations leaves size and records as they were (ENOMEM); "
       "16 KiB then holds 600 records on %u CPUs", NCPUS + 1, NCPUS);
}

/* ---- Issue 14: trace_pipe, the consuming read ---- */

struct pipe_read {
    unsigned long lines;            /* record lines */
    unsigned long long lost;        /* the sum of its [LOST N EVENTS] */
    unsigned long lost_lines, bad;  /* LOST lines; lines of neither form */
    bool sorted, names;             /* by time; names match the records */
};

/* One read of trace_pipe as the tool does it; false if it failed. */
static bool read_pipe(struct pipe_read *pr)
{
    char *s = tool_read("trace_pipe"), *p;
    struct trace_info ti;
    unsigned long bad = 0;

    memset(pr, 0, sizeof(*pr));
    if ( !s )
        return false;
    parse_trace(s, &ti);
    for ( p = s; (p = strstr(p, "[LOST ")); p++ )
    {
        unsigned long long n;
        unsigned int cpu;
        const char *bol = p;

        while ( bol > s && bol[-1] != '\n' )
            bol--;
        if ( sscanf(bol, "CPU:%u [LOST %llu EVENTS]", &cpu, &n) == 2 )
        {
            pr->lost += n;
            pr->lost_lines++;
        }
    }
    pr->lines = ti.lines;
    pr->bad = ti.bad_lines - pr->lost_lines;
    pr->sorted = ti.sorted;
    pr->names = !ti.lines || names_match(s, &bad);
    if ( strstr(s, "# tracer") )
        pr->bad++;
    free(s);

    return true;
}

static bool pipe_is(unsigned long lines, unsigned long long lost)
{
    struct pipe_read pr;
    bool good = read_pipe(&pr) && pr.lines == lines && pr.lost == lost &&
                !pr.bad && pr.sorted && pr.names;

    if ( !good )
        diag("trace_pipe: %lu lines, lost %llu in %lu lines, %lu bad, "
             "sorted %d, names %d (expected %lu lines, lost %llu)",
             pr.lines, pr.lost, pr.lost_lines, pr.bad, pr.sorted, pr.names,
             lines, lost);

    return good;
}

void t_trace_pipe(void)
{
    unsigned int i, len = 0;
    bool good;
    char small[16];

    boot(NCPUS, NF);
    good = start_tracing("gfunc_002") && pipe_is(0, 0);
    for ( i = 0; i < 150; i++ )
        record(i % 3 ? 0 : 1, 2, 3, stub_now_ns + 1000);
    ok(good && trace_is(150, 150),
       "trace_pipe: empty at first; 150 records on 2 CPUs are in trace");

    /* A probe (HypFS's ENOBUFS round trip) consumes nothing. */
    good = hyp_read("/tracing/trace_pipe", small, sizeof(small), &len) ==
           -ENOBUFS && len > sizeof(small) && trace_is(150, 150);
    good &= hyp_read("/tracing/trace_pipe", small, sizeof(small), &len) ==
            -ENOBUFS && trace_is(150, 150);
    ok(good, "trace_pipe: reads with a buffer too small (ENOBUFS, size %u) "
       "consume nothing: trace still holds 150", len);

    good = pipe_is(150, 0) && trace_is(0, 150) && pipe_is(0, 0);
    ok(good, "trace_pipe: a read returns the 150 records once, in time "
       "order, without a header; trace then holds 0 of 150 written; the "
       "next read is empty");

    for ( i = 0; i < 1500; i++ )
        record(i % 2, 2, 3, stub_now_ns + 1000);
    good = pipe_is(1024, 0) && trace_is(476, 1650) && pipe_is(476, 0) &&
           pipe_is(0, 0);
    ok(good, "trace_pipe: 1500 new records come as 1024 (a read's most), "
       "then 476, then nothing");

    /* Overwritten before being read: reported in-band, once. */
    good = tool_write_u32("buffer_size_kb", 1) == 0;
    for ( i = 0; i < 100; i++ )
        record(0, 2, 3, stub_now_ns + 1000);
    for ( i = 0; i < 10; i++ )
        record(1, 2, 3, stub_now_ns + 1000);
    good &= pipe_is(42, 68) && pipe_is(0, 0);
    ok(good, "trace_pipe: 100 records into a 32-record buffer: 32 returned "
       "and [LOST 68 EVENTS] (plus 10 of the other CPU), then nothing");

    /*
     * A cached snapshot (a probe's) is not served once another read
     * consumed or a clear emptied the buffers: no record twice.
     */
    for ( i = 0; i < 20; i++ )
        record(0, 2, 3, stub_now_ns + 1000);
    good = hyp_read("/tracing/trace_pipe", small, sizeof(small), &len) ==
           -ENOBUFS && pipe_is(20, 0);
    good &= hyp_read("/tracing/trace_pipe", small, sizeof(small), &len) ==
            0 && len == 1;
    for ( i = 0; i < 20; i++ )
        record(1, 2, 3, stub_now_ns + 1000);
    good &= hyp_read("/tracing/trace_pipe", small, sizeof(small), &len) ==
            -ENOBUFS && tool_write("trace", "") == 0 && pipe_is(0, 0);
    for ( i = 0; i < 5; i++ )
        record(1, 2, 3, stub_now_ns + 1000);
    good &= pipe_is(5, 0) && trace_is(0, 5);
    ok(good, "trace_pipe: a probe's snapshot is not served after another "
       "read consumed it, nor after a clear");
}

/* ---- Issue 14: per_cpu/cpuN/ ---- */

/* The names a directory lists, space-separated (malloc'd), or NULL. */
static char *list_dir(const char *path)
{
    unsigned int len = 0, off = 0;
    char *buf = malloc(4096), *names = calloc(1, 4096);
    int rc = hyp_read(path, buf, 4096, &len);

    if ( rc )
    {
        free(buf);
        free(names);
        return NULL;
    }
    /*
     * Entries need not be aligned: Xen's are offsetof(name) plus the name
     * rounded up to 4 bytes apart, and offsetof(name) is 14 in Xen's
     * public/hypfs.h.  So each is copied out before it is looked at.
     */
    for ( ;; )
    {
        struct xen_hypfs_dirlistentry de;
        const char *name = buf + off + offsetof(struct xen_hypfs_dirlistentry,
                                                name);

        memcpy(&de, buf + off, sizeof(de));
        strcat(names, *names ? " " : "");
        strcat(names, name);
        if ( !de.off_next )
            break;
        off += de.off_next;
    }
    free(buf);

    return names;
}

/* A value of per_cpu/cpuN/stats, or ~0 if absent. */
static unsigned long long stat_of(const char *stats, const char *name)
{
    const char *p = strstr(stats, name);
    unsigned long long v;

    if ( !p || p[strlen(name)] != ':' ||
         sscanf(p + strlen(name) + 1, "%llu", &v) != 1 )
        return ~0ULL;

    return v;
}

/* The length of a raw read of n records. */
#define RAW_LEN(n) (sizeof(struct xen_dyntrace_raw_header) + \
                    (n) * sizeof(struct xen_dyntrace_record))

/* One read of per_cpu/cpuN/trace_pipe_raw: its header; -1 if malformed. */
static int read_raw(unsigned int cpu, struct xen_dyntrace_raw_header *h, unsigned int cap)
{
    char path[64];
    unsigned int len = 0, i;
    uint8_t *buf = malloc(cap);
    int rc;

    snprintf(path, sizeof(path), "/tracing/per_cpu/cpu%u/trace_pipe_raw",
             cpu);
    rc = hyp_read(path, buf, cap, &len);
    if ( rc )
    {
        free(buf);
        return rc;
    }
    memcpy(h, buf, sizeof(*h));
    rc = h->magic == XEN_DYNTRACE_RAW_MAGIC &&
         h->version == XEN_DYNTRACE_RAW_VERSION &&
         h->header_size == sizeof(*h) &&
         h->record_size == sizeof(struct xen_dyntrace_record) &&
         h->cpu == cpu && len == sizeof(*h) + h->nr * h->record_size ? 0 : -1;
    for ( i = 0; !rc && i < h->nr; i++ )
    {
        struct xen_dyntrace_record r;

        memcpy(&r, buf + sizeof(*h) + i * sizeof(r), sizeof(r));
        if ( r.cpu != cpu || r.ip != img_addr(2) || !r.ts ||
             (r.flags & XEN_DYNTRACE_FLAG_RAW_TS) )
            rc = -1;
    }
    free(buf);

    return rc;
}

void t_per_cpu(void)
{
    unsigned long long e = 0, t = 0;
    struct xen_dyntrace_raw_header h;
    struct trace_info ti;
    unsigned int i, cpu, len;
    char *s;
    bool good;

    boot(NCPUS, NF);
    s = list_dir("/tracing/per_cpu");
    good = s && !strcmp(s, "cpu0 cpu1 cpu2 cpu3");
    diag("per_cpu lists: %s", s ? s : "(error)");
    free(s);
    s = list_dir("/tracing/per_cpu/cpu2");
    good &= s && !strcmp(s, "stats trace trace_pipe trace_pipe_raw");
    free(s);
    good &= hyp_read("/tracing/per_cpu/cpu4/stats", NULL, 0, &len) ==
            -ENOENT &&
            hyp_read("/tracing/per_cpu/cpu01/stats", NULL, 0, &len) ==
            -ENOENT &&
            hyp_read("/tracing/per_cpu/cpux/stats", NULL, 0, &len) ==
            -ENOENT &&
            hyp_read("/tracing/per_cpu/cpu", NULL, 0, &len) == -ENOENT;
    ok(good, "per_cpu: lists cpu0..cpu3, each with stats, trace, trace_pipe "
       "and trace_pipe_raw; cpu4, cpu01, cpux and cpu are ENOENT");

    good = start_tracing("gfunc_002");
    for ( i = 0; i < 200; i++ )
        record(i % 4 == 3 ? 3 : i % 2, 2, 3, stub_now_ns + 1000);
    s = tool_read("per_cpu/cpu1/trace");
    parse_trace(s ? s : "", &ti);
    good &= s && ti.header_ok && ti.entries == 50 && ti.written == 50 &&
            ti.lines == 50 && !ti.bad_lines && strstr(s, "[001]") &&
            !strstr(s, "[000]") && !strstr(s, "[003]");
    free(s);
    ok(good, "per_cpu/cpu1/trace: only CPU1's 50 of 200 records, with its "
       "own header (50/50)");

    /* Consume some of CPU0's, overwrite CPU3's: stats add up to E/T. */
    good = read_raw(0, &h, RAW_LEN(40)) == -ENOBUFS;
    good &= read_raw(0, &h, RAW_LEN(128)) == 0 && h.nr == 100 &&
            h.lost == 0 && h.left == 0;
    good &= read_raw(0, &h, 64) == 0 && h.nr == 0;
    ok(good, "per_cpu/cpu0/trace_pipe_raw: a too small buffer gets ENOBUFS "
       "and consumes nothing; then the 100 records (header v1, 32-byte "
       "records of CPU0), then none");

    good = tool_write_u32("buffer_size_kb", 1) == 0;
    for ( i = 0; i < 100; i++ )
        record(3, 2, 3, stub_now_ns + 1000);
    for ( i = 0; i < 10; i++ )
        record(0, 2, 3, stub_now_ns + 1000);
    good &= read_raw(0, &h, RAW_LEN(4)) == -ENOBUFS;
    good &= read_raw(3, &h, RAW_LEN(40)) == 0 && h.nr == 32 &&
            h.lost == 68 && read_raw(3, &h, 64) == 0 && !h.nr && !h.lost;
    for ( i = 0; i < 5; i++ )
        record(3, 2, 3, stub_now_ns + 1000);
    for ( cpu = 0; cpu < NCPUS; cpu++ )
    {
        char path[64];

        snprintf(path, sizeof(path), "per_cpu/cpu%u/stats", cpu);
        s = tool_read(path);
        if ( !s )
        {
            good = false;
            continue;
        }
        e += stat_of(s, "entries");
        t += stat_of(s, "written") + stat_of(s, "dropped events");
        if ( cpu == 3 )
        {
            good &= stat_of(s, "entries") == 5 &&
                    stat_of(s, "overrun") == 68 &&
                    stat_of(s, "read events") == 32 &&
                    stat_of(s, "written") == 105 &&
                    stat_of(s, "dropped events") == 0 &&
                    stat_of(s, "dropped nested") == 0 &&
                    stat_of(s, "dropped held") == 0 &&
                    stat_of(s, "bytes") == 5 * sizeof(struct xen_dyntrace_record);
        }
        free(s);
    }
    good &= read_trace_info(&ti) && ti.entries == e && ti.written == t &&
            e == 15 && t == 115;
    ok(good, "per_cpu/cpuN/stats: CPU3 after 105 records into 32 slots and "
       "one raw read of 32: entries 5, overrun 68, read events 32; the CPUs' "
       "entries and written + dropped add up to trace's header (%llu/%llu)",
       e, t);
}

/* ---- Issue 14: available_functions_addrs ---- */

void t_functions_addrs(void)
{
    char *addrs, *names, *p, *q;
    unsigned int n = 0, match = 0;

    boot(NCPUS, NF);
    addrs = tool_read("available_functions_addrs");
    names = tool_read("available_functions");
    /* Line by line: "%016lx NAME", NAME as available_functions has it. */
    for ( p = addrs, q = names; p && q && *p; n++ )
    {
        unsigned long addr;
        char name[128], want[128];
        int len;

        if ( sscanf(p, "%lx %127s", &addr, name) != 2 ||
             sscanf(q, "%127s", want) != 1 )
            break;
        if ( !strcmp(name, want) && p[16] == ' ' )
            match++;
        if ( !strcmp(name, "gfunc_002") && addr != img_addr(2) )
            match = 0;
        len = strcspn(p, "\n");
        p += len + (p[len] == '\n');
        q += strcspn(q, "\n");
        q += *q == '\n';
    }
    ok(addrs && names && n == match && n >= NF && !*p,
       "available_functions_addrs: %u lines, each the patch site (the "
       "address records carry: gfunc_002 at img_addr(2)) and the name of "
       "available_functions' line", n);
    free(addrs);
    free(names);
}
