/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: per-CPU reserve/commit stores of fixed-size records
 * (ring.c).  The ring knows only the record size given to dt_rings_init().
 */
#ifndef DYNTRACE_RING_H
#define DYNTRACE_RING_H

#include <xen/bug.h>
#include <xen/cpumask.h>
#include <xen/lib.h>
#include <xen/smp.h>
#include <xen/time.h>
#include <xen/types.h>
#include <asm/atomic.h>
#include <asm/system.h>

/*
 * Clock anchors (B14 of docs/designs/dyntrace.md): records keep the raw clock
 * (arch_dyntrace_stamp()), converted to NOW()'s nanoseconds when they are
 * read.  On x86 that conversion depends on the CPU's calibration, which
 * changes every second: so the writer of a buffer takes an anchor, a stamp
 * and NOW() for that same stamp, at most DT_ANCHOR_PERIOD ticks before each
 * record it stamps outside NMI/MCE, and the reader converts a stamp from
 * the anchors around it.  A buffer keeps as many anchors as records: a
 * record's anchor lasts as long as the record does.  Every record begins
 * with its stamp (uint64_t, raw), which a copy reads to take only the
 * anchors its records need.
 */
#define DT_ANCHOR_PERIOD (1UL << 20)

struct dt_anchor {
    uint64_t stamp;
    s_time_t ns;
};

struct dt_ring_copy {
    unsigned int cpu;
    unsigned int nr;            /* records in recs, oldest first */
    uint64_t written;           /* records committed since the last clear */
    uint64_t dropped;           /* events lost while recording was on */
    uint64_t dropped_nested;    /* ... of them: a writer nested on the CPU */
    uint64_t dropped_held;      /* ... of them: a reader held the buffer */
#ifdef DYNTRACE_WITH_BUFFERS
    uint64_t overrun;           /* overwritten before being read */
    uint64_t consumed;          /* records consumed (trace_pipe) */
    uint64_t entries;           /* records not consumed (nr: those copied) */
    /* For a consuming read (dt_rings_consume()). */
    uint64_t first;             /* index of recs[0] since the last clear */
    uint64_t read_at;           /* the buffer's read position, copied */
    unsigned int resets;        /* the buffer's resets, copied */
    unsigned int take;          /* records the read returned, from recs[0] */
    bool lost_shown;            /* for the formatter: lost was reported */
    /* Lost since the last consuming read: overwritten unread, dropped. */
    uint64_t lost;
#endif
    void *recs;                 /* nr records of rec_size bytes */
    /* The buffer's anchors when it was copied, oldest first. */
    unsigned int nr_anchors;
    struct dt_anchor *anchors;
};

struct dt_ring_snapshot {
    unsigned int rec_size;      /* bytes per record */
    unsigned int nr_present;    /* present CPUs at the time of the snapshot */
    unsigned int nr_cpus;       /* CPUs that own a buffer: entries of cpu[] */
    struct dt_ring_copy cpu[];
};

/*
 * A buffer's status word.  A writer takes READY -> WRITING for one record;
 * a holder (reader, clearer, on/off switch, ring.c) takes READY/OFF ->
 * HELD_ON/HELD_OFF (READY -> HELD_OFF too: the drain of recording turned
 * off).  A writer counts what it drops only at WRITING and HELD_ON.
 */
enum {
    RING_OFF,
    RING_READY,
    RING_WRITING,
    RING_HELD_ON,
    RING_HELD_OFF,
};

struct dt_ring {
    unsigned int status;
    bool ready;                 /* CPU between CPU_STARTING and CPU_DYING */
    unsigned int mask;          /* number of records - 1 */
    unsigned int size;          /* bytes per record */
    uint64_t written;           /* records committed since the last clear */
    /*
     * Events lost while recording was on, by cause: a writer nested on this
     * CPU (WRITING), a holder reading while recording is on (HELD_ON).
     * 64-bit counters, incremented with an atomic read-modify-write (writers
     * of this CPU, nested through NMI/MCE, may race on them) and reset with
     * an atomic store by a holder.
     */
    uint64_t dropped;
    uint64_t dropped_held;
#ifdef DYNTRACE_WITH_BUFFERS
    /*
     * Consuming reads (holders only, under ring_lock): records before read
     * are consumed; read_dropped is dropped + dropped_held as last reported
     * by one; overrun adds up records overwritten before being read.
     * resets counts the clears and resizes, which zero all of them.
     */
    uint64_t read, read_dropped, overrun, consumed;
    unsigned int resets;
    /*
     * The records, size bytes each.  Replaced (resize) only while the
     * buffer is held: a writer reads it only between taking WRITING and
     * storing READY.
     */
    void *rec;
    /*
     * Clock anchors (B14), written only by this CPU's writer outside NMI/MCE
     * (IRQs off), in anchor[n & mask]: it bumps anchor_next to n + 1, writes
     * the entry, then bumps nr_anchors to n + 1.  anchor_stamp: the newest
     * anchor's stamp (the writer's test).  The entries follow the records in
     * their storage, and are replaced with it (resize).
     */
    uint64_t anchor_stamp;
    unsigned int anchor_next, nr_anchors;
#else
    /* The records, size bytes each. */
    void *rec;
    /*
     * Clock anchors (B14), written only by this CPU's writer outside NMI/MCE
     * (IRQs off), in anchor[n & mask], then counted in nr_anchors (n + 1).
     * anchor_stamp: the newest anchor's stamp (the writer's test).  The
     * entries follow the records in their storage.
     */
    uint64_t anchor_stamp;
    unsigned int nr_anchors;
#endif
    struct dt_anchor *anchor;
};

/* Each CPU's buffer (ring.c), NULL until allocated; never freed. */
extern struct dt_ring *dt_rings[NR_CPUS];

/*
 * Is cpu up for tracing: between CPU_STARTING and CPU_DYING, with a buffer?
 * Outside that, a callback may run where current is not set yet (an AP's
 * first C calls, before start_secondary()) or where the CPU's per-CPU data
 * and stack are being given up (play_dead()): it must not look at current
 * nor hook a return there.
 */
static inline bool dt_ring_cpu_ready(unsigned int cpu)
{
    const struct dt_ring *r = ACCESS_ONCE(dt_rings[cpu]);

    return r && ACCESS_ONCE(r->ready);
}

/* The writer's next slot (size: the record size, as below). */
static always_inline void *dt_ring_slot(const struct dt_ring *r,
                                        unsigned int size)
{
    return (uint8_t *)r->rec + (unsigned long)(r->written & r->mask) * size;
}

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * The writer publishes the slot it filled: the slot before the count.
 * Pairs with the first smp_rmb() in ring_copy_unheld(): a consuming read,
 * which does not hold the buffer, reads the count and then the slots it
 * covers.  (For a holder the smp_mb() of dt_ring_commit() already orders
 * both.)  One store: that reader loads the count concurrently.
 */
static always_inline void dt_ring_publish(struct dt_ring *r)
{
    smp_wmb();
    write_atomic(&r->written, r->written + 1);
}
#else
/*
 * The writer counts the slot it filled.  Only holders read the count, and
 * the smp_mb() of dt_ring_commit() orders the slot and the count for them.
 */
static always_inline void dt_ring_publish(struct dt_ring *r)
{
    r->written++;
}
#endif

/*
 * The writer, with IRQs off: reserve this CPU's next slot, fill it, commit
 * it.  Inline: this is the tracing hot path, paid per traced call.  size is
 * the record size given to dt_rings_init(), passed as a constant so that
 * the slot's address needs no multiplication.  NULL: nothing reserved
 * (recording off, this CPU not ready or without a buffer, or the event
 * dropped and counted); then do not commit.  *pr and *pcpu are for
 * dt_ring_commit() and the record.
 */
static inline void *dt_ring_reserve(struct dt_ring **pr, unsigned int *pcpu,
                                    unsigned int size)
{
    unsigned int cpu = smp_processor_id(), old;
    struct dt_ring *r = ACCESS_ONCE(dt_rings[cpu]);

    /* Only NMI/MCE may nest: the dispatcher runs callbacks with IRQs off. */
    ASSERT(!local_irq_is_enabled());

    if ( !r || !ACCESS_ONCE(r->ready) )
        return NULL;
    ASSERT(size == r->size);

#ifdef DYNTRACE_WITH_BUFFERS
    /*
     * Take the buffer.  A full barrier; pairs with the smp_mb() before the
     * status store in ring_release() (a holder's copy or reset is complete
     * before we can fill a slot or count) and in dt_ring_commit() (an
     * outer writer's record, for a nested one: it cannot take WRITING), and
     * with the second smp_rmb() in ring_copy_unheld(): the count we are about
     * to fill a slot for is visible to a consuming read that saw the slot.
     */
#else
    /*
     * Take the buffer.  A full barrier; pairs with the smp_mb() before the
     * status store in ring_release() (a holder's copy or reset is complete
     * before we can fill a slot or count) and in dt_ring_commit() (an
     * outer writer's record, for a nested one: it cannot take WRITING).
     */
#endif
    old = cmpxchg(&r->status, RING_READY, RING_WRITING);
    if ( old != RING_READY )
    {
        if ( old == RING_WRITING )
            arch_fetch_and_add(&r->dropped, 1);
        else if ( old == RING_HELD_ON )
            arch_fetch_and_add(&r->dropped_held, 1);
        return NULL;
    }

    *pr = r;
    *pcpu = cpu;

    return dt_ring_slot(r, size);
}

static inline void dt_ring_commit(struct dt_ring *r)
{
    ASSERT(!local_irq_is_enabled());
    ASSERT(read_atomic(&r->status) == RING_WRITING);

    dt_ring_publish(r);
    /*
     * The slot and the count before the status that frees the buffer.
     * Pairs with the cmpxchg in ring_hold(): a holder that takes the buffer
     * after seeing READY sees this record and its count.
     */
    smp_mb();
    write_atomic(&r->status, RING_READY);
}

#ifdef DYNTRACE_WITH_GRAPH
/*
 * Publish the record just filled as dt_ring_commit() would, and keep the
 * buffer to fill the next slot: a tracer that writes two records at once
 * makes no second reservation.  Commit or cancel that one as usual.
 */
static inline void *dt_ring_next(struct dt_ring *r, unsigned int size)
{
    ASSERT(read_atomic(&r->status) == RING_WRITING);

    dt_ring_publish(r);
#ifdef DYNTRACE_WITH_BUFFERS
    /*
     * The count just stored, j, before the stores to slot j, which overwrite
     * the record j - size.  Pairs with the second smp_rmb() in
     * ring_copy_unheld(): a consuming read whose copy saw any of those
     * stores reads a count w2 >= j after it, and so drops that record.  (For
     * a slot of dt_ring_reserve(), its cmpxchg's full barrier orders the
     * count the writer read before the slot's stores.)  Weakly ordered CPUs
     * need it; on x86 it is a compiler barrier.
     */
    smp_wmb();
#endif

    return dt_ring_slot(r, size);
}
#endif

/*
 * Give back a reserved slot unused: nothing was written, the count is
 * unchanged.  No barrier: the slot holds nothing to publish.
 */
static inline void dt_ring_cancel(struct dt_ring *r)
{
    ASSERT(!local_irq_is_enabled());
    ASSERT(read_atomic(&r->status) == RING_WRITING);

    write_atomic(&r->status, RING_READY);
}

/*
 * Does a record stamped now need a new anchor first (B14)?  The writer asks
 * after reserving, and calls dt_ring_anchor() if so.
 */
static inline bool dt_ring_anchor_due(const struct dt_ring *r, uint64_t stamp)
{
    return stamp - r->anchor_stamp >= DT_ANCHOR_PERIOD;
}

void dt_ring_anchor(struct dt_ring *r, uint64_t stamp);

/*
 * The writer's anchor, if one is due, for a record stamped stamp (none in
 * NMI/MCE context: dt_ring_anchor() tests that, off the hot path).  fast:
 * from an x86 fast entry, which makes no C call but through a thunk that
 * keeps every register.
 */
static always_inline void dt_ring_anchor_if_due(struct dt_ring *r,
                                                uint64_t stamp, bool fast)
{
    if ( likely(!dt_ring_anchor_due(r, stamp)) )
        return;
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    if ( fast )
    {
        arch_dyntrace_fast_anchor(r, stamp);
        return;
    }
#endif
    dt_ring_anchor(r, stamp);
}

/*
 * A copy's raw stamp in NOW()'s nanoseconds (B14).  *anchored (if not
 * NULL): whether an anchor of the copy was near enough to convert it.
 */
s_time_t dt_copy_stamp_to_ns(const struct dt_ring_copy *c, uint64_t stamp,
                             bool *anchored);
/*
 * A duration of the raw clock in nanoseconds, at its nominal rate
 * (arch_dyntrace_stamp_khz(), as a 32.32 multiplier set at boot).
 */
extern uint64_t dt_stamp_mult;
uint64_t dt_stamp_delta_ns_wide(uint64_t delta);
static always_inline uint64_t dt_stamp_delta_ns(uint64_t delta)
{
    uint64_t p;

    /*
     * The usual case, a product within 64 bits (a duration up to about a
     * second at 4 GHz): no 128-bit product, which would make a hot caller
     * realign its stack for a spill slot.
     */
    if ( likely(!__builtin_mul_overflow(delta, dt_stamp_mult, &p)) )
        return p >> 32;

    return dt_stamp_delta_ns_wide(delta);
}

void dt_rings_reset_quiesced(void);
#ifdef DYNTRACE_WITH_EVENTS
/*
 * Run fn(arg) while every buffer is held: no writer is between its
 * reservation and its commit meanwhile (writers then drop their events,
 * and count them).  -EBUSY: CPU hotplug; fn did not run.
 */
int dt_rings_run_held(void (*fn)(const void *arg), const void *arg);
#endif
/*
 * Every buffer drained, then taking records (on) or not.  recording: the
 * events of writers that find a buffer held meanwhile count as dropped;
 * not when recording is being turned off (those events come after it).
 */
int dt_rings_set_on(bool on, bool recording);
int dt_rings_clear(void);
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * Copy the records not yet consumed: every CPU's (cpu < 0) or one CPU's
 * buffer.  pipe_max == 0 (trace): all of them (the newest that fit if a
 * resize overlapped).  pipe_max > 0 (a consuming read): the oldest
 * pipe_max of each buffer, for dt_rings_consume().  -ENOENT: cpu owns no
 * buffer; -EBUSY: CPU hotplug; -ENOMEM.
 */
int dt_rings_snapshot(struct dt_ring_snapshot **snap, int cpu,
                      unsigned int pipe_max);
#else
/*
 * Copy the records of every CPU's buffer.  -EBUSY: CPU hotplug; -ENOMEM.
 */
int dt_rings_snapshot(struct dt_ring_snapshot **snap);
#endif
void dt_rings_free_snapshot(struct dt_ring_snapshot *snap);
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * A consuming read returned its text: consume each copy's take records and
 * the losses it reported.  All or nothing: -EAGAIN if any buffer was
 * consumed, cleared or resized since the snapshot (nothing consumed).  With
 * commit false, only say whether it could be committed.
 */
int dt_rings_consume(struct dt_ring_snapshot *snap, bool commit);
/*
 * The CPUs that own a buffer (online or not).  It only grows: a CPU's bit is
 * set once its buffer is allocated, which is never freed.
 */
const cpumask_t *dt_rings_cpus(void);
/* Bumped by every consuming read: what trace shows has changed. */
unsigned int dt_rings_consumes(void);
#endif
int dt_rings_init(unsigned int rec_size);

/* Smallest and largest buffer, KiB per CPU. */
#define DT_RING_MIN_KB 1
#define DT_RING_MAX_KB 65536
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * Give every CPU's buffer room for kb KiB (rounded up to a power of two
 * records), emptying it.  All or nothing: -ENOMEM, -EBUSY (CPU hotplug)
 * and -EINVAL (kb out of range) change nothing.
 */
int dt_rings_resize(unsigned int kb);
/* Each CPU's buffer, and all buffers together (offline CPUs' too), in KiB. */
const uint32_t *dt_rings_kb(void);
const uint32_t *dt_rings_total_kb(void);
#endif

#endif /* DYNTRACE_RING_H */
