/* SPDX-License-Identifier: GPL-2.0-only */
/* current and smp_processor_id(): the harness thread's simulated CPU. */
#ifndef __XEN_SCHED_H__
#define __XEN_SCHED_H__

#include <xen/types.h>
#include <asm/hardirq.h>
#include "ring-stress.h"

struct domain {
    domid_t domain_id;
};

struct vcpu {
    int vcpu_id;
    struct domain *domain;
};

#define smp_processor_id() (stub_point(STUB_AT_ENTRY), stub_cpu)
#define current            (stub_point(STUB_AT_CURRENT), stub_current())

#endif
