/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the function profiler (function_profile_enabled).  For
 * each call of a traced function it counts a hit, and, where returns can
 * be hooked (return.c), the time until the function returns, in a table of
 * the CPU's own keyed by the function and the domain that made the call:
 * trace_stat/function<N> sums one CPU's table by function (ftrace's
 * columns), trace_stat/domains every CPU's by domain and function.  The
 * counts live apart from the ring buffers: nothing is lost when they wrap.
 * A call whose return is hooked is counted once it ends (its hit and its
 * time when it returns; its hit alone once its frame is found gone, R2 of
 * return.c); any other at its entry.  Alone, the profiler hooks the
 * returns of a sample of the calls (P8): an untimed call costs a table
 * lookup, a timed one two trampolines and two lookups.
 *
 * The rules (docs/designs/dyntrace-profiler.md):
 *
 * P1  A CPU's table is written only by that CPU, with IRQs off: by the
 *     profiler's callback or fast entry (an untimed hit, the countdown of
 *     P8) and its return hook (a call that ended).  In NMI/MCE context
 *     nothing is counted (it could interrupt an update of the same slot):
 *     the callback pushes nothing there, so no hook runs there for the
 *     profiler (profile_end()).
 * P2  Each slot has a sequence count, odd while its CPU writes the slot;
 *     a reader copies a slot again until it sees the same even count
 *     before and after the copy.  Every smp_wmb() of a writer pairs with
 *     the smp_rmb() of the reader at the same step.
 * P3  A restart (profiling switched on) only bumps prof_gen, in the
 *     rendezvous.  A table counts for the generation in its gen; a table
 *     of an older one is empty to readers, and its CPU wipes it before
 *     its next count (on its own, so no writer races the wipe), with gen 0
 *     while it does.  A reader keeps a copy only if the table's gen was
 *     the current one before and after it.  An offline CPU's table is
 *     thus cleared by a restart too.
 * P4  A call is counted in the generation it began in (its entry's
 *     cookie): if profiling restarted since, it is not counted at all.
 * P5  Tables are allocated before profiling can start (prepare(), and
 *     CPU_UP_PREPARE for a CPU coming online after that) and never freed:
 *     readers take no lock.  A CPU without one counts nothing.
 * P6  A table holds PROF_SLOTS (function, domain) pairs; a hit of a pair
 *     that finds no room within PROF_PROBES slots is counted as missed,
 *     and the readers show that count.  trace_stat/domains shows the
 *     PROF_SLOTS costliest pairs of all tables, and the hits of the others
 *     (profile_print_domains()).
 * P7  A call is profiled only on a CPU up for tracing (dt_ring_cpu_ready():
 *     current set, per-CPU data live); one that began there is counted at
 *     its end wherever that CPU is then, under the domain that made it:
 *     current's at its entry, kept in its return-stack entry (entry_domid())
 *     for a call counted at its end.  current is not read there: x86 drops
 *     abandoned entries where it resets the stack (R7 of return.c), in
 *     context_switch() once current is the next vCPU.
 * P8  Returns are hooked for the profiler alone on a sample of the calls:
 *     every call of a pair until PROF_EXACT of them were timed on that CPU,
 *     then one in PROF_PERIOD on average, when the CPU's countdown (drawn
 *     afresh, at random, each time it runs out, so that no periodic pattern
 *     of calls lines up with it) runs out.  A call left untimed for that
 *     alone is counted at its entry, in hits and in sampled; readers add
 *     sampled times the average to Time.  A call whose return another
 *     owner hooked anyway (function_graph, R6) is always timed.  Hits stay
 *     exact: every call is counted, timed or not.
 */

#include <xen/cpu.h>
#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/notifier.h>
#include <xen/sched.h>
#include <xen/sort.h>
#include <xen/time.h>
#include <xen/vmap.h>
#include <asm/system.h>

#include "output.h"
#include "return.h"
#include "ring.h"
#include "tracer.h"

/* Slots per CPU table (a power of 2: slot_hash() gives 12 bits). */
#define PROF_SLOTS  4096
#define PROF_PROBES 32
/* P8: calls of a pair timed on a CPU before sampling; then 1 in PERIOD. */
#define PROF_EXACT  256
#define PROF_PERIOD 32

struct prof_slot {
    unsigned long ip;           /* the traced function's site; 0: free */
    uint32_t seq;               /* P2: odd while written */
    uint16_t domid;
    uint64_t hits;
    uint64_t timed;             /* returns timed (hits whose return hooked) */
    uint64_t sampled;           /* P8: hits left untimed by the sampling */
    uint64_t time;              /* ns, entry to return */
    uint64_t time_sq;           /* ns^2: the low 64 bits of the sum */
    uint64_t time_sq_hi;        /* and the high ones (add_sq()) */
};

struct prof_table {
    uint32_t gen;               /* P3: the generation it counts for */
    uint32_t countdown;         /* P8: calls until the next timed one, >= 1 */
    uint32_t random;            /* P8: xorshift state, never 0 */
    uint64_t missed;            /* P6 */
    struct prof_slot s[PROF_SLOTS];
};

/*
 * P5: by CPU, kept when the CPU goes offline; prof_cpus: which exist (a
 * bit is set once its table is).  Written under the CPU maps: by prepare()
 * holding them, by the CPU notifier while hotplug holds them.
 */
static struct prof_table *tables[NR_CPUS];
static cpumask_t prof_cpus;
static bool prepared;
/* P3. */
static uint32_t prof_gen = 1;
/* Are returns timed (fixed at boot: CET is)?  If not, why. */
static bool timing;
static const char *untimed_why = "no return hooking on this architecture";

static struct prof_table *table_alloc(unsigned int cpu)
{
    struct prof_table *t = vzalloc(sizeof(struct prof_table));

    if ( t )
    {
        t->countdown = 1;
        t->random = 0x9e3779b9U ^ cpu;
    }

    return t;
}

static void slot_begin(struct prof_slot *s)
{
    s->seq++;
    smp_wmb();                  /* P2: pairs with copy_slot()'s first rmb */
}

static void slot_end(struct prof_slot *s)
{
    smp_wmb();                  /* P2: pairs with copy_slot()'s second rmb */
    s->seq++;
}

static unsigned int slot_hash(unsigned long ip, domid_t domid)
{
    return ((uint32_t)(ip ^ (ip >> 17)) * 0x9e3779b1U + domid) >> 20;
}

/* Is s the slot of (ip, domid)? */
static always_inline bool slot_is(const struct prof_slot *s, unsigned long ip,
                                  domid_t domid)
{
    return s->ip == ip && s->domid == domid;
}

/* The slot of (ip, domid) in t, taken if need be; PROF_SLOTS: no room. */
static always_inline unsigned int slot_find(struct prof_table *t,
                                            unsigned long ip, domid_t domid)
{
    unsigned int i, n;

    BUILD_BUG_ON(PROF_SLOTS != 1u << (32 - 20));
    BUILD_BUG_ON(sizeof(struct prof_slot) != 64);
    for ( n = 0, i = slot_hash(ip, domid); n < PROF_PROBES;
          n++, i = (i + 1) & (PROF_SLOTS - 1) )
    {
        struct prof_slot *s = &t->s[i];

        if ( slot_is(s, ip, domid) )
            return i;
        if ( !s->ip )
        {
            slot_begin(s);
            s->ip = ip;
            s->domid = domid;
            slot_end(s);
            return i;
        }
    }

    return PROF_SLOTS;
}

/*
 * P3: the wipe of a table of an older generation, by the table's own CPU,
 * under generation 0 (never a live one): a reader that saw any of it sees
 * gen changed.
 */
static void noinline table_wipe(struct prof_table *t, uint32_t gen)
{
    write_atomic(&t->gen, 0);
    smp_wmb();                  /* pairs with copy_table()'s second rmb */
    memset(t->s, 0, sizeof(t->s));
    t->missed = 0;
    smp_wmb();                  /* pairs with copy_table()'s first rmb */
    write_atomic(&t->gen, gen);
}

/*
 * The slot of (ip, domid) in table t of generation gen, the current one
 * (P3: t wiped first if of an older one), taken if need be; NULL if there
 * is no room (counted, P6).  IRQs off, not in NMI/MCE context (P1).  fast:
 * from the fast entry (ARCH_DYNTRACE_FAST_ENTRY), which makes no C call but
 * through a thunk.
 */
static always_inline struct prof_slot *table_slot(struct prof_table *t,
                                                  unsigned long ip,
                                                  domid_t domid, uint32_t gen,
                                                  bool fast)
{
    unsigned int i;

    if ( unlikely(t->gen != gen) )
    {
#ifdef ARCH_DYNTRACE_FAST_ENTRY
        if ( fast )
            arch_dyntrace_fast_prof_wipe(t, gen);
        else
#endif
            table_wipe(t, gen);
    }
    i = slot_find(t, ip, domid);
    if ( unlikely(i == PROF_SLOTS) )
    {
        t->missed++;
        return NULL;
    }

    return &t->s[i];
}

/* (*hi:*lo) += (ahi:alo): a sum of 128 bits in two words. */
static always_inline void add_128(uint64_t *lo, uint64_t *hi, uint64_t alo,
                                  uint64_t ahi)
{
    *lo += alo;
    *hi += ahi + (*lo < alo);
}

/* add_sq() of a call of 2^32 ns or more, whose square takes 128 bits. */
static void noinline add_sq_wide(struct prof_slot *s, uint64_t ns)
{
    unsigned __int128 sq = (unsigned __int128)ns * ns;

    add_128(&s->time_sq, &s->time_sq_hi, sq, sq >> 64);
}

/*
 * s^2's sum of the squares of the times, ns^2, in 128 bits.  64 wrapped
 * after about 1.8 * 10^7 calls of a millisecond (10^12 each); 128 hold
 * 2^128 / 10^18, 3.4 * 10^20, calls of a second each: no count a slot can
 * reach in practice.  The usual call, under 2^32 ns (4.3 s), squares in
 * 64 bits; a longer one goes out of line.  Timed calls only: the untimed
 * call's path (count_entry()) is not changed.
 */
static always_inline void add_sq(struct prof_slot *s, uint64_t ns)
{
    uint64_t sq;

    if ( likely(!__builtin_mul_overflow(ns, ns, &sq)) )
        add_128(&s->time_sq, &s->time_sq_hi, sq, 0);
    else
        add_sq_wide(s, ns);
}

/*
 * A hooked call of ip by domid on cpu that began in generation gen ends
 * (P4): its hit, and if it returned, its time (raw clock ticks, delta).
 * IRQs off, not in NMI/MCE context (P1).
 */
static always_inline void count(unsigned int cpu, unsigned long ip,
                                domid_t domid, uint32_t gen, bool timed,
                                uint64_t delta)
{
    struct prof_table *t = tables[cpu];
    struct prof_slot *s;
    uint64_t ns;

    if ( !t || gen != ACCESS_ONCE(prof_gen) )
        return;
    s = table_slot(t, ip, domid, gen, false);
    if ( unlikely(!s) )
        return;
    ns = timed ? dt_stamp_delta_ns(delta) : 0;
    slot_begin(s);
    s->hits++;
    if ( timed )
    {
        s->timed++;
        s->time += ns;
        add_sq(s, ns);
    }
    slot_end(s);
}

/*
 * P8: is the call about to be counted in slot s of table t left untimed by
 * the sampling (its pair past PROF_EXACT timed calls, the countdown not
 * running out)?  If so, counts the countdown down.
 */
static always_inline bool sampled_out(struct prof_table *t,
                                      const struct prof_slot *s)
{
    if ( s->timed < PROF_EXACT || t->countdown <= 1 )
        return false;
    t->countdown--;

    return true;
}

/*
 * P8: is that call to be timed?  Where the countdown runs out, it is drawn
 * again, odd in [1, 2 * PROF_PERIOD - 1]: PROF_PERIOD on average.
 */
static always_inline bool time_this_call(struct prof_table *t,
                                         const struct prof_slot *s)
{
    uint32_t x;

    if ( sampled_out(t, s) )
        return false;
    if ( s->timed < PROF_EXACT )
        return true;
    x = t->random;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    t->random = x;
    t->countdown = (x & (2 * PROF_PERIOD - 1)) | 1;

    return true;
}

/* A call counted at its entry (P4), left untimed by the sampling or not. */
static always_inline void count_entry(struct prof_slot *s, bool sampled)
{
    slot_begin(s);
    s->hits++;
    if ( sampled )
        s->sampled++;
    slot_end(s);
}

/*
 * A call of ip (IRQs off).  Where returns are timed, it is counted when it
 * ends (P4), its return hooked: sharing the entry function_graph pushed if
 * any (R6 of return.c, claim), else if it is to be timed (P8).  Otherwise,
 * or if it cannot be hooked, its hit is counted now.  fast: from the fast
 * entry, which makes no C call but through thunks.
 */
static always_inline void profile_enter(unsigned long ip, unsigned long *ret,
                                        bool claim, bool fast)
{
    unsigned int cpu = smp_processor_id(), depth;
    struct dt_ret_stack *st;
    struct prof_table *t;
    struct prof_slot *s;
    struct dt_ret_entry *e;
    uint32_t gen;
    domid_t domid;
    bool sampled = false;

    /* P1; and a CPU not up has no current domain (P7). */
    if ( arch_dyntrace_cpu_in_nmi(cpu) || unlikely(!dt_ring_cpu_ready(cpu)) )
        return;
    gen = ACCESS_ONCE(prof_gen);
    if ( claim && timing && ret && (st = dt_ret_stack(cpu)) != NULL &&
         dt_ret_claim(ret, ip, DT_RET_PROFILE, gen) )
        return;
    t = tables[cpu];
    if ( unlikely(!t) )
        return;
    domid = current->domain->domain_id;
    s = table_slot(t, ip, domid, gen, fast);
    if ( unlikely(!s) )
        return;
    if ( timing && ret )
    {
        if ( !time_this_call(t, s) )
            sampled = true;
        else if ( (st = dt_ret_stack(cpu)) != NULL &&
                  (e = dt_ret_push_entry(st, ret, ip, NULL, DT_RET_PROFILE,
                                         false, fast, &depth)) != NULL )
        {
            e->calltime = arch_dyntrace_stamp();
            e->cookie = gen;
            e->ctx = domid;     /* entry_domid() */
            return;
        }
    }
    count_entry(s, sampled);
}

/* The callback, after the tracer's (tracer.c), IRQs off. */
static void cf_check profile_call(unsigned long ip, unsigned long parent_ip,
                                  unsigned long *ret, bool irqs_off)
{
    profile_enter(ip, ret, true, false);
}

/*
 * P7: the domain that made the hooked call of entry e.  Bits 0-15 of the
 * entry's ctx are its id whoever pushed the entry: the profiler, which
 * keeps the id alone there (profile_enter()), or function_graph, whose
 * entry the profiler claimed (R6) and whose context word (graph_ctx())
 * starts with it.
 */
static always_inline domid_t entry_domid(const struct dt_ret_entry *e)
{
    return (domid_t)e->ctx;
}

/*
 * A hooked call ends: returned, its time from the entry's; its frame gone
 * (R2), a hit alone.  Counted under the domain that made it (P7): x86
 * finds frames gone once current changed (R7).  Nothing once profiling
 * stopped.  Never in NMI/MCE context (P1): the entry was pushed outside it
 * (profile_enter()), so its function returns outside it, and only an NMI's
 * or MCE's own entries are above its frame for its pops to drop (R1, R4).
 */
static always_inline void profile_end(const struct dt_ret_entry *e,
                                      bool returned)
{
    unsigned int cpu = smp_processor_id();
    uint64_t delta = 0;

    ASSERT(!arch_dyntrace_cpu_in_nmi(cpu));
    if ( !dt_profiler_is_active() )
        return;
    if ( returned )
        delta = arch_dyntrace_stamp() - e->calltime;
    count(cpu, e->func, entry_domid(e), e->cookie, returned, delta);
}

/* The hook (return.c). */
static void cf_check profile_return(const struct dt_ret_entry *e,
                                    unsigned int depth, bool returned)
{
    profile_end(e, returned);
}

#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * The fast entry's every case but the usual one, in a frame of its own that
 * also keeps every register: frame is the fast entry's call (frame[0] its
 * return into the traced function's body, frame[1] where the function's
 * return address waits).
 */
static void noinline ARCH_DYNTRACE_FAST_ENTRY
profile_fast_call(unsigned long *frame)
{
    profile_enter(frame[0] - DYNTRACE_RET_TO_SITE, &frame[1], false, true);
}

/*
 * The trampoline's call while the profiler alone runs (the tracer has no
 * callback; the rendezvous rewrites the call), saving only the registers
 * it uses.  The
 * usual call, on a CPU up for tracing, outside NMI/MCE context, of a pair
 * already in the slot its hash gives, left untimed by the sampling (P8):
 * counted here, as profile_enter() would.  Anything else:
 * profile_fast_call().
 */
static void ARCH_DYNTRACE_FAST_ENTRY dyntrace_fast_profile_entry(void)
{
    unsigned long *frame = (unsigned long *)arch_dyntrace_fast_frame();
    unsigned int cpu = smp_processor_id();
    struct prof_table *t = tables[cpu];
    struct prof_slot *s;
    unsigned long flags, ip;
    domid_t domid;

    local_irq_save(flags);
    /* Without timing (fixed at boot) no pair is past PROF_EXACT timed calls */
    if ( likely(t) && likely(t->gen == ACCESS_ONCE(prof_gen)) &&
         likely(!arch_dyntrace_cpu_in_nmi(cpu)) &&
         likely(dt_ring_cpu_ready(cpu)) )
    {
        ip = frame[0] - DYNTRACE_RET_TO_SITE;
        domid = current->domain->domain_id;
        s = &t->s[slot_hash(ip, domid)];
        if ( likely(slot_is(s, ip, domid)) && likely(sampled_out(t, s)) )
        {
            count_entry(s, true);
            arch_dyntrace_irq_restore(flags);
            return;
        }
    }
    profile_fast_call(frame);
    arch_dyntrace_irq_restore(flags);
}

/* table_wipe() for the fast entry, through its thunk. */
void dyntrace_fast_profile_wipe(void *t, uint32_t gen)
{
    table_wipe(t, gen);
}

static always_inline void profile_returned(struct dt_ret_stack *st,
                                           const struct dt_ret_entry *e,
                                           unsigned int depth)
{
    profile_end(e, true);
}

/*
 * The return trampoline's call while the profiler alone runs, instead of
 * dyntrace_return().
 */
static unsigned long dyntrace_fast_profile_return(unsigned long frame)
{
    return dt_ret_fast_return(frame, DT_RET_PROFILE, profile_returned);
}
#endif

static int cf_check profile_prepare(void)
{
    unsigned int cpu;
    int rc = 0;

    if ( !get_cpu_maps() )
        return -EBUSY;
    for_each_online_cpu ( cpu )
    {
        if ( tables[cpu] )
            continue;
        tables[cpu] = table_alloc(cpu);
        if ( !tables[cpu] )
        {
            rc = -ENOMEM;
            break;
        }
        smp_wmb();              /* pairs with profile_print_domains() */
        cpumask_set_cpu(cpu, &prof_cpus);
    }
    if ( !rc )
        prepared = true;
    put_cpu_maps();

    return rc;
}

/* In the rendezvous: P3. */
static void cf_check profile_restart(void)
{
    uint32_t gen = prof_gen + 1;

    /* 0 is a fresh table's: never a live generation. */
    write_atomic(&prof_gen, gen ?: 1);
}

static int cf_check cpu_callback(struct notifier_block *nfb,
                                 unsigned long action, void *hcpu)
{
    unsigned int cpu = (unsigned long)hcpu;

    /* P5: a CPU without a table counts nothing; it still comes up. */
    if ( action == CPU_UP_PREPARE && ACCESS_ONCE(prepared) && !tables[cpu] )
    {
        struct prof_table *t = table_alloc(cpu);

        if ( t )
        {
            tables[cpu] = t;
            smp_wmb();          /* pairs with profile_print_domains() */
            cpumask_set_cpu(cpu, &prof_cpus);
        }
        else
            printk(XENLOG_WARNING
                   "dyntrace: no profile table for CPU%u\n", cpu);
    }

    return NOTIFY_DONE;
}

static struct notifier_block cpu_nfb = {
    .notifier_call = cpu_callback,
};

/* ---- the statistics ---- */

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
    const struct prof_table *t = tables[cpu];
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

/* Most time first (most hits, without timing), then by address. */
static int cf_check cmp_cost(const void *a, const void *b)
{
    const struct prof_row *x = a, *y = b;
    uint64_t u = timing ? row_time(x) : x->hits;
    uint64_t v = timing ? row_time(y) : y->hits;

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
    if ( !timing )
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
        if ( timing )
            dyntrace_text_printf(t, max,
                "timed: %"PRIu64" of %"PRIu64" calls (the first %u of each"
                " on a CPU, then 1 in %u)\n",
                timed, hits, PROF_EXACT, PROF_PERIOD);
        else
            dyntrace_text_printf(t, max, "returns not timed: %s\n",
                                 untimed_why);
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
static int cf_check profile_print_cpu(struct dyntrace_text *t,
                                      unsigned int cpu)
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
static int cf_check profile_print_domains(struct dyntrace_text *t)
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

static const struct dt_profiler profiler = {
    .func = profile_call,
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    .fast_entry = dyntrace_fast_profile_entry,
    .fast_return = dyntrace_fast_profile_return,
#endif
    .prepare = profile_prepare,
    .restart = profile_restart,
    .print_cpu = profile_print_cpu,
    .print_domains = profile_print_domains,
};

static int __init cf_check profile_init(void)
{
#ifdef ARCH_DYNTRACE_RETURN
    timing = !arch_dyntrace_return_usable(&untimed_why);
#endif

    register_cpu_notifier(&cpu_nfb);
    dt_ret_set_hook(DT_RET_PROFILE, profile_return);
    dt_register_profiler(&profiler);

    return 0;
}
presmp_initcall(profile_init);
