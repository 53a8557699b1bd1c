/* SPDX-License-Identifier: GPL-2.0-only */
/* vmalloc() and friends: accounted, with failure injection (stubs.c). */
#ifndef __XEN_VMAP_H__
#define __XEN_VMAP_H__

#include <xen/types.h>

void *vmalloc(size_t size);
void *vzalloc(size_t size);
void vfree(void *va);

#endif
