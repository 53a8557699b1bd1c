/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Spinlocks.  The harness runs hypervisor code on one thread at a time, so
 * a lock found taken means the caller would deadlock on itself: that aborts
 * the test.  spin_lock() is also a preemption point of the race tests
 * (stub_preempt_point(), taken only while the caller holds no lock).
 */
#ifndef __XEN_SPINLOCK_H__
#define __XEN_SPINLOCK_H__

#include <xen/types.h>
#include <asm/system.h>

typedef struct {
    bool locked;
} spinlock_t;

#define DEFINE_SPINLOCK(l) spinlock_t l = { false }

void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);

/* With IRQs off meanwhile, as Xen's (asm/system.h: the stub IRQ flag). */
#define spin_lock_irqsave(l, flags) do {                                     \
    local_irq_save(flags);                                                    \
    spin_lock(l);                                                             \
} while ( 0 )
#define spin_unlock_irqrestore(l, flags) do {                                \
    spin_unlock(l);                                                           \
    local_irq_restore(flags);                                                 \
} while ( 0 )

static inline bool spin_is_locked(const spinlock_t *l)
{
    return __atomic_load_n(&l->locked, __ATOMIC_RELAXED);
}

#endif
