/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What Xen's public/hypfs.h, and through it xen/hypfs.h, take from its
 * "xen.h" (public/xen.h), for the host tests: the integer types, the
 * flexible array's dimension and the guest handles (the harness's, as
 * xen/guest_access.h has them).  Found through -iquote, so that Xen's own
 * public/hypfs.h is used unmodified.
 */
#ifndef __XEN_PUBLIC_XEN_H__
#define __XEN_PUBLIC_XEN_H__

#include <xen/guest_access.h>
#include <xen/types.h>

#define XEN_FLEX_ARRAY_DIM

#endif
