/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_LIB_H__
#define __XEN_LIB_H__

#include <xen/types.h>
#include "return-stress.h"

#define ASSERT(p) do {                                           \
    if ( unlikely(!(p)) )                                        \
        stub_assert_failed(#p, __FILE__, __LINE__);              \
} while ( 0 )

#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define panic stub_panic
#define smp_processor_id() 0

#endif
