/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interface between the stub headers (what ring.c sees of "Xen") and the
 * stress harness (stress.c, stubs.c).
 *
 * A harness thread stands for one CPU: smp_processor_id(), current, in_irq()
 * and NOW() read its thread-local state.  The stubs of the primitives that
 * a write (dt_ring_reserve(), filling the slot, dt_ring_commit()) calls in
 * the middle are also "interrupt
 * points": when the harness has armed one (stub_inject_at), the stub runs a
 * nested writer on the same thread right there, exactly as an NMI arriving at
 * that instruction would.
 */
#ifndef RING_STRESS_H
#define RING_STRESS_H

#include <stddef.h>
#include <stdint.h>

enum stub_point {
    STUB_AT_NONE,
    STUB_AT_ENTRY,      /* smp_processor_id(): before the cmpxchg */
    STUB_AT_IN_IRQ,     /* in_irq(): WRITING taken, slot untouched */
    STUB_AT_NOW,        /* NOW(): first field of the slot */
    STUB_AT_CURRENT,    /* current: ts/ip/parent_ip written, rest not */
    STUB_AT_WMB,        /* smp_wmb(): slot filled, count not published */
    STUB_AT_MB,         /* smp_mb(): count published, status still WRITING */
    STUB_AT_NR
};

struct vcpu;

extern __thread unsigned int stub_cpu;
extern __thread int stub_inject_at;
extern __thread unsigned int stub_irq_count, stub_nmi_count, stub_mce_count;
/* Make the Nth allocation from now fail (1: the next one); 0: none. */
extern __thread unsigned int stub_alloc_fail_in;

void stub_interrupt(enum stub_point at);
const struct vcpu *stub_current(void);
int64_t stub_now(void);
void stub_assert_failed(const char *expr, const char *file, int line);
void stub_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int stub_cpu_notify(unsigned int cpu, unsigned long action);
size_t stub_alloc_size(const void *p);
void stub_init(void);

static inline void stub_point(enum stub_point at)
{
    if ( __builtin_expect(stub_inject_at == (int)at, 0) )
        stub_interrupt(at);
}

#endif /* RING_STRESS_H */
