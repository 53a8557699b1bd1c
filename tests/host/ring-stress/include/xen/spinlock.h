/* SPDX-License-Identifier: GPL-2.0-only */
/* Spinlocks as pthread mutexes (non-recursive, like Xen's). */
#ifndef __XEN_SPINLOCK_H__
#define __XEN_SPINLOCK_H__

#include <pthread.h>
#include <xen/types.h>

typedef struct {
    pthread_mutex_t m;
    bool locked;                /* for spin_is_locked() */
} spinlock_t;

#define DEFINE_SPINLOCK(l) spinlock_t l = { PTHREAD_MUTEX_INITIALIZER, false }

static inline void spin_lock(spinlock_t *l)
{
    pthread_mutex_lock(&l->m);
    __atomic_store_n(&l->locked, true, __ATOMIC_RELAXED);
}

static inline void spin_unlock(spinlock_t *l)
{
    __atomic_store_n(&l->locked, false, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&l->m);
}

static inline bool spin_is_locked(const spinlock_t *l)
{
    return __atomic_load_n(&l->locked, __ATOMIC_RELAXED);
}

#endif
