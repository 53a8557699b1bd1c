/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_TYPES_H__
#define __XEN_TYPES_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>

typedef int64_t s_time_t;

/* xen/compiler.h */
#define cf_check
#define noreturn __attribute__((__noreturn__))
#define always_inline inline __attribute__((__always_inline__))
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#endif
