/* SPDX-License-Identifier: GPL-2.0-only */
/* cpumask_t of NR_CPUS bits (as many words as needed) with Xen's interface. */
#ifndef __XEN_CPUMASK_H__
#define __XEN_CPUMASK_H__

#include <xen/bitmap.h>
#include <xen/types.h>

typedef struct cpumask {
    unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
} cpumask_t;

extern unsigned int nr_cpu_ids;
extern cpumask_t cpu_online_map, cpu_present_map;

static inline void cpumask_set_cpu(unsigned int cpu, cpumask_t *dstp)
{
    __atomic_fetch_or(&dstp->bits[BIT_WORD(cpu)], BIT_MASK(cpu),
                      __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_cpu(unsigned int cpu, cpumask_t *dstp)
{
    __atomic_fetch_and(&dstp->bits[BIT_WORD(cpu)], ~BIT_MASK(cpu),
                       __ATOMIC_SEQ_CST);
}

static inline bool cpumask_test_and_set_cpu(unsigned int cpu, cpumask_t *dstp)
{
    return __atomic_fetch_or(&dstp->bits[BIT_WORD(cpu)], BIT_MASK(cpu),
                             __ATOMIC_SEQ_CST) & BIT_MASK(cpu);
}

static inline bool cpumask_test_and_clear_cpu(unsigned int cpu,
                                              cpumask_t *dstp)
{
    return __atomic_fetch_and(&dstp->bits[BIT_WORD(cpu)], ~BIT_MASK(cpu),
                              __ATOMIC_SEQ_CST) & BIT_MASK(cpu);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const cpumask_t *srcp)
{
    return stub_test_bit(cpu, srcp->bits);
}

static inline unsigned int cpumask_next(int n, const cpumask_t *srcp)
{
    unsigned int i;

    for ( i = n + 1; i < nr_cpu_ids; i++ )
        if ( cpumask_test_cpu(i, srcp) )
            return i;

    return nr_cpu_ids;
}

static inline void cpumask_copy(cpumask_t *dstp, const cpumask_t *srcp)
{
    *dstp = *srcp;
}

static inline unsigned int cpumask_first(const cpumask_t *srcp)
{
    return cpumask_next(-1, srcp);
}

static inline unsigned int cpumask_weight(const cpumask_t *srcp)
{
    unsigned int i, w = 0;

    for ( i = 0; i < BITS_TO_LONGS(NR_CPUS); i++ )
        w += __builtin_popcountl(srcp->bits[i]);

    return w;
}

#define for_each_cpu(cpu, mask)             \
    for ( (cpu) = cpumask_first(mask);      \
          (cpu) < nr_cpu_ids;               \
          (cpu) = cpumask_next(cpu, mask) )

#define for_each_online_cpu(cpu) for_each_cpu(cpu, &cpu_online_map)
#define cpu_online(cpu)  cpumask_test_cpu(cpu, &cpu_online_map)
#define cpu_present(cpu) cpumask_test_cpu(cpu, &cpu_present_map)

#endif
