/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpxchg (seq_cst, returns the value found, as Xen's) and the barriers.
 *
 * smp_wmb()/smp_mb() are thread fences, and interrupt points of the writer.
 * ThreadSanitizer does not model fences (GCC warns, -Wtsan), so under TSan
 * they are compiler-only barriers: every happens-before edge TSan checks
 * comes from the release/acquire of write_atomic/read_atomic/cmpxchg, and
 * the fences' own role (the ordering on weakly ordered CPUs, where Xen's
 * write_atomic is relaxed) is what the Spin model (tests/model/ring.pml)
 * checks instead.
 *
 * cpu_relax() yields: on a 2-core host a holder spinning on WRITING must let
 * a preempted writer finish (in Xen the writer has IRQs off).
 */
#ifndef __ASM_SYSTEM_H__
#define __ASM_SYSTEM_H__

#include <sched.h>
#include <xen/types.h>
#include "ring-stress.h"

#define cmpxchg(ptr, o, n) ({                                          \
    typeof(*(ptr)) o_ = (o);                                           \
    __atomic_compare_exchange_n(ptr, &o_, n, false,                    \
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
    o_;                                                                \
})

#ifdef __SANITIZE_THREAD__
# define stub_fence(mo) __atomic_signal_fence(mo)
#else
# define stub_fence(mo) __atomic_thread_fence(mo)
#endif

#define smp_mb()  do {                          \
    stub_point(STUB_AT_MB);                     \
    stub_fence(__ATOMIC_SEQ_CST);               \
} while ( 0 )
#define smp_wmb() do {                          \
    stub_point(STUB_AT_WMB);                    \
    stub_fence(__ATOMIC_RELEASE);               \
} while ( 0 )
#define smp_rmb() stub_fence(__ATOMIC_ACQUIRE)

#define cpu_relax() sched_yield()

/* Xen: lock xadd (x86), __sync_fetch_and_add (Arm). */
#define arch_fetch_and_add(ptr, v) \
    __atomic_fetch_add(ptr, v, __ATOMIC_SEQ_CST)

/* Every harness writer stands for a callback, run with IRQs off. */
#define local_irq_is_enabled() false

#endif
