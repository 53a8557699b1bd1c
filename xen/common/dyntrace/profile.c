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
 *     (prof_print_domains()).
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
#include <xen/time.h>
#include <xen/vmap.h>
#include <asm/system.h>

#include "output.h"
#include "profile.h"
#include "return.h"
#include "ring.h"
#include "tracer.h"

/* P5; see profile.h. */
struct prof_table *prof_tables[NR_CPUS];
cpumask_t prof_cpus;
static bool prepared;
/* P3. */
uint32_t prof_gen = 1;
bool prof_timing;
const char *prof_untimed_why = "no return hooking on this architecture";

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
    struct prof_table *t = prof_tables[cpu];
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
    if ( claim && prof_timing && ret && (st = dt_ret_stack(cpu)) != NULL &&
         dt_ret_claim(ret, ip, DT_RET_PROFILE, gen) )
        return;
    t = prof_tables[cpu];
    if ( unlikely(!t) )
        return;
    domid = current->domain->domain_id;
    s = table_slot(t, ip, domid, gen, fast);
    if ( unlikely(!s) )
        return;
    if ( prof_timing && ret )
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
    struct prof_table *t = prof_tables[cpu];
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
        if ( prof_tables[cpu] )
            continue;
        prof_tables[cpu] = table_alloc(cpu);
        if ( !prof_tables[cpu] )
        {
            rc = -ENOMEM;
            break;
        }
        smp_wmb();              /* pairs with prof_print_domains() */
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
    if ( action == CPU_UP_PREPARE && ACCESS_ONCE(prepared) &&
         !prof_tables[cpu] )
    {
        struct prof_table *t = table_alloc(cpu);

        if ( t )
        {
            prof_tables[cpu] = t;
            smp_wmb();          /* pairs with prof_print_domains() */
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

static const struct dt_profiler profiler = {
    .func = profile_call,
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    .fast_entry = dyntrace_fast_profile_entry,
    .fast_return = dyntrace_fast_profile_return,
#endif
    .prepare = profile_prepare,
    .restart = profile_restart,
};

static int __init cf_check profile_init(void)
{
#ifdef ARCH_DYNTRACE_RETURN
    prof_timing = !arch_dyntrace_return_usable(&prof_untimed_why);
#endif

    register_cpu_notifier(&cpu_nfb);
    dt_ret_set_hook(DT_RET_PROFILE, profile_return);
    prof_fs_init();
    dt_register_profiler(&profiler);

    return 0;
}
presmp_initcall(profile_init);
