/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The points where the harness lets an NMI in (stub_nmi_point()): every
 * compiler barrier of return.c, and IRQs being disabled (which do not stop
 * an NMI).  The harness's callbacks run with IRQs off, as Xen's do.
 */
#ifndef __ASM_SYSTEM_H__
#define __ASM_SYSTEM_H__

#include <xen/types.h>

#include "return-stress.h"

/* Here, unlike the shared xen/types.h's, a barrier is an NMI point. */
#undef barrier
#define barrier() do {                                  \
    __asm__ __volatile__ ( "" ::: "memory" );           \
    stub_nmi_point();                                   \
    __asm__ __volatile__ ( "" ::: "memory" );           \
} while ( 0 )

#define local_irq_is_enabled() false
#define local_irq_save(f) do { (f) = 0; stub_nmi_point(); } while ( 0 )
#define local_irq_restore(f) do { (void)(f); stub_nmi_point(); } while ( 0 )

#endif
