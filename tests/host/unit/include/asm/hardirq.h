/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The calling thread's simulated interrupt context.  in_irq(), and
 * local_irq_count() through which function.c asks it of the CPU it knows,
 * are also the hook through which a test makes an "NMI" arrive in the
 * middle of a record's write (stub_nested_writes, unit-stub.h).
 */
#ifndef __ASM_HARDIRQ_H__
#define __ASM_HARDIRQ_H__

#include <xen/types.h>

extern __thread unsigned int stub_irq_count, stub_nmi_count, stub_mce_count;
bool stub_in_irq(void);

#define in_irq()          stub_in_irq()
#define local_irq_count(cpu) ((void)(cpu), stub_in_irq())
#define in_nmi_handler()  (stub_nmi_count != 0)
#define in_mce_handler()  (stub_mce_count != 0)
#define nmi_count(cpu)    ((void)(cpu), stub_nmi_count)
#define mce_count(cpu)    ((void)(cpu), stub_mce_count)

#endif
