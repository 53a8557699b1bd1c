/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_TYPES_H__
#define __XEN_TYPES_H__

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>

typedef uint16_t domid_t;
typedef int64_t s_time_t;

/* xen/compiler.h */
#define cf_check
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#define barrier()   __asm__ __volatile__ ( "" ::: "memory" )

#define __read_mostly

#endif
