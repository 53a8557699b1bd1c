/* SPDX-License-Identifier: GPL-2.0-only */
/* The hypercall Xen's common/hypfs.c defines, as xen/hypercall.h declares it. */
#ifndef __XEN_HYPERCALL_H__
#define __XEN_HYPERCALL_H__

#include <xen/guest_access.h>
/* Xen's common/hypfs.c gets xmalloc() through Xen's headers: here. */
#include <xen/xmalloc.h>
#include <xsm/xsm.h>          /* as Xen's hypercall.h */

long do_hypfs_op(unsigned int cmd, XEN_GUEST_HANDLE_PARAM(const_char) arg1,
                 unsigned long arg2, XEN_GUEST_HANDLE_PARAM(void) arg3,
                 unsigned long arg4);

#endif
