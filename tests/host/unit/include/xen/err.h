/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_ERR_H__
#define __XEN_ERR_H__

#include <xen/types.h>

#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x) unlikely((unsigned long)(x) >= -(unsigned long)MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
    return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
    return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
    return IS_ERR_VALUE(ptr);
}

#endif
