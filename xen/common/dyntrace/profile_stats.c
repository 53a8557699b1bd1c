/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the function profiler's files: its statistics,
 * trace_stat/function<N> and trace_stat/domains (consistent copies of the
 * per-CPU tables, P2 and P3 of profile.c, merged, sorted and printed in
 * ftrace's columns), and its switch, function_profile_enabled.  Nothing
 * here runs in a traced call.
 */

#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/sort.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>
#include <asm/system.h>

#include "hypfs_files.h"
#include "output.h"
#include "patch.h"
#include "profile.h"
#include "tracer.h"

/* One (function, domain) pair as read. */
struct prof_row {
    unsigned long ip;
    domid_t domid;
    uint64_t hits, timed, sampled, time, time_sq, time_sq_hi;
};

/* P2: a consistent copy of one slot. */
static void copy_slot(struct prof_row *r, const struct prof_slot *s)
{
    uint32_t seq;

    do {
        seq = ACCESS_ONCE(s->seq);
        smp_rmb();
        r->ip = s->ip;
        r->domid = s->domid;
        r->hits = s->hits;
        r->timed = s->timed;
        r->sampled = s->sampled;
        r->time = s->time;
        r->time_sq = s->time_sq;
        r->time_sq_hi = s->time_sq_hi;
        smp_rmb();
    } while ( (seq & 1) || seq != ACCESS_ONCE(s->seq) );
}

/*
 * P3: append cpu's pairs to rows (room for PROF_SLOTS more); returns how
 * many, 0 for a table of an older generation.  *missed adds its misses.
 */
static unsigned int copy_table(struct prof_row *rows, unsigned int cpu,
                               uint64_t *missed)
{
    const struct prof_table *t = prof_tables[cpu];
    uint32_t gen = ACCESS_ONCE(prof_gen);
    unsigned int i, n = 0;
    uint64_t miss;

    if ( !t || ACCESS_ONCE(t->gen) != gen )
        return 0;
    smp_rmb();                  /* pairs with the wipe's smp_wmb() */
    for ( i = 0; i < PROF_SLOTS; i++ )
    {
        if ( !ACCESS_ONCE(t->s[i].ip) )
            continue;
        copy_slot(&rows[n], &t->s[i]);
        if ( rows[n].ip )
            n++;
    }
    miss = ACCESS_ONCE(t->missed);
    smp_rmb();
    if ( ACCESS_ONCE(t->gen) != gen )
        return 0;               /* wiped while copied: empty */
    *missed += miss;

    return n;
}

static int cf_check cmp_key(const void *a, const void *b)
{
    const struct prof_row *x = a, *y = b;

    if ( x->domid != y->domid )
        return x->domid < y->domid ? -1 : 1;
    if ( x->ip != y->ip )
        return x->ip < y->ip ? -1 : 1;
    return 0;
}

/*
 * Time, ns: that of the calls timed, and for those left untimed by the
 * sampling (P8), their average.
 */
static uint64_t row_time(const struct prof_row *r)
{
    if ( !r->timed )
        return r->time;

    return r->time + r->time / r->timed * r->sampled;
}

/* Most time first (most hits, without prof_timing), then by address. */
static int cf_check cmp_cost(const void *a, const void *b)
{
    const struct prof_row *x = a, *y = b;
    uint64_t u = prof_timing ? row_time(x) : x->hits;
    uint64_t v = prof_timing ? row_time(y) : y->hits;

    if ( u != v )
        return u > v ? -1 : 1;
    return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int cf_check cmp_domain_cost(const void *a, const void *b)
{
    const struct prof_row *x = a, *y = b;

    if ( x->domid != y->domid )
        return x->domid < y->domid ? -1 : 1;
    return cmp_cost(a, b);
}

#ifdef DYNTRACE_BASE_SORT_SWAP_SIZE
static void cf_check swap_row(void *a, void *b, size_t size)
#else
static void cf_check swap_row(void *a, void *b)
#endif
{
    SWAP(*(struct prof_row *)a, *(struct prof_row *)b);
}

static void sort_rows(struct prof_row *rows, unsigned int n,
                      int (*cmp)(const void *, const void *))
{
    sort(rows, n, sizeof(*rows), cmp, swap_row);
}

/* Add the counts of row r to those of row to (of the same key). */
static void add_row(struct prof_row *to, const struct prof_row *r)
{
    to->hits += r->hits;
    to->timed += r->timed;
    to->sampled += r->sampled;
    to->time += r->time;
    add_128(&to->time_sq, &to->time_sq_hi, r->time_sq, r->time_sq_hi);
}

/*
 * Sort rows and merge those of one key (by_domain: domain and function;
 * else the function alone); returns how many are left.
 */
static unsigned int merge_rows(struct prof_row *rows, unsigned int n,
                               bool by_domain)
{
    unsigned int i, m = 0;

    if ( !by_domain )
        for ( i = 0; i < n; i++ )
            rows[i].domid = 0;
    sort_rows(rows, n, cmp_key);
    for ( i = 0; i < n; i++ )
    {
        if ( m && !cmp_key(&rows[m - 1], &rows[i]) )
            add_row(&rows[m - 1], &rows[i]);
        else
            rows[m++] = rows[i];
    }
    sort_rows(rows, m, by_domain ? cmp_domain_cost : cmp_cost);

    return m;
}

/* "%lu.%03lu us" of ns, right-aligned in width. */
static void print_us(struct dyntrace_text *t, unsigned long max,
                     uint64_t ns, int width)
{
    char num[32];

    snprintf(num, sizeof(num), "%lu.%03lu us", (unsigned long)(ns / 1000),
             (unsigned long)(ns % 1000));
    dyntrace_text_printf(t, max, "  %*s", width, num);
}

/*
 * x / d, d not 0, with 64-bit divisions and a long division of the rest
 * one bit at a time: Xen has no helper for a 128-bit division.
 */
static unsigned __int128 div_128(unsigned __int128 x, uint64_t d)
{
    uint64_t hi = x >> 64, lo = x, rem = hi % d, q = 0;
    unsigned int i;

    /* (rem:lo) / d, rem < d: the quotient fits in 64 bits. */
    for ( i = 0; i < 64; i++ )
    {
        bool carry = rem >> 63;

        rem = (rem << 1) | (lo >> 63);
        lo <<= 1;
        q <<= 1;
        if ( carry || rem >= d )
        {
            rem -= d;
            q |= 1;
        }
    }

    return ((unsigned __int128)(hi / d) << 64) | q;
}

/*
 * The sample variance of r's timed calls, ns^2 (r->timed > 0): sum(x^2)/n
 * - avg^2, times n/(n-1), in 128 bits as the sum is kept (add_sq()).
 */
static unsigned __int128 row_var(const struct prof_row *r)
{
    unsigned __int128 sum = ((unsigned __int128)r->time_sq_hi << 64) |
                            r->time_sq;
    uint64_t avg = r->time / r->timed;
    unsigned __int128 v, avg_sq = (unsigned __int128)avg * avg;

    if ( r->timed < 2 )
        return 0;
    v = div_128(sum, r->timed);
    if ( v <= avg_sq )
        return 0;
    v -= avg_sq;

    return v + div_128(v, r->timed - 1);
}

/*
 * One row: ftrace's Function, Hit, Time, Avg and s^2 (the variance of the
 * time, in us^2), with the domain first in trace_stat/domains.  Avg and
 * s^2 are those of the calls timed, Time their total plus Avg for each call
 * the sampling left untimed (P8).  Time, Avg and s^2 are "-" where returns
 * are not timed.
 */
static void print_row(struct dyntrace_text *t, unsigned long max,
                      struct sym_caches *c, const struct prof_row *r,
                      bool domain)
{
    if ( domain )
    {
        char ctx[CONTEXT_MAX];

        if ( r->domid == DOMID_IDLE )
            safe_strcpy(ctx, "<idle>");
        else
            snprintf(ctx, sizeof(ctx), "d%u", r->domid);
        dyntrace_text_printf(t, max, "  %-8s", ctx);
    }
    dyntrace_text_printf(t, max, "  %-30s  %10"PRIu64,
                         dt_symbol_cached(&c->func, r->ip), r->hits);
    if ( !prof_timing )
    {
        dyntrace_text_printf(t, max, "  %16s  %14s  %14s\n", "-", "-", "-");
        return;
    }
    print_us(t, max, row_time(r), 16);
    if ( r->timed )
    {
        /* ns^2 to us^2, three decimals. */
        unsigned __int128 ns2 = row_var(r), us2 = div_128(ns2, 1000000);

        print_us(t, max, r->time / r->timed, 14);
        /* 2^64 us^2 or more (a deviation of 71 minutes): said so. */
        if ( us2 >> 64 )
            dyntrace_text_printf(t, max, "  %14s\n", "overflow");
        else
            dyntrace_text_printf(t, max, "  %9lu.%03lu us^2\n",
                                 (unsigned long)us2,
                                 (unsigned long)(ns2 - us2 * 1000000) / 1000);
    }
    else
        dyntrace_text_printf(t, max, "  %14s  %14s\n", "-", "-");
}

/* Room for the header lines. */
#define PROF_HEADER_MAX 640

/*
 * The text of rows: exact in size, the lines measured first (a line's
 * symbol is cached by then, so both passes print the same).  trimmed (NULL:
 * none were): the hits of the pairs not shown.
 */
static int print_rows(struct dyntrace_text *t, const struct prof_row *rows,
                      unsigned int n, bool domain, const char *cpus,
                      uint64_t missed, const uint64_t *trimmed)
{
    struct sym_caches *c = xzalloc(struct sym_caches);
    unsigned long max = PROF_HEADER_MAX;
    uint64_t hits = 0, timed = 0;
    unsigned int i;
    int rc;

    if ( !c )
        return -ENOMEM;
    for ( i = 0; i < n; i++ )
    {
        struct dyntrace_text line;
        char buf[LINE_MAX];

        hits += rows[i].hits;
        timed += rows[i].timed;
        line.buf = buf;
        buf[0] = '\0';
        line.len = 1;
        print_row(&line, sizeof(buf), c, &rows[i], domain);
        max += line.len - 1;
    }
    rc = dyntrace_text_alloc(t, max);
    if ( !rc )
    {
        dyntrace_text_printf(t, max,
            "# profiler: %s, %s, hits missed (table full): %"PRIu64 ", ",
            dt_profiler_is_active() ? "on" : "off", cpus, missed);
        if ( trimmed )
            dyntrace_text_printf(t, max,
                "pairs past %u not shown (the cheapest), their hits: %"PRIu64
                ", ", PROF_SLOTS, *trimmed);
        if ( prof_timing )
            dyntrace_text_printf(t, max,
                "timed: %"PRIu64" of %"PRIu64" calls (the first %u of each"
                " on a CPU, then 1 in %u)\n",
                timed, hits, PROF_EXACT, PROF_PERIOD);
        else
            dyntrace_text_printf(t, max, "returns not timed: %s\n",
                                 prof_untimed_why);
        dyntrace_text_printf(t, max, "%s  %-30s  %10s  %16s  %14s  %14s\n"
                             "%s  %-30s  %10s  %16s  %14s  %14s\n",
                             domain ? "  Domain  " : "",
                             "Function", "Hit", "Time", "Avg", "s^2",
                             domain ? "  ------  " : "",
                             "--------", "---", "----", "---", "---");
        for ( i = 0; i < n; i++ )
            print_row(t, max, c, &rows[i], domain);
    }
    xfree(c);

    return rc;
}

/* trace_stat/function<cpu>: that CPU's table, by function. */
static int cf_check prof_print_cpu(struct dyntrace_text *t, unsigned int cpu)
{
    struct prof_row *rows = vmalloc(PROF_SLOTS * sizeof(*rows));
    uint64_t missed = 0;
    char label[24];
    unsigned int n;
    int rc;

    if ( !rows )
        return -ENOMEM;
    n = copy_table(rows, cpu, &missed);
    n = merge_rows(rows, n, false);
    snprintf(label, sizeof(label), "CPU %u", cpu);
    rc = print_rows(t, rows, n, false, label, missed, NULL);
    vfree(rows);

    return rc;
}

/* The row of key's pair in rows, n of them sorted by cmp_key; or NULL. */
static struct prof_row *row_of(struct prof_row *rows, unsigned int n,
                               const struct prof_row *key)
{
    unsigned int lo = 0, hi = n;

    while ( lo < hi )
    {
        unsigned int mid = lo + (hi - lo) / 2;
        int c = cmp_key(&rows[mid], key);

        if ( !c )
            return &rows[mid];
        if ( c < 0 )
            lo = mid + 1;
        else
            hi = mid;
    }

    return NULL;
}

/*
 * trace_stat/domains' second pass, when the pairs of every table were more
 * than PROF_SLOTS: rows[0..n) are those kept by the first, the costliest as
 * it merged the tables one by one (a pair cut after an early table may have
 * come back with a later table's counts alone).  Count them again, from
 * every table, each with its whole counts; *trimmed gets the hits of the
 * others, *missed the tables' misses again.  rows has room for PROF_SLOTS
 * more.
 */
static void recount(struct prof_row *rows, unsigned int n,
                    const cpumask_t *cpus, uint64_t *missed,
                    uint64_t *trimmed)
{
    struct prof_row *copy = rows + n, *r;
    unsigned int cpu, i, m;

    sort_rows(rows, n, cmp_key);
    for ( i = 0; i < n; i++ )
    {
        r = &rows[i];
        r->hits = r->timed = r->sampled = r->time = 0;
        r->time_sq = r->time_sq_hi = 0;
    }
    *missed = *trimmed = 0;
    for_each_cpu ( cpu, cpus )
    {
        m = copy_table(copy, cpu, missed);
        for ( i = 0; i < m; i++ )
        {
            r = row_of(rows, n, &copy[i]);
            if ( r )
                add_row(r, &copy[i]);
            else
                *trimmed += copy[i].hits;
        }
    }
    sort_rows(rows, n, cmp_domain_cost);
}

/*
 * trace_stat/domains: every table, by domain and function.  The CPUs are
 * those with a table (the set only grows, P5), copied once.  Past
 * PROF_SLOTS pairs, the costliest are shown (cmp_cost: by Time, as ftrace
 * sorts), counted exactly (recount()), and the header gives the hits of
 * the others: the pairs are cut by cost, whatever their domain.
 */
static int cf_check prof_print_domains(struct dyntrace_text *t)
{
    struct prof_row *rows;
    cpumask_t cpus;
    unsigned int cpu, n = 0, nr = 0;
    uint64_t missed = 0, trimmed = 0;
    bool trim = false;
    char label[24];
    int rc;

    cpumask_copy(&cpus, &prof_cpus);
    smp_rmb();                  /* pairs with the smp_wmb() of P5 */
    /* Room for two tables: merged after each one. */
    rows = vmalloc(2 * PROF_SLOTS * sizeof(*rows));
    if ( !rows )
        return -ENOMEM;
    for_each_cpu ( cpu, &cpus )
    {
        n += copy_table(rows + n, cpu, &missed);
        n = merge_rows(rows, n, true);
        nr++;
        /* Pairs beyond one table's worth: the cheapest cut. */
        if ( n > PROF_SLOTS )
        {
            sort_rows(rows, n, cmp_cost);
            n = PROF_SLOTS;
            trim = true;
        }
    }
    if ( trim )
        recount(rows, n, &cpus, &missed, &trimmed);
    snprintf(label, sizeof(label), "CPUs: %u", nr);
    rc = print_rows(t, rows, n, true, label, missed, trim ? &trimmed : NULL);
    vfree(rows);

    return rc;
}

/* ---- Its files in /tracing ---- */

/*
 * function_profile_enabled: the profiler on (counting afresh, if it was
 * off) or off (what it counted stays readable).  It traces the filter's
 * functions whatever the tracer: it patches.
 */
static int cf_check profile_write(struct hypfs_entry_leaf *leaf,
                                  XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                  unsigned int ulen)
{
    bool on;
    int rc = dt_fs_may_patch() ?: dt_fs_bool_write(&on, uaddr, ulen);

    if ( rc )
        return rc;
    rc = dt_request(&(struct dt_change){
        .profile = on ? DT_PROFILE_ON : DT_PROFILE_OFF });
    if ( rc == -ENODATA )
        dt_fs_set_bad_word("(set_function_filter is empty)");
    else if ( rc == -EOPNOTSUPP )
        dt_fs_set_bad_word("(no profiler in this build)");

    return rc;
}

static int __init cf_check profile_enabled_init(
    struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_state_profiling();
    leaf->e.size = sizeof(bool);

    return 0;
}

static const struct dt_file prof_files[] = {
    { .name = "function_profile_enabled", .type = XEN_HYPFS_TYPE_BOOL,
      .max_write = sizeof(bool), .init = profile_enabled_init,
      .write = profile_write },
};

/*
 * trace_stat/: function<N> for every CPU Xen can have (nr_cpu_ids; a CPU
 * that never ran the profiler shows no function), and domains, every
 * CPU's by domain.
 */
static HYPFS_DIR_INIT_FUNC(trace_stat_dir, "trace_stat", &dt_fs_dir_funcs);
static const struct dt_file stat_files[] = {
    { .name = "domains", .type = XEN_HYPFS_TYPE_STRING,
      .build = prof_print_domains },
    { .name = "function", .type = XEN_HYPFS_TYPE_STRING,
      .cpu_build = prof_print_cpu },
};

void __init prof_fs_init(void)
{
    dt_fs_add_files(NULL, prof_files, ARRAY_SIZE(prof_files));
    dt_fs_add_files(&trace_stat_dir, stat_files, ARRAY_SIZE(stat_files));
}
