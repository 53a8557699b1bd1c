/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __ASM_ATOMIC_H__
#define __ASM_ATOMIC_H__

typedef struct {
    int counter;
} atomic_t;

#define atomic_read(v) ((v)->counter)
#define atomic_inc(v) ((v)->counter++)
#define atomic_add(i, v) ((v)->counter += (i))

#endif
