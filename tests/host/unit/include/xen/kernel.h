/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_KERNEL_H__
#define __XEN_KERNEL_H__

#include <xen/types.h>

/* The fake hypervisor text of the harness (image.c). */
extern char _stext[], _etext[];

#define container_of(ptr, type, member) ({                      \
    typeof(((type *)0)->member) *mptr_ = (ptr);                 \
    (type *)((char *)mptr_ - offsetof(type, member)); })

#define min_t(type, x, y) ({ type x_ = (x); type y_ = (y); x_ < y_ ? x_ : y_; })
#define min(x, y) ({ typeof(x) x_ = (x); typeof(y) y_ = (y); (void)(&x_ == &y_); x_ < y_ ? x_ : y_; })
#define max(x, y) ({ typeof(x) x_ = (x); typeof(y) y_ = (y); (void)(&x_ == &y_); x_ > y_ ? x_ : y_; })
#define max_t(type, x, y) ({ type x_ = (x); type y_ = (y); x_ > y_ ? x_ : y_; })

#define SWAP(a, b) do {                         \
    typeof(a) t_ = (a);                         \
    (a) = (b);                                  \
    (b) = t_;                                   \
} while ( 0 )

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

#endif
