/* SPDX-License-Identifier: GPL-2.0-only */
/* Guest handles are plain pointers into the harness's "guest" buffers. */
#ifndef __XEN_GUEST_ACCESS_H__
#define __XEN_GUEST_ACCESS_H__

#include <xen/types.h>

typedef void *stub_guest_handle_void;
typedef const void *stub_guest_handle_const_void;
typedef const char *stub_guest_handle_const_char;
#define XEN_GUEST_HANDLE_PARAM(type) stub_guest_handle_##type

/* Both return the number of bytes not copied, as Xen's do. */
unsigned long stub_copy_to_guest(void *to, const void *from, size_t n);
unsigned long stub_copy_from_guest(void *to, const void *from, size_t n);

#define copy_to_guest(hnd, ptr, nr) \
    stub_copy_to_guest(hnd, ptr, (nr) * sizeof(*(ptr)))
#define copy_from_guest(ptr, hnd, nr) \
    stub_copy_from_guest(ptr, hnd, (nr) * sizeof(*(ptr)))

/*
 * What Xen's common/hypfs.c uses besides.  As Xen's, copy_to_guest_offset()
 * counts the offset in elements of what it copies.
 */
#define copy_to_guest_offset(hnd, off, ptr, nr) \
    stub_copy_to_guest((char *)(hnd) + (off) * sizeof(*(ptr)), ptr, \
                       (nr) * sizeof(*(ptr)))
#define guest_handle_add_offset(hnd, nr) \
    ((void)((hnd) = (void *)((char *)(hnd) + (nr))))
#define guest_handle_is_null(hnd) ((hnd) == NULL)
#define guest_handle_const_cast(hnd, type) ((const type *)(hnd))

#endif
