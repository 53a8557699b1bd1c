/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_XMALLOC_H__
#define __XEN_XMALLOC_H__

#include <xen/vmap.h>

/* The same allocator (and failure injection) as vmalloc. */
#define xzalloc(type) ((type *)vzalloc(sizeof(type)))
#define xzalloc_array(type, n) ((type *)vzalloc(sizeof(type) * (n)))
#define xfree vfree

#endif
