/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU maps and hotplug notifiers.  get_cpu_maps() is a read trylock of a
 * writer-preferring pthread rwlock (Xen: read_trylock of cpu_add_remove_lock,
 * which fails while a writer waits or holds it); cpu_hotplug_begin/done take
 * it for writing.  The harness drives hotplug through stub_cpu_notify() in
 * Xen's order: CPU_UP_PREPARE, CPU_STARTING (on the CPU), CPU_ONLINE;
 * CPU_DOWN_PREPARE, CPU_DYING (on the CPU), CPU_DEAD.
 */
#ifndef __XEN_CPU_H__
#define __XEN_CPU_H__

#include <xen/types.h>
#include <xen/spinlock.h>
#include <xen/notifier.h>

bool get_cpu_maps(void);
void put_cpu_maps(void);
void cpu_hotplug_begin(void);
void cpu_hotplug_done(void);
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
