/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * dyntrace: per-CPU reserve/commit stores of fixed-size records, in the
 * manner of Linux's simple_ring_buffer.  The ring knows the record size given
 * to dt_rings_init(), never what a record holds: the tracer reserves a slot,
 * fills it and commits it.
 *
 * The concurrency contract (docs/designs/dyntrace.md and
 * dyntrace-buffers.md, "Buffers"):
 *
 * - Buffers live in a global table indexed by CPU, never in per-CPU areas
 *   (those are zeroed and freed across offline).  A buffer, once allocated
 *   (at boot or at CPU_UP_PREPARE), is never freed; ring_cpus lists the CPUs
 *   that own one, online or not.  Its record storage is replaced (resize)
 *   only while it is held, and the old storage freed after the release: a
 *   writer touches the storage only while it holds WRITING.
 *
 * - Each buffer has a status word.  A writer (the tracer callback, IRQs off,
 *   possibly in NMI context) takes it READY -> WRITING with cmpxchg in
 *   dt_ring_reserve(), fills the slot, and dt_ring_commit() publishes the
 *   count and stores READY after a full barrier.  A writer that finds
 *   WRITING (nested NMI/MCE on this CPU) or HELD_ON (a holder has it while
 *   recording is on) counts the event as dropped; OFF and HELD_OFF mean
 *   recording is off: nothing was accepted.
 *
 * - trace's reader, clearers, resizes and the on/off switch ("holders") are
 *   serialised by ring_lock and never run in writer context.  A holder waits
 *   until the status is not WRITING, then swaps READY/OFF to
 *   HELD_ON/HELD_OFF.  The wait is bounded: a writer holds WRITING for one
 *   record with IRQs off.  While held, no writer touches the buffer, so
 *   copies are never torn and resets never race with a slot being filled.
 *   This is the drain.
 *
 * - A consuming read (trace_pipe, trace_pipe_raw) takes ring_lock but does
 *   not hold the buffer, so that reading never makes a writer drop: it
 *   copies while the writer may run and keeps only the records the writer
 *   cannot have touched (ring_copy_unheld(), B13).
 *
 * - Every traversal pins the CPU set with get_cpu_maps() (failure: -EBUSY)
 *   and covers every CPU in ring_cpus, offline ones included.
 */
#else
/*
 * dyntrace: per-CPU reserve/commit stores of fixed-size records, in the
 * manner of Linux's simple_ring_buffer.  The ring knows the record size given
 * to dt_rings_init(), never what a record holds: the tracer reserves a slot,
 * fills it and commits it.
 *
 * The concurrency contract (docs/designs/dyntrace.md, "Buffers"):
 *
 * - Buffers live in a global table indexed by CPU, never in per-CPU areas
 *   (those are zeroed and freed across offline).  A buffer, once allocated
 *   (at boot or at CPU_UP_PREPARE), is never freed; ring_cpus lists the CPUs
 *   that own one, online or not.
 *
 * - Each buffer has a status word.  A writer (the tracer callback, IRQs off,
 *   possibly in NMI context) takes it READY -> WRITING with cmpxchg in
 *   dt_ring_reserve(), fills the slot, and dt_ring_commit() publishes the
 *   count and stores READY after a full barrier.  A writer that finds
 *   WRITING (nested NMI/MCE on this CPU) or HELD_ON (a holder has it while
 *   recording is on) counts the event as dropped; OFF and HELD_OFF mean
 *   recording is off: nothing was accepted.
 *
 * - trace's reader, clearers and the on/off switch ("holders") are
 *   serialised by ring_lock and never run in writer context.  A holder waits
 *   until the status is not WRITING, then swaps READY/OFF to
 *   HELD_ON/HELD_OFF.  The wait is bounded: a writer holds WRITING for one
 *   record with IRQs off.  While held, no writer touches the buffer, so
 *   copies are never torn and resets never race with a slot being filled.
 *   This is the drain.
 *
 * - Every traversal pins the CPU set with get_cpu_maps() (failure: -EBUSY)
 *   and covers every CPU in ring_cpus, offline ones included.
 */
#endif

#include <xen/bug.h>
#include <xen/cpu.h>
#include <xen/cpumask.h>
#include <xen/dyntrace.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/notifier.h>
#include <xen/param.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>
#include <asm/atomic.h>
#include <asm/system.h>

#include "ring.h"

/* Default size of each CPU's buffer: 64 KiB (2048 32-byte records). */
#define DT_RING_DEFAULT_KB 64

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * dyntrace_buf_size=<size> (K, M suffixes): each CPU's buffer at boot,
 * rounded up to a power of two records, within buffer_size_kb's limits.
 */
#else
/*
 * dyntrace_buf_size=<size> (K, M suffixes): each CPU's buffer, rounded up
 * to a power of two records, from 1 KiB to 64 MiB.
 */
#endif
static unsigned long __initdata opt_buf_size = DT_RING_DEFAULT_KB * 1024;
size_param("dyntrace_buf_size", opt_buf_size);

/* The writer's view (ring.h): each CPU's buffer, NULL until allocated. */
struct dt_ring *dt_rings[NR_CPUS];
static cpumask_t ring_cpus;
static bool rings_on;
static unsigned int rec_size;
#ifdef DYNTRACE_WITH_BUFFERS
/* Records per buffer (a power of two), and the sizes HypFS shows. */
static unsigned int ring_records;
static uint32_t ring_kb, rings_total_kb;
#else
/* Records per buffer (a power of two). */
static unsigned int ring_records;
#endif
static DEFINE_SPINLOCK(ring_lock);

/* Records of a kb KiB buffer: rounded up to a power of two, at least 1. */
static unsigned int records_for(unsigned long kb)
{
    unsigned long want = max(kb * 1024 / rec_size, 1UL);
    unsigned int n = 1;

    while ( n < want )
        n <<= 1;

    return n;
}

#ifdef DYNTRACE_WITH_BUFFERS
/* Update the sizes HypFS shows; the caller holds the CPU maps. */
static void update_sizes(void)
{
    unsigned long bytes = (unsigned long)ring_records * rec_size;

    ring_kb = DIV_ROUND_UP(bytes, 1024);
    rings_total_kb = ring_kb * cpumask_weight(&ring_cpus);
}

const uint32_t *dt_rings_kb(void)
{
    return &ring_kb;
}

const uint32_t *dt_rings_total_kb(void)
{
    return &rings_total_kb;
}
#endif

/*
 * Drain and hold a buffer; returns its previous status (READY or OFF).
 * counting: a READY buffer becomes HELD_ON, and a writer that finds it so
 * counts its event as dropped; otherwise HELD_OFF, and it counts nothing.
 */
static unsigned int ring_hold_as(struct dt_ring *r, bool counting)
{
    ASSERT(spin_is_locked(&ring_lock));

    for ( ;; )
    {
        unsigned int s = read_atomic(&r->status);

        if ( s == RING_WRITING )
        {
            cpu_relax();
            continue;
        }

        ASSERT(s == RING_READY || s == RING_OFF);
        /*
         * A full barrier; pairs with the writer's smp_mb() before its status
         * store in dt_ring_commit() (ring.h): the record and count are
         * visible.
         */
        if ( cmpxchg(&r->status, s,
                     s == RING_READY && counting ? RING_HELD_ON
                                                 : RING_HELD_OFF) == s )
            return s;
    }
}

static unsigned int ring_hold(struct dt_ring *r)
{
    return ring_hold_as(r, true);
}

static void ring_release(struct dt_ring *r, unsigned int s)
{
    ASSERT(spin_is_locked(&ring_lock));

    /*
     * The holder's copies and resets before the release.  Pairs with the
     * writer's cmpxchg in dt_ring_reserve(): a writer that takes the buffer
     * sees the reset count and does not overwrite a slot being copied.
     */
    smp_mb();
    write_atomic(&r->status, s);
}

static void ring_reset(struct dt_ring *r)
{
    r->written = 0;
    write_atomic(&r->dropped, 0);
    write_atomic(&r->dropped_held, 0);
#ifdef DYNTRACE_WITH_BUFFERS
    r->read = r->read_dropped = r->overrun = r->consumed = 0;
    r->resets++;
#endif
}

int dt_rings_set_on(bool on, bool recording)
{
    unsigned int cpu;

    if ( !get_cpu_maps() )
        return -EBUSY;
    spin_lock(&ring_lock);

    for_each_cpu ( cpu, &ring_cpus )
    {
        ring_hold_as(dt_rings[cpu], recording);
        ring_release(dt_rings[cpu], on ? RING_READY : RING_OFF);
    }
    rings_on = on;

    spin_unlock(&ring_lock);
    put_cpu_maps();

    return 0;
}

#ifdef DYNTRACE_WITH_EVENTS
int dt_rings_run_held(void (*fn)(const void *arg), const void *arg)
{
    cpumask_t ready = {};       /* the buffers that were recording */
    unsigned int cpu;

    if ( !get_cpu_maps() )
        return -EBUSY;
    spin_lock(&ring_lock);

    for_each_cpu ( cpu, &ring_cpus )
        if ( ring_hold(dt_rings[cpu]) == RING_READY )
            cpumask_set_cpu(cpu, &ready);
    fn(arg);
    for_each_cpu ( cpu, &ring_cpus )
        ring_release(dt_rings[cpu],
                     cpumask_test_cpu(cpu, &ready) ? RING_READY : RING_OFF);

    spin_unlock(&ring_lock);
    put_cpu_maps();

    return 0;
}

#endif
/*
 * Clear from inside the livepatch rendezvous: every other CPU is parked, so
 * no writer and no holder can be running, and the master holds the CPU maps.
 */
void dt_rings_reset_quiesced(void)
{
    unsigned int cpu;

    ASSERT(!local_irq_is_enabled());

    for_each_cpu ( cpu, &ring_cpus )
    {
        ASSERT(dt_rings[cpu]->status != RING_WRITING);
        ring_reset(dt_rings[cpu]);
    }
}

int dt_rings_clear(void)
{
    unsigned int cpu;

    if ( !get_cpu_maps() )
        return -EBUSY;
    spin_lock(&ring_lock);

    for_each_cpu ( cpu, &ring_cpus )
    {
        struct dt_ring *r = dt_rings[cpu];
        unsigned int s = ring_hold(r);

        ring_reset(r);
        ring_release(r, s);
    }

    spin_unlock(&ring_lock);
    put_cpu_maps();

    return 0;
}

void dt_rings_free_snapshot(struct dt_ring_snapshot *snap)
{
    unsigned int i;

    if ( !snap )
        return;
    for ( i = 0; i < snap->nr_cpus; i++ )
    {
        vfree(snap->cpu[i].recs);
        vfree(snap->cpu[i].anchors);
    }
    vfree(snap);
}

/*
 * Clock anchors (B14).  The writer of r's CPU, IRQs off, after reserving a
 * slot whose record it stamps with stamp: NOW() for that stamp, kept for
 * the readers.  None in NMI/MCE context, where NOW() may read a torn
 * calibration: tested here, where an anchor is due (rarely), rather than
 * on every record.
 */
void dt_ring_anchor(struct dt_ring *r, uint64_t stamp)
{
    unsigned int n = r->nr_anchors;
    struct dt_anchor *a = &r->anchor[n & r->mask];

    ASSERT(!local_irq_is_enabled());
    if ( arch_dyntrace_in_nmi() )
        return;

#ifdef DYNTRACE_WITH_BUFFERS
    /*
     * Claim the entry before overwriting it.  Pairs with the second
     * smp_rmb() in copy_anchors(): a reader that saw any of the stores below
     * sees the claim, and drops the older anchor the entry held.
     */
    write_atomic(&r->anchor_next, n + 1);
    smp_wmb();
    a->stamp = stamp;
    a->ns = arch_dyntrace_stamp_to_ns(stamp);
    /*
     * The entry before the count that covers it.  Pairs with the first
     * smp_rmb() in copy_anchors().  The record this anchor is for is
     * committed later (dt_ring_commit()'s smp_wmb()), so a reader that
     * copied the record sees its anchor.
     */
    smp_wmb();
    write_atomic(&r->nr_anchors, n + 1);
#else
    /*
     * Only a holder reads the anchors, and dt_ring_commit()'s smp_mb()
     * orders the entry and its count for it, with the record's.
     */
    a->stamp = stamp;
    a->ns = arch_dyntrace_stamp_to_ns(stamp);
    r->nr_anchors = n + 1;
#endif
    r->anchor_stamp = stamp;
}

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * The index of the last of r's anchors lo..hi-1 whose stamp is at or
 * before stamp (lo if none): their stamps grow with the index.  The
 * writer may be overwriting the oldest meanwhile; copy_anchors() checks
 * what it copied afterwards.
 */
#else
/*
 * The index of the last of r's anchors lo..hi-1 whose stamp is at or
 * before stamp (lo if none): their stamps grow with the index.
 */
#endif
static unsigned int anchor_at(const struct dt_ring *r, unsigned int lo,
                              unsigned int hi, uint64_t stamp)
{
    unsigned int first = lo;

    while ( lo < hi )
    {
        unsigned int mid = lo + (hi - lo) / 2;

        if ( ACCESS_ONCE(r->anchor[mid & r->mask].stamp) <= stamp )
            lo = mid + 1;
        else
            hi = mid;
    }

    return lo > first ? lo - 1 : first;
}

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * Copy into c, after its records (their anchors were written before them),
 * the anchors they need: from the newest at or before the first record's
 * stamp to the first after the last record's, at most acap (records begin
 * with their raw stamp).  The writer may be taking a new anchor meanwhile
 * (a consuming read does not hold the buffer): keep only the entries it
 * cannot have overwritten.  (A resize replaces the anchors with the
 * records, under ring_lock: not during a copy.)
 */
#else
/*
 * Copy into c, after its records, the anchors they need (the buffer is
 * held): from the newest at or before the first record's stamp to the
 * first after the last record's, at most acap (records begin with their
 * raw stamp).
 */
#endif
static void copy_anchors(struct dt_ring_copy *c, const struct dt_ring *r,
                         unsigned int acap)
{
#ifdef DYNTRACE_WITH_BUFFERS
    unsigned int size = r->mask + 1, n, next, first, last, i, keep;
#else
    unsigned int size = r->mask + 1, n, first, last, i;
#endif

    c->nr_anchors = 0;
    if ( !c->nr )
        return;
#ifdef DYNTRACE_WITH_BUFFERS
    n = read_atomic(&r->nr_anchors);
    smp_rmb();
#else
    n = r->nr_anchors;
#endif
    first = n - min(n, size);
    first = anchor_at(r, first, n,
                      *(const uint64_t *)c->recs);
    last = anchor_at(r, first, n,
                     *(const uint64_t *)((const uint8_t *)c->recs +
                                         (unsigned long)(c->nr - 1) *
                                         rec_size));
    n = min(n, last + 2);
    first = max(first, n - min(n - first, acap));
    for ( i = first; i < n; i++ )
        c->anchors[i - first] = r->anchor[i & r->mask];
#ifdef DYNTRACE_WITH_BUFFERS
    smp_rmb();
    next = read_atomic(&r->anchor_next);
    keep = next > size ? next - size : 0;
    if ( keep > first )
    {
        unsigned int drop = min(keep - first, n - first);

        memmove(c->anchors, c->anchors + drop,
                (n - first - drop) * sizeof(c->anchors[0]));
        first += drop;
    }
#endif
    c->nr_anchors = n - first;
}

/* The raw clock's nanoseconds per tick, 32.32 (ring.h). */
uint64_t __read_mostly dt_stamp_mult;

/* dt_stamp_delta_ns() of a long duration: the whole 128-bit product. */
uint64_t noinline dt_stamp_delta_ns_wide(uint64_t delta)
{
    return ((unsigned __int128)delta * dt_stamp_mult) >> 32;
}

/*
 * The newest anchor at or before stamp, if it is near (it always is for a
 * record taken outside NMI/MCE): from there, along the line to the next
 * anchor if that is near too (NOW() at both ends), else at the nominal rate.
 * Else the first anchor after stamp, if it is near, back at the nominal
 * rate: a record a tracer writes late carries the earlier time of the call
 * it records, older than the anchor taken when it was written, and two
 * copies of one time must convert alike, whichever copy each is read in.
 * Otherwise the reading CPU's calibration, as NOW() would extrapolate it.
 */
s_time_t dt_copy_stamp_to_ns(const struct dt_ring_copy *c, uint64_t stamp,
                             bool *anchored)
{
    unsigned int lo = 0, hi = c->nr_anchors;
    const struct dt_anchor *a, *b;
    uint64_t d;

    /* The first anchor after stamp: anchors[lo]. */
    while ( lo < hi )
    {
        unsigned int mid = lo + (hi - lo) / 2;

        if ( c->anchors[mid].stamp <= stamp )
            lo = mid + 1;
        else
            hi = mid;
    }
    a = lo ? &c->anchors[lo - 1] : NULL;
    b = lo < c->nr_anchors ? &c->anchors[lo] : NULL;
    d = a ? stamp - a->stamp : 0;
    if ( !a || d >= 2 * DT_ANCHOR_PERIOD )
    {
        bool after = b && b->stamp - stamp < 2 * DT_ANCHOR_PERIOD;

        if ( anchored )
            *anchored = after;
        if ( after )
            return b->ns - dt_stamp_delta_ns(b->stamp - stamp);
        return arch_dyntrace_stamp_to_ns(stamp);
    }
    if ( anchored )
        *anchored = true;
    if ( !d )
        return a->ns;

    /* Both spans under 2^32: the product fits in 64 bits. */
    if ( b && b->stamp - a->stamp <= 4 * DT_ANCHOR_PERIOD && b->ns > a->ns &&
         (uint64_t)(b->ns - a->ns) < (1ULL << 32) )
        return a->ns + d * (uint64_t)(b->ns - a->ns) / (b->stamp - a->stamp);

    return a->ns + dt_stamp_delta_ns(d);
}

/* Copy n records from index first on into c->recs (wrapping at the end). */
static void copy_slots(struct dt_ring_copy *c, const struct dt_ring *r,
                       uint64_t first, unsigned long n)
{
    unsigned int size = r->mask + 1, at = first & r->mask;
    unsigned long part = min_t(unsigned long, n, size - at);

    memcpy(c->recs, (uint8_t *)r->rec + (unsigned long)at * rec_size,
           part * rec_size);
    memcpy((uint8_t *)c->recs + part * rec_size, r->rec,
           (n - part) * rec_size);
}

#ifdef DYNTRACE_WITH_BUFFERS
/* The counters and read position of a copy whose oldest record is start. */
static void copy_counts(struct dt_ring_copy *c, const struct dt_ring *r,
                        uint64_t w, uint64_t start)
{
    c->written = w;
    c->dropped_nested = read_atomic(&r->dropped);
    c->dropped_held = read_atomic(&r->dropped_held);
    c->dropped = c->dropped_nested + c->dropped_held;
    /* Overwritten since the last consuming read, then before it. */
    c->lost = start - r->read + c->dropped - r->read_dropped;
    c->overrun = r->overrun + start - r->read;
    c->consumed = r->consumed;
    c->entries = w - start;
    c->read_at = r->read;
    c->resets = r->resets;
    c->take = 0;
}

/*
 * Copy a held buffer's records not yet consumed into c, oldest first: the
 * newest cap (cap is only less than the buffer if a resize made it larger
 * than c was allocated for).  trace's read: the records and counters are
 * one instant's.
 */
static void ring_copy(struct dt_ring_copy *c, const struct dt_ring *r,
                      unsigned int cap, unsigned int acap)
{
    unsigned int size = r->mask + 1;
    uint64_t w = r->written, start = max(r->read, w > size ? w - size : 0);
    unsigned long n = min_t(uint64_t, w - start, cap);

    copy_counts(c, r, w, start);
    c->first = w - n;
    c->nr = n;
    copy_slots(c, r, c->first, n);
    copy_anchors(c, r, acap);
}

/*
 * A consuming read's copy (B13): the oldest cap records not consumed,
 * taken without holding the buffer, so that a reader keeping up with the
 * writers never makes them drop a record.  The writer of this CPU may run
 * meanwhile (ring_lock keeps every holder out, so the storage and the read
 * position stay put); what it can do to the copy is overwrite the oldest
 * slots.  So: read the count, copy, read the status and the count again,
 * and keep only the records no writer can have touched.  A writer whose
 * slot stores the copy saw (index j: slot j & mask, the record j - size)
 * had taken WRITING and read the count as j before them (or, for the
 * second slot of dt_ring_next(), stored it as j); so the status read
 * after the copy is WRITING with a count w2 >= j, or READY with w2 >= j + 1
 * (that writer committed).  Records from w2 - size + 1 (WRITING) or
 * w2 - size (otherwise) on are intact; older ones count as overwritten
 * (overrun), as if the writer had finished first.
 */
static void ring_copy_unheld(struct dt_ring_copy *c, const struct dt_ring *r,
                             unsigned int cap, unsigned int acap)
{
    unsigned int size = r->mask + 1;
    uint64_t w, w2, start, intact;
    unsigned long n, skip;
    bool writing;

    ASSERT(spin_is_locked(&ring_lock));

    /*
     * The count before the slots it covers.  Pairs with the smp_wmb() before
     * the count's increment in dt_ring_publish() (dt_ring_commit(),
     * dt_ring_next()).
     */
    w = read_atomic(&r->written);
    smp_rmb();
    start = max(r->read, w > size ? w - size : 0);
    n = min_t(uint64_t, w - start, cap);
    copy_slots(c, r, start, n);
    /*
     * The slots before the second count.  Pairs with the full barrier of the
     * cmpxchg in dt_ring_reserve(), between a writer's reading of the count
     * and its stores to the slot, and with the smp_wmb() in dt_ring_next(),
     * between the count it stores and its stores to the next slot: if the
     * copy saw any of those stores, w2 covers that writer.
     */
    smp_rmb();
    writing = read_atomic(&r->status) == RING_WRITING;
    /*
     * The status before the second count.  Pairs with the smp_mb() before
     * the status store in dt_ring_commit(): a status freed by a commit comes
     * with that commit's count.
     */
    smp_rmb();
    w2 = read_atomic(&r->written);
    intact = w2 + writing > size ? w2 + writing - size : 0;
    skip = intact > start ? min_t(uint64_t, intact - start, n) : 0;
    if ( skip )
    {
        memmove(c->recs, (uint8_t *)c->recs + skip * rec_size,
                (n - skip) * rec_size);
        start += skip;
        n -= skip;
    }

    copy_counts(c, r, w, start);
    c->first = start;
    c->nr = n;
    copy_anchors(c, r, acap);
}

#else
/* The counters of a copy. */
static void copy_counts(struct dt_ring_copy *c, const struct dt_ring *r,
                        uint64_t w)
{
    c->written = w;
    c->dropped_nested = read_atomic(&r->dropped);
    c->dropped_held = read_atomic(&r->dropped_held);
    c->dropped = c->dropped_nested + c->dropped_held;
}

/*
 * Copy a held buffer's records into c, oldest first: trace's read, the
 * records and counters of one instant.
 */
static void ring_copy(struct dt_ring_copy *c, const struct dt_ring *r,
                      unsigned int acap)
{
    unsigned int size = r->mask + 1;
    uint64_t w = r->written, first = w > size ? w - size : 0;

    copy_counts(c, r, w);
    c->nr = w - first;
    copy_slots(c, r, first, c->nr);
    copy_anchors(c, r, acap);
}

#endif

#ifdef DYNTRACE_WITH_BUFFERS
int dt_rings_snapshot(struct dt_ring_snapshot **psnap, int only,
                      unsigned int pipe_max)
{
    struct dt_ring_snapshot *snap;
    unsigned int cpu, i = 0, cap = 0, acap = 0, nr;
    int rc = 0;

    if ( !get_cpu_maps() )
        return -EBUSY;

    if ( only >= 0 &&
         ((unsigned int)only >= nr_cpu_ids ||
          !cpumask_test_cpu(only, &ring_cpus)) )
    {
        put_cpu_maps();
        return -ENOENT;
    }
    nr = only >= 0 ? 1 : cpumask_weight(&ring_cpus);

    /*
     * Sized by the pinned CPU set; allocated outside the held window.  A
     * resize may run meanwhile: the copies take at most cap records each.
     */
    snap = vzalloc(sizeof(*snap) + nr * sizeof(snap->cpu[0]));
    if ( !snap )
    {
        put_cpu_maps();
        return -ENOMEM;
    }
    snap->rec_size = rec_size;
    for_each_cpu ( cpu, &ring_cpus )
    {
        if ( only >= 0 && cpu != (unsigned int)only )
            continue;
        if ( !cap )
        {
            cap = read_atomic(&ring_records);
            if ( pipe_max )
                cap = min(cap, pipe_max);
            /* At most one anchor per record, one before, one after. */
            acap = cap + 2;
        }
        snap->cpu[i].cpu = cpu;
        snap->cpu[i].recs = vmalloc((unsigned long)rec_size * cap);
        snap->cpu[i].anchors = vmalloc(sizeof(struct dt_anchor) *
                                       (unsigned long)acap);
        if ( !snap->cpu[i].recs || !snap->cpu[i].anchors )
            rc = -ENOMEM;
        snap->nr_cpus = ++i;
    }
    snap->nr_present = cpumask_weight(&cpu_present_map);

    if ( !rc )
    {
        spin_lock(&ring_lock);
        for ( i = 0; i < snap->nr_cpus; i++ )
        {
            struct dt_ring *r = dt_rings[snap->cpu[i].cpu];
            unsigned int s;

            if ( pipe_max )
            {
                ring_copy_unheld(&snap->cpu[i], r, cap, acap);
                continue;
            }
            s = ring_hold(r);
            ring_copy(&snap->cpu[i], r, cap, acap);
            ring_release(r, s);
        }
        spin_unlock(&ring_lock);
    }

    put_cpu_maps();

    if ( rc )
    {
        dt_rings_free_snapshot(snap);
        return rc;
    }

    *psnap = snap;
    return 0;
}

#else
int dt_rings_snapshot(struct dt_ring_snapshot **psnap)
{
    struct dt_ring_snapshot *snap;
    /* At most one anchor per record, one before, one after. */
    unsigned int cpu, i = 0, acap = ring_records + 2, nr;
    int rc = 0;

    if ( !get_cpu_maps() )
        return -EBUSY;
    nr = cpumask_weight(&ring_cpus);

    /* Sized by the pinned CPU set; allocated outside the held window. */
    snap = vzalloc(sizeof(*snap) + nr * sizeof(snap->cpu[0]));
    if ( !snap )
    {
        put_cpu_maps();
        return -ENOMEM;
    }
    snap->rec_size = rec_size;
    for_each_cpu ( cpu, &ring_cpus )
    {
        snap->cpu[i].cpu = cpu;
        snap->cpu[i].recs = vmalloc((unsigned long)rec_size * ring_records);
        snap->cpu[i].anchors = vmalloc(sizeof(struct dt_anchor) *
                                       (unsigned long)acap);
        if ( !snap->cpu[i].recs || !snap->cpu[i].anchors )
            rc = -ENOMEM;
        snap->nr_cpus = ++i;
    }
    snap->nr_present = cpumask_weight(&cpu_present_map);

    if ( !rc )
    {
        spin_lock(&ring_lock);
        for ( i = 0; i < snap->nr_cpus; i++ )
        {
            struct dt_ring *r = dt_rings[snap->cpu[i].cpu];
            unsigned int s = ring_hold(r);

            ring_copy(&snap->cpu[i], r, acap);
            ring_release(r, s);
        }
        spin_unlock(&ring_lock);
    }

    put_cpu_maps();

    if ( rc )
    {
        dt_rings_free_snapshot(snap);
        return rc;
    }

    *psnap = snap;
    return 0;
}
#endif

#ifdef DYNTRACE_WITH_BUFFERS
const cpumask_t *dt_rings_cpus(void)
{
    return &ring_cpus;
}

/* Bumped under ring_lock by each committed consuming read. */
static unsigned int ring_consumes;

unsigned int dt_rings_consumes(void)
{
    return read_atomic(&ring_consumes);
}

/*
 * The read positions are a holder's data: written only here and by
 * ring_reset(), under ring_lock, never by a writer.  So a consuming read
 * needs no hold to commit, and its check and commit are one step for every
 * other holder.  Buffers are never freed: the snapshot's CPUs still own one.
 */
int dt_rings_consume(struct dt_ring_snapshot *snap, bool commit)
{
    unsigned int i;
    int rc = 0;

    spin_lock(&ring_lock);
    for ( i = 0; i < snap->nr_cpus; i++ )
    {
        const struct dt_ring_copy *c = &snap->cpu[i];
        const struct dt_ring *r = dt_rings[c->cpu];

        if ( r->resets != c->resets || r->read != c->read_at )
            rc = -EAGAIN;
    }
    for ( i = 0; commit && !rc && i < snap->nr_cpus; i++ )
    {
        const struct dt_ring_copy *c = &snap->cpu[i];
        struct dt_ring *r = dt_rings[c->cpu];

        ASSERT(c->take <= c->nr);
        r->overrun = c->overrun;
        r->read = c->first + c->take;
        r->read_dropped = c->dropped;
        r->consumed += c->take;
    }
    if ( commit && !rc )
        write_atomic(&ring_consumes, ring_consumes + 1);
    spin_unlock(&ring_lock);

    return rc;
}

#endif

/*
 * A buffer's storage for records records: the records, then as many clock
 * anchors (B14).
 */
static void *storage_alloc(unsigned int records)
{
    return vzalloc((unsigned long)records *
                   (rec_size + sizeof(struct dt_anchor)));
}

static struct dt_anchor *storage_anchors(void *rec, unsigned int records)
{
    return (struct dt_anchor *)((uint8_t *)rec +
                                (unsigned long)records * rec_size);
}

static struct dt_ring *ring_alloc(void)
{
    struct dt_ring *r = xzalloc(struct dt_ring);

    if ( !r )
        return NULL;
    r->rec = storage_alloc(ring_records);
    if ( !r->rec )
    {
        xfree(r);
        return NULL;
    }
    r->anchor = storage_anchors(r->rec, ring_records);
    r->mask = ring_records - 1;
    r->size = rec_size;
    r->status = rings_on ? RING_READY : RING_OFF;

    return r;
}

#ifdef DYNTRACE_WITH_BUFFERS
int dt_rings_resize(unsigned int kb)
{
    unsigned int cpu, records;
    void **store;
    int rc = 0;

    if ( kb < DT_RING_MIN_KB || kb > DT_RING_MAX_KB )
        return -EINVAL;
    records = records_for(kb);

    store = xzalloc_array(void *, nr_cpu_ids);
    if ( !store )
        return -ENOMEM;
    if ( !get_cpu_maps() )
    {
        xfree(store);
        return -EBUSY;
    }

    /* All new storage first, outside the held window: all or nothing. */
    for_each_cpu ( cpu, &ring_cpus )
    {
        store[cpu] = storage_alloc(records);
        if ( !store[cpu] )
        {
            rc = -ENOMEM;
            break;
        }
    }

    if ( !rc )
    {
        spin_lock(&ring_lock);
        for_each_cpu ( cpu, &ring_cpus )
        {
            struct dt_ring *r = dt_rings[cpu];
            unsigned int s = ring_hold(r);
            void *old = r->rec;

            /*
             * Held: no writer is between its reservation and its commit,
             * and none takes the buffer before ring_release()'s barrier
             * publishes the new storage, mask and reset counts.
             */
            r->rec = store[cpu];
            r->anchor = storage_anchors(store[cpu], records);
            r->anchor_next = r->nr_anchors = 0;
            r->anchor_stamp = 0;
            r->mask = records - 1;
            ring_reset(r);
            ring_release(r, s);
            store[cpu] = old;           /* freed below */
        }
        write_atomic(&ring_records, records);
        update_sizes();
        spin_unlock(&ring_lock);
    }

    put_cpu_maps();

    for ( cpu = 0; cpu < nr_cpu_ids; cpu++ )
        vfree(store[cpu]);
    xfree(store);

    return rc;
}

#endif

static int cf_check cpu_callback(struct notifier_block *nfb,
                                 unsigned long action, void *hcpu)
{
    unsigned int cpu = (unsigned long)hcpu;
    struct dt_ring *r = dt_rings[cpu];

    switch ( action )
    {
    case CPU_UP_PREPARE:
        /* Hotplug holds the CPU maps for writing: no holder is running. */
        if ( !r )
        {
            r = ring_alloc();
            if ( !r )
            {
                printk(XENLOG_WARNING
                       "dyntrace: no trace buffer for CPU%u\n", cpu);
                break;          /* The CPU comes up, untraced. */
            }
            /*
             * The initialised buffer before its pointer.  Pairs with the
             * dependent loads through ACCESS_ONCE(dt_rings[cpu]) in
             * dt_ring_reserve() and with put_cpu_maps()/get_cpu_maps()
             * (the lock) for holders.
             */
            smp_wmb();
            dt_rings[cpu] = r;
            cpumask_set_cpu(cpu, &ring_cpus);
#ifdef DYNTRACE_WITH_BUFFERS
            update_sizes();
#endif
        }
        break;

    case CPU_STARTING:
        if ( r )
            write_atomic(&r->ready, true);
        break;

    case CPU_DYING:
        if ( r )
            write_atomic(&r->ready, false);
        break;

    default:
        /* CPU_DEAD: the buffer and its records stay until cleared. */
        break;
    }

    return NOTIFY_DONE;
}

static struct notifier_block cpu_nfb = {
    .notifier_call = cpu_callback,
};

int __init dt_rings_init(unsigned int size)
{
    unsigned int cpu;

    /* Whole 64-bit words: every slot stays aligned. */
    if ( !size || size % sizeof(uint64_t) )
        return -EINVAL;
    rec_size = size;
    dt_stamp_mult = ((uint64_t)1000000 << 32) /
                    max(arch_dyntrace_stamp_khz(), 1UL);
    ring_records = records_for(
        min_t(unsigned long,
              max_t(unsigned long, DIV_ROUND_UP(opt_buf_size, 1024),
                    DT_RING_MIN_KB),
              DT_RING_MAX_KB));

    for_each_online_cpu ( cpu )
    {
        struct dt_ring *r = ring_alloc();

        if ( !r )
            return -ENOMEM;
        r->ready = true;
        dt_rings[cpu] = r;
        cpumask_set_cpu(cpu, &ring_cpus);
    }
#ifdef DYNTRACE_WITH_BUFFERS
    update_sizes();
#endif
    register_cpu_notifier(&cpu_nfb);

    return 0;
}
