/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: per-CPU ring buffers of fixed-size binary records.
 *
 * The concurrency contract (docs/design.md of xen-dyntrace):
 *
 * - Buffers live in a global table indexed by CPU, never in per-CPU areas
 *   (those are zeroed and freed across offline).  A buffer, once allocated
 *   (at boot or at CPU_UP_PREPARE), is never freed; ring_cpus lists the CPUs
 *   that own one, online or not.
 *
 * - Each buffer has a status word.  A writer (the tracer callback, IRQs off,
 *   possibly in NMI context) takes it READY -> WRITING with cmpxchg, writes
 *   one record, publishes the count, and stores READY after a full barrier.
 *   A writer that finds WRITING (nested IRQ/NMI on this CPU) or HELD_ON (a
 *   reader holds it while recording is on) counts the event as dropped;
 *   OFF and HELD_OFF mean recording is off: nothing was accepted.
 *
 * - Readers, clearers and the on/off switch ("holders") are serialised by
 *   ring_lock and never run in writer context.  A holder waits until the
 *   status is not WRITING, then swaps READY/OFF to HELD_ON/HELD_OFF.  The
 *   wait is bounded: a writer holds WRITING for one record with IRQs off.
 *   While held, no writer touches the buffer, so copies are never torn and
 *   resets never race with a slot being filled.  This is the drain.
 *
 * - Every traversal pins the CPU set with get_cpu_maps() (failure: -EBUSY)
 *   and covers every CPU in ring_cpus, offline ones included.
 */

#include <xen/cpu.h>
#include <xen/cpumask.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/notifier.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>
#include <asm/atomic.h>
#include <asm/system.h>

#include "private.h"

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
    uint64_t written;           /* records committed since the last clear */
    atomic_t dropped;           /* events lost while recording was on */
    struct dyntrace_record rec[];
};

/* Records per CPU (a power of two): 2048 x 32 bytes = 64 KiB. */
#define DT_RING_RECORDS 2048

static struct dt_ring *rings[NR_CPUS];
static cpumask_t ring_cpus;
static bool rings_on;
static DEFINE_SPINLOCK(ring_lock);

void dt_ring_record(unsigned long ip, unsigned long parent_ip,
                    unsigned int flags)
{
    unsigned int cpu = smp_processor_id();
    struct dt_ring *r = ACCESS_ONCE(rings[cpu]);
    struct dyntrace_record *rec;
    const struct vcpu *v;
    unsigned int old;

    if ( !r || !ACCESS_ONCE(r->ready) )
        return;

    old = cmpxchg(&r->status, RING_READY, RING_WRITING);
    if ( old != RING_READY )
    {
        if ( old == RING_WRITING || old == RING_HELD_ON )
            atomic_inc(&r->dropped);
        return;
    }

    if ( in_irq() )
        flags |= DT_FLAG_IN_IRQ;
#ifdef CONFIG_X86
    if ( in_nmi_handler() || in_mce_handler() )
        flags |= DT_FLAG_IN_NMI;
#endif

    rec = &r->rec[r->written & r->mask];
    rec->ts = NOW();
    rec->ip = ip;
    rec->parent_ip = parent_ip;
    v = current;
    rec->domid = v->domain->domain_id;
    rec->vcpu = v->vcpu_id;
    rec->cpu = cpu;
    rec->flags = flags;
    rec->pad = 0;

    smp_wmb();
    r->written++;
    smp_mb();
    write_atomic(&r->status, RING_READY);
}

/* Drain and hold a buffer; returns its previous status (READY or OFF). */
static unsigned int ring_hold(struct dt_ring *r)
{
    for ( ;; )
    {
        unsigned int s = read_atomic(&r->status);

        if ( s == RING_WRITING )
        {
            cpu_relax();
            continue;
        }

        ASSERT(s == RING_READY || s == RING_OFF);
        if ( cmpxchg(&r->status, s,
                     s == RING_READY ? RING_HELD_ON : RING_HELD_OFF) == s )
            return s;
    }
}

static void ring_release(struct dt_ring *r, unsigned int s)
{
    smp_mb();
    write_atomic(&r->status, s);
}

int dt_rings_set_on(bool on)
{
    unsigned int cpu;

    if ( !get_cpu_maps() )
        return -EBUSY;
    spin_lock(&ring_lock);

    for_each_cpu ( cpu, &ring_cpus )
    {
        ring_hold(rings[cpu]);
        ring_release(rings[cpu], on ? RING_READY : RING_OFF);
    }
    rings_on = on;

    spin_unlock(&ring_lock);
    put_cpu_maps();

    return 0;
}

/*
 * Clear from inside the livepatch rendezvous: every other CPU is parked, so
 * no writer and no holder can be running, and the master holds the CPU maps.
 */
void dt_rings_reset_quiesced(void)
{
    unsigned int cpu;

    for_each_cpu ( cpu, &ring_cpus )
    {
        ASSERT(rings[cpu]->status != RING_WRITING);
        rings[cpu]->written = 0;
        atomic_set(&rings[cpu]->dropped, 0);
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
        struct dt_ring *r = rings[cpu];
        unsigned int s = ring_hold(r);

        r->written = 0;
        atomic_set(&r->dropped, 0);
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
        vfree(snap->cpu[i].recs);
    vfree(snap);
}

int dt_rings_snapshot(struct dt_ring_snapshot **psnap)
{
    struct dt_ring_snapshot *snap;
    unsigned int cpu, i = 0;
    int rc = 0;

    snap = vzalloc(sizeof(*snap));
    if ( !snap )
        return -ENOMEM;

    if ( !get_cpu_maps() )
    {
        vfree(snap);
        return -EBUSY;
    }

    /* Allocate outside the held window. */
    for_each_cpu ( cpu, &ring_cpus )
    {
        snap->cpu[i].cpu = cpu;
        snap->cpu[i].recs = vmalloc(sizeof(struct dyntrace_record) *
                                    (rings[cpu]->mask + 1));
        if ( !snap->cpu[i].recs )
            rc = -ENOMEM;
        snap->nr_cpus = ++i;
    }
    snap->nr_present = cpumask_weight(&cpu_present_map);

    if ( !rc )
    {
        spin_lock(&ring_lock);
        for ( i = 0; i < snap->nr_cpus; i++ )
        {
            struct dt_ring_copy *c = &snap->cpu[i];
            struct dt_ring *r = rings[c->cpu];
            unsigned int s = ring_hold(r), size = r->mask + 1;
            uint64_t w = r->written;

            c->written = w;
            c->dropped = atomic_read(&r->dropped);
            if ( w <= size )
            {
                c->nr = w;
                memcpy(c->recs, r->rec, w * sizeof(*c->recs));
            }
            else
            {
                unsigned int head = w & r->mask;

                /* Oldest record first: head .. end, then 0 .. head. */
                c->nr = size;
                memcpy(c->recs, &r->rec[head],
                       (size - head) * sizeof(*c->recs));
                memcpy(&c->recs[size - head], r->rec, head * sizeof(*c->recs));
            }
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

static struct dt_ring *ring_alloc(void)
{
    struct dt_ring *r = vzalloc(sizeof(*r) +
                                DT_RING_RECORDS * sizeof(r->rec[0]));

    if ( r )
    {
        r->mask = DT_RING_RECORDS - 1;
        r->status = rings_on ? RING_READY : RING_OFF;
    }

    return r;
}

static int cf_check cpu_callback(struct notifier_block *nfb,
                                 unsigned long action, void *hcpu)
{
    unsigned int cpu = (unsigned long)hcpu;
    struct dt_ring *r = rings[cpu];

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
            smp_wmb();
            rings[cpu] = r;
            cpumask_set_cpu(cpu, &ring_cpus);
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

int __init dt_rings_init(void)
{
    unsigned int cpu;

    for_each_online_cpu ( cpu )
    {
        struct dt_ring *r = ring_alloc();

        if ( !r )
            return -ENOMEM;
        r->ready = true;
        rings[cpu] = r;
        cpumask_set_cpu(cpu, &ring_cpus);
    }
    register_cpu_notifier(&cpu_nfb);

    return 0;
}
