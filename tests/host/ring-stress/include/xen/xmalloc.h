/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_XMALLOC_H__
#define __XEN_XMALLOC_H__

#include <xen/vmap.h>

#endif
