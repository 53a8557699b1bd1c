/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_LIB_H__
#define __XEN_LIB_H__

#include <string.h>
#include <xen/types.h>
#include "ring-stress.h"

/* Always checked here (Xen: debug builds); a failure counts as an anomaly. */
#define ASSERT(p) do {                                           \
    if ( unlikely(!(p)) )                                        \
        stub_assert_failed(#p, __FILE__, __LINE__);              \
} while ( 0 )

#define __ACCESS_ONCE(x) ({                             \
            (void)(typeof(x))0; /* Scalar typecheck. */ \
            (volatile typeof(x) *)&(x); })
#define ACCESS_ONCE(x) (*__ACCESS_ONCE(x))

#ifndef min
#define min(x, y) ((x) < (y) ? (x) : (y))
#define max(x, y) ((x) > (y) ? (x) : (y))
#endif
#define min_t(type, x, y) ((type)(x) < (type)(y) ? (type)(x) : (type)(y))
#define max_t(type, x, y) ((type)(x) > (type)(y) ? (type)(x) : (type)(y))
#ifndef DIV_ROUND_UP
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#endif

#define XENLOG_WARNING "<W>"
#define printk stub_printk

#endif
