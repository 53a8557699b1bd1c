/* SPDX-License-Identifier: GPL-2.0-only */
/* One CPU: its per-CPU variables are plain variables. */
#ifndef __XEN_PERCPU_H__
#define __XEN_PERCPU_H__
#define DEFINE_PER_CPU(type, name) __typeof__(type) per_cpu__##name
#define DECLARE_PER_CPU(type, name) extern __typeof__(type) per_cpu__##name
#define this_cpu(name) per_cpu__##name
#define per_cpu(name, cpu) (*((void)(cpu), &per_cpu__##name))
#endif
