/* SPDX-License-Identifier: GPL-2.0-only */
/* read_atomic()/write_atomic() and atomic_t on GCC's __atomic builtins. */
#ifndef __ASM_ATOMIC_H__
#define __ASM_ATOMIC_H__

#include <xen/types.h>

#define read_atomic(p)      __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define write_atomic(p, x)  __atomic_store_n(p, x, __ATOMIC_RELEASE)

typedef struct {
    int counter;
} atomic_t;

static inline int atomic_read(const atomic_t *v)
{
    return read_atomic(&v->counter);
}

static inline void atomic_set(atomic_t *v, int i)
{
    write_atomic(&v->counter, i);
}

#define ATOMIC_INIT(i) { (i) }

static inline void atomic_inc(atomic_t *v)
{
    __atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline void atomic_add(int i, atomic_t *v)
{
    __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline void atomic_sub(int i, atomic_t *v)
{
    __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST);
}

static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
    __atomic_compare_exchange_n(&v->counter, &old, new, false,
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);

    return old;
}

#endif
