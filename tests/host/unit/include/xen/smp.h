/* SPDX-License-Identifier: GPL-2.0-only */
/* The calling thread's simulated CPU (see unit-stub.h). */
#ifndef __XEN_SMP_H__
#define __XEN_SMP_H__

#include <xen/types.h>

extern __thread unsigned int stub_cpu;

#define smp_processor_id() (stub_cpu)

#endif
