/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Basic types, for every host harness (tests/host/include: the stub headers
 * they share; each harness's own include directory comes first and holds
 * what it models its own way: CPUs, clocks, barriers, allocation, locks).
 * Only freestanding C headers and a few glibc ones that do not define
 * names the Xen files use (no <limits.h>: function.c defines its own
 * LINE_MAX).
 */
#ifndef __XEN_TYPES_H__
#define __XEN_TYPES_H__

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint16_t domid_t;
typedef int64_t s_time_t;
#define PRI_stime PRId64

#ifndef INT_MAX
#define INT_MAX ((int)(~0U >> 1))
#endif
#ifndef UINT_MAX
#define UINT_MAX (~0U)
#endif

#define BITS_PER_LONG 64
#define BITS_TO_LONGS(bits) (((bits) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ROUNDUP(x, a) (((x) + (a) - 1) & ~((a) - 1))

/* xen/compiler.h */
#define cf_check
#define always_inline inline __attribute__((__always_inline__))
#define noinline      __attribute__((__noinline__))
#define noreturn      __attribute__((__noreturn__))
#define __read_mostly
#define __used        __attribute__((__used__))
#define likely(x)     __builtin_expect(!!(x), 1)
#define unlikely(x)   __builtin_expect(!!(x), 0)
#define barrier()     __asm__ __volatile__ ( "" ::: "memory" )
#define alignof       _Alignof

#endif
