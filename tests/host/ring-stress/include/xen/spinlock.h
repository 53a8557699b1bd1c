/* SPDX-License-Identifier: GPL-2.0-only */
/* Spinlocks as pthread mutexes (non-recursive, like Xen's). */
#ifndef __XEN_SPINLOCK_H__
#define __XEN_SPINLOCK_H__

#include <pthread.h>
#include <xen/types.h>

typedef struct {
    pthread_mutex_t m;
} spinlock_t;

#define DEFINE_SPINLOCK(l) spinlock_t l = { PTHREAD_MUTEX_INITIALIZER }

static inline void spin_lock(spinlock_t *l)
{
    pthread_mutex_lock(&l->m);
}

static inline void spin_unlock(spinlock_t *l)
{
    pthread_mutex_unlock(&l->m);
}

#endif
