/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The profiler's tests: profile.c with return.c.  A call comes through the
 * dispatcher with the address of its return slot, as the x86 trampoline
 * passes it (a slot of a simulated stack per CPU, outer calls higher, R1);
 * it returns through dyntrace_return(), as the return trampoline does, or
 * is abandoned by x86's context switch, which sets current to the next vCPU
 * and then resets the stack (dyntrace_stack_reset(), R7).  What counts is
 * what trace_stat/ shows.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/dyntrace.h>
#include <xen/sched.h>
#include <xen/time.h>

#include "unit.h"

#define NF    64                /* functions of the fake image */
#define NCPUS 4

/* Filter, then the profiler on: each must succeed. */
static bool profile_on(const char *filter)
{
    long r1 = tool_write("set_function_filter", filter);
    long r2 = tool_write_bool("function_profile_enabled", 1);

    if ( r1 || r2 )
        diag("profile_on(\"%s\"): %ld %ld", filter, r1, r2);

    return !r1 && !r2;
}

/*
 * x86's context switch on cpu to next, IRQs off: current is next's, then
 * the stack is reset and every return pending on it dropped (R7).
 */
static void switch_to(unsigned int cpu, struct vcpu *next)
{
    struct stub_ctx ctx = stub_ctx_enter(cpu, next, false);

    dyntrace_stack_reset();
    stub_ctx_restore(ctx);
}

/* One row of trace_stat/ as read. */
struct stat_row {
    char dom[16], fn[48];
    unsigned long long hits;
    char time[32], avg[32], s2[32];
};

/*
 * The row of (dom, fn) in text (dom NULL: function<N>, no domain column);
 * false if there is none.
 */
static bool find_row(const char *text, const char *dom, const char *fn,
                     struct stat_row *r)
{
    const char *p;

    for ( p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL )
    {
        char line[256], t1[16], t2[16], t3[16];
        const char *eol = strchrnul(p, '\n');
        int n;

        if ( *p == '#' || eol - p >= (long)sizeof(line) )
            continue;
        memcpy(line, p, eol - p);
        line[eol - p] = '\0';
        memset(r, 0, sizeof(*r));
        if ( dom )
            n = sscanf(line, "%15s %47s %llu %31s %15s %31s %15s %31s %15s",
                       r->dom, r->fn, &r->hits, r->time, t1, r->avg, t2, r->s2,
                       t3);
        else
            n = sscanf(line, "%47s %llu %31s %15s %31s %15s %31s %15s",
                       r->fn, &r->hits, r->time, t1, r->avg, t2, r->s2, t3) + 1;
        if ( n < 3 || (dom && strcmp(r->dom, dom)) || strcmp(r->fn, fn) )
            continue;

        return true;
    }

    return false;
}

/* The hits of (dom, fn) in text, -1 if it has no row. */
static long long row_hits(const char *text, const char *dom, const char *fn)
{
    struct stat_row r;

    return find_row(text, dom, fn, &r) ? (long long)r.hits : -1;
}

/* ---- Defect 4: the domain an abandoned call is counted under ---- */

void t_profile_abandoned(void)
{
    struct vcpu *d1 = stub_guest_vcpu(1, 0), *d2 = stub_guest_vcpu(2, 0);
    const char *f2, *f3;
    char *dom, *cpu2;
    bool good;

    boot(NCPUS, NF);
    f2 = img_name(2);
    f3 = img_name(3);
    good = profile_on("gfunc_002 gfunc_003");

    /* d1 calls f2 on CPU 2; the scheduler switches to d2 meanwhile. */
    good &= unit_call_at(2, d1, 2, UNIT_SLOT(2, 0));
    switch_to(2, d2);
    /* The idle vCPU calls f3 on CPU 3; the scheduler switches to d1. */
    good &= unit_call_at(3, stub_idle_vcpu(3), 3, UNIT_SLOT(3, 0));
    switch_to(3, stub_guest_vcpu(1, 1));

    dom = tool_read("trace_stat/domains");
    cpu2 = tool_read("trace_stat/function2");
    good &= dom && cpu2;
    if ( good )
    {
        long long d1f2 = row_hits(dom, "d1", f2), d2f2 = row_hits(dom, "d2", f2);
        long long idf3 = row_hits(dom, "<idle>", f3);
        long long d1f3 = row_hits(dom, "d1", f3);

        good = d1f2 == 1 && d2f2 == -1 && idf3 == 1 && d1f3 == -1 &&
               row_hits(cpu2, NULL, f2) == 1;
        if ( !good )
            diag("hits (-1: no row): d1 %s %lld, d2 %s %lld, <idle> %s %lld, "
                 "d1 %s %lld\n%s", f2, d1f2, f2, d2f2, f3, idf3, f3, d1f3, dom);
    }
    ok(good, "profile: an abandoned call is counted under the domain that made "
       "it, not the vCPU switched to before the stack reset drops it (R7): "
       "d1's call under d1 with d2 current, idle's under <idle> with d1 "
       "current");
    free(dom);
    free(cpu2);
}

void t_profile_returned(void)
{
    struct vcpu *d3 = stub_guest_vcpu(3, 0);
    const char *f2, *f3;
    struct stat_row outer, inner;
    char *dom;
    bool good;

    boot(NCPUS, NF);
    f2 = img_name(2);
    f3 = img_name(3);
    good = profile_on("gfunc_002 gfunc_003");

    /*
     * d3 calls f2, which calls f3 (5 us) and is abandoned 2 us later by
     * a switch to the idle vCPU.
     */
    good &= unit_call_at(1, d3, 2, UNIT_SLOT(1, 0));
    stub_advance_to(stub_now_ns + 1000);
    good &= unit_call_at(1, d3, 3, UNIT_SLOT(1, 1));
    stub_advance_to(stub_now_ns + 5000);
    good &= unit_return_at(1, d3, 3, UNIT_SLOT(1, 1));
    stub_advance_to(stub_now_ns + 2000);
    switch_to(1, stub_idle_vcpu(1));

    dom = tool_read("trace_stat/domains");
    good &= dom && find_row(dom, "d3", f3, &inner) &&
            find_row(dom, "d3", f2, &outer) &&
            row_hits(dom, "<idle>", f2) == -1;
    good &= inner.hits == 1 && !strcmp(inner.time, "5.000") &&
            outer.hits == 1 && !strcmp(outer.time, "0.000") &&
            strstr(dom, "timed: 1 of 2 calls");
    if ( !good )
        diag("%s", dom ? dom : "(no trace_stat/domains)");
    ok(good, "profile: a call that returned is counted with its time (5 us), "
       "its caller abandoned by a switch to idle with its hit alone, both "
       "under the domain that made them");
    free(dom);
}

/*
 * A call of fn on cpu by v that returns after ns (the clock moved on as
 * much meanwhile); true if it was hooked and got its return address back.
 */
static bool timed_call(unsigned int cpu, struct vcpu *v, unsigned int fn,
                       s_time_t ns)
{
    bool good = unit_call_at(cpu, v, fn, UNIT_SLOT(cpu, 0));

    stub_advance_to(stub_now_ns + ns);

    return unit_return_at(cpu, v, fn, UNIT_SLOT(cpu, 0)) && good;
}

/* ---- Defect 9: trace_stat/domains past a table's worth of pairs ---- */

#define TRIM_CPUS  8            /* NR_CPUS of the functional builds */
#define TRIM_DOMS  5            /* domains on each of CPUs 0-6 */
#define TRIM_FNS   IMG_MAX_FUNCS

/* The rows of text whose domain column is dom (NULL: every row). */
static unsigned int count_rows(const char *text, const char *dom)
{
    const char *p;
    unsigned int n = 0;

    for ( p = text; *p; p = *p ? p + 1 : p )
    {
        char d[16];

        if ( *p != '#' && *p != ' ' )
            break;
        if ( *p == ' ' && sscanf(p, "%15s", d) == 1 && strcmp(d, "Domain") &&
             strcmp(d, "------") && (!dom || !strcmp(d, dom)) )
            n++;
        p = strchrnul(p, '\n');
    }

    return n;
}

void t_profile_trim(void)
{
    static struct domain doms[7 * TRIM_DOMS];
    static struct vcpu vcpus[7 * TRIM_DOMS];
    unsigned int cpu, d, f, k, idle_ok = 0;
    struct stat_row r;
    char *text, name[16];
    bool good;

    boot(TRIM_CPUS, TRIM_FNS);
    good = profile_on("*");
    /*
     * CPUs 0-6: domains 5c+1 to 5c+5 call each function once, pair k (of
     * 4480) lasting 100 + k ns.  CPU 0's idle vCPU calls function 0 for
     * 1 ns: the cheapest pair once CPU 6's table makes the pairs more than
     * 4096.  CPU 7's idle vCPU calls each function for 1 ms: 128 pairs
     * costlier than any other (function 0's with CPU 0's call too).
     */
    for ( d = 0; d < 7 * TRIM_DOMS; d++ )
    {
        doms[d].domain_id = d + 1;
        vcpus[d].domain = &doms[d];
        cpu = d / TRIM_DOMS;
        for ( f = 0; f < TRIM_FNS; f++ )
            good &= timed_call(cpu, &vcpus[d], f, 100 + d * TRIM_FNS + f);
    }
    good &= timed_call(0, stub_idle_vcpu(0), 0, 1);
    for ( f = 0; f < TRIM_FNS; f++ )
        good &= timed_call(7, stub_idle_vcpu(7), f, 1000000);
    ok(good, "profile: 4609 timed calls of 4609 pairs on 8 CPUs");

    text = tool_read("trace_stat/domains");
    good = text && strstr(text, "hits missed (table full): 0, ");
    for ( f = 0; text && f < TRIM_FNS; f++ )
        idle_ok += find_row(text, "<idle>", img_name(f), &r) &&
                   r.hits == (f ? 1 : 2) &&
                   !strcmp(r.time, f ? "1000.000" : "1000.001");
    good &= idle_ok == TRIM_FNS;
    ok(good, "profile: trace_stat/domains past 4096 pairs keeps the costliest: "
       "idle's 128 (id 32767) all shown (%u), function 0's with the hit and "
       "the 1 ns of the CPU whose table was cut before (2 hits, 1000.001 us)",
       idle_ok);
    if ( !good && text )
        diag("%.600s", text);

    /* Cut: the 512 cheapest domain pairs (612 ns the cheapest kept). */
    good = text && count_rows(text, NULL) == 4096 &&
           count_rows(text, "<idle>") == TRIM_FNS &&
           strstr(text, "pairs past 4096 not shown (the cheapest), their "
                  "hits: 512, ");
    for ( k = 511; good && k <= 512; k++ )
    {
        snprintf(name, sizeof(name), "d%u", k / TRIM_FNS + 1);
        good = find_row(text, name, img_name(k % TRIM_FNS), &r) == (k == 512);
        if ( !good )
            diag("pair %u (%s %s, %u ns): %s", k, name,
                 img_name(k % TRIM_FNS), 100 + k,
                 k == 512 ? "not shown" : "shown");
    }
    ok(good, "profile: the pairs cut are the 512 cheapest by Time, whatever "
       "their domain, and the header gives their hits (not as missed)");
    free(text);
}

/* ---- Defect 9: s^2 of long calls ---- */

void t_profile_variance(void)
{
    struct vcpu *d1 = stub_guest_vcpu(1, 0);
    struct stat_row r;
    char *dom, *cpu1;
    bool good;

    boot(NCPUS, NF);
    good = profile_on("gfunc_002");
    /*
     * d1's calls of 1, 6 (CPU 1), 2 and 3 s (CPU 2): their squares sum to
     * 5 * 10^19 ns^2, past 2^64 (6 s alone squares past it); on CPU 1,
     * 3.7 * 10^19.  s^2 = ((2 s)^2 + (1 s)^2 + 0 + (3 s)^2) / 3 =
     * 4.666... 10^18 ns^2; CPU 1's: 2 * (2.5 s)^2 / 1 = 1.25 * 10^19 ns^2.
     */
    good &= timed_call(1, d1, 2, SECONDS(1)) &&
            timed_call(1, d1, 2, SECONDS(6)) &&
            timed_call(2, d1, 2, SECONDS(2)) &&
            timed_call(2, d1, 2, SECONDS(3));
    dom = tool_read("trace_stat/domains");
    cpu1 = tool_read("trace_stat/function1");
    good &= dom && cpu1 && find_row(dom, "d1", img_name(2), &r) &&
            r.hits == 4 && !strcmp(r.time, "12000000.000") &&
            !strcmp(r.avg, "3000000.000") &&
            !strcmp(r.s2, "4666666666666.666");
    if ( good )
        diag("d1 %s: %llu hits, %s us, avg %s us, s^2 %s us^2", img_name(2),
             r.hits, r.time, r.avg, r.s2);
    else
        diag("%s", dom ? dom : "(no trace_stat/domains)");
    ok(good, "profile: s^2 of calls of 1, 6, 2 and 3 s on 2 CPUs (squares "
       "past 2^64): 4666666666666.666 us^2, exact");
    good = cpu1 && find_row(cpu1, NULL, img_name(2), &r) && r.hits == 2 &&
           !strcmp(r.s2, "12500000000000.000");
    if ( !good )
        diag("%s", cpu1 ? cpu1 : "(no trace_stat/function1)");
    ok(good, "profile: function1's s^2 of its 1 and 6 s calls: "
       "12500000000000.000 us^2");
    free(dom);
    free(cpu1);
}
