/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-CPU variables: arrays indexed by the simulated CPU. */
#ifndef __XEN_PERCPU_H__
#define __XEN_PERCPU_H__

#include <xen/smp.h>

#define DEFINE_PER_CPU(type, name) typeof(type) per_cpu__##name[NR_CPUS]
#define DECLARE_PER_CPU(type, name) extern typeof(type) per_cpu__##name[NR_CPUS]
#define per_cpu(name, cpu) (per_cpu__##name[cpu])
#define this_cpu(name) per_cpu(name, smp_processor_id())

#endif
