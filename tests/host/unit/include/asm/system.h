/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmpxchg (returns the value found, as Xen's), barriers, and the calling
 * thread's simulated interrupt flag (stub_irqs_enabled, unit-stub.h).
 */
#ifndef __ASM_SYSTEM_H__
#define __ASM_SYSTEM_H__

#include <xen/types.h>

#define cmpxchg(ptr, o, n) ({                                          \
    typeof(*(ptr)) o_ = (o);                                           \
    __atomic_compare_exchange_n(ptr, &o_, n, false,                    \
                                __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);   \
    o_;                                                                \
})

#define smp_mb()   __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_wmb()  __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb()  __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define cpu_relax() barrier()

#define arch_fetch_and_add(ptr, v) \
    __atomic_fetch_add(ptr, v, __ATOMIC_SEQ_CST)

extern __thread bool stub_irqs_enabled;

#define local_irq_is_enabled() (stub_irqs_enabled)
#define local_irq_disable()    ((void)(stub_irqs_enabled = false))
#define local_irq_enable()     ((void)(stub_irqs_enabled = true))
/* The flags local_irq_save() returns: X86_EFLAGS_IF, or not. */
#define X86_EFLAGS_IF          0x00000200
#define local_irq_save(flags) do {                  \
    (flags) = stub_irqs_enabled ? X86_EFLAGS_IF : 0; \
    stub_irqs_enabled = false;                      \
} while ( 0 )
#define local_irq_restore(flags) do {               \
    stub_irqs_enabled = !!(flags);                  \
} while ( 0 )

#endif
