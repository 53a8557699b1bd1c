/* SPDX-License-Identifier: GPL-2.0-only */
/* A one-word cpumask (NR_CPUS <= 64) with Xen's interface. */
#ifndef __XEN_CPUMASK_H__
#define __XEN_CPUMASK_H__

#include <xen/types.h>

typedef struct cpumask {
    unsigned long bits[1];
} cpumask_t;

_Static_assert(NR_CPUS <= 64, "one-word cpumask");

extern unsigned int nr_cpu_ids;
extern cpumask_t cpu_online_map, cpu_present_map;

/* Xen's set_bit()/clear_bit() are atomic (locked) read-modify-writes. */
static inline void cpumask_set_cpu(int cpu, cpumask_t *dstp)
{
    __atomic_fetch_or(&dstp->bits[0], 1UL << cpu, __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_cpu(int cpu, cpumask_t *dstp)
{
    __atomic_fetch_and(&dstp->bits[0], ~(1UL << cpu), __ATOMIC_SEQ_CST);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const cpumask_t *srcp)
{
    return (srcp->bits[0] >> cpu) & 1;
}

static inline int cpumask_next(int n, const cpumask_t *srcp)
{
    for ( n++; n < (int)nr_cpu_ids; n++ )
        if ( cpumask_test_cpu(n, srcp) )
            break;
    return n;
}

static inline int cpumask_first(const cpumask_t *srcp)
{
    return cpumask_next(-1, srcp);
}

static inline int cpumask_weight(const cpumask_t *srcp)
{
    return __builtin_popcountl(srcp->bits[0]);
}

#define for_each_cpu(cpu, mask)             \
    for ( (cpu) = cpumask_first(mask);      \
          (cpu) < nr_cpu_ids;               \
          (cpu) = cpumask_next(cpu, mask) )

#define for_each_online_cpu(cpu) for_each_cpu(cpu, &cpu_online_map)

#endif
