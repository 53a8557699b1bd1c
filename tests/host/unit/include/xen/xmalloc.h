/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xmalloc() and friends: accounted, with failure injection (stubs.c).
 * Memory from xmalloc must go back through xfree and memory from vmalloc
 * through vfree: a mix-up is recorded as an anomaly.
 */
#ifndef __XEN_XMALLOC_H__
#define __XEN_XMALLOC_H__

#include <xen/types.h>
#include <xen/vmap.h>

void *stub_xmalloc(size_t size, bool zero);
void *stub_xmalloc_array(size_t size, size_t num, bool zero);
void xfree(void *p);

#define xmalloc(type)  ((type *)stub_xmalloc(sizeof(type), false))
#define xzalloc(type)  ((type *)stub_xmalloc(sizeof(type), true))
#define xmalloc_array(type, num) \
    ((type *)stub_xmalloc_array(sizeof(type), num, false))
#define xzalloc_array(type, num) \
    ((type *)stub_xmalloc_array(sizeof(type), num, true))
#define XFREE(p) do { xfree(p); (p) = NULL; } while ( 0 )

#endif
