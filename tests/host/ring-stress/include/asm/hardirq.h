/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __ASM_HARDIRQ_H__
#define __ASM_HARDIRQ_H__

#include "ring-stress.h"

#define in_irq()          (stub_point(STUB_AT_IN_IRQ), stub_irq_count != 0)
#define in_nmi_handler()  (stub_nmi_count != 0)
#define in_mce_handler()  (stub_mce_count != 0)

#endif
