/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_NOTIFIER_H__
#define __XEN_NOTIFIER_H__

#include <xen/types.h>

struct notifier_block {
    int (*notifier_call)(struct notifier_block *nfb, unsigned long action,
                         void *hcpu);
    struct notifier_block *next;
    int priority;
};

#define NOTIFY_DONE      0x0000
#define NOTIFY_FORWARD   0x0000
#define NOTIFY_REVERSE   0x8000

#endif
