/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU maps and hotplug notifiers.  get_cpu_maps() fails while the harness
 * brings a CPU up (stub_cpu_up(): maps held for writing) or when a test
 * makes it fail (stub_cpu_maps_busy).
 */
#ifndef __XEN_CPU_H__
#define __XEN_CPU_H__

#include <xen/notifier.h>
#include <xen/types.h>

bool get_cpu_maps(void);
void put_cpu_maps(void);
void register_cpu_notifier(struct notifier_block *nb);

#define CPU_UP_PREPARE    (0x0001 | NOTIFY_FORWARD)
#define CPU_UP_CANCELED   (0x0002 | NOTIFY_REVERSE)
#define CPU_STARTING      (0x0003 | NOTIFY_FORWARD)
#define CPU_ONLINE        (0x0004 | NOTIFY_FORWARD)
#define CPU_DOWN_PREPARE  (0x0005 | NOTIFY_REVERSE)
#define CPU_DOWN_FAILED   (0x0006 | NOTIFY_FORWARD)
#define CPU_DYING         (0x0007 | NOTIFY_REVERSE)
#define CPU_DEAD          (0x0008 | NOTIFY_REVERSE)

#endif
