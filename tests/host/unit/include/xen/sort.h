/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sort() as staging's xen/sort.h declares it (the swap callback takes no
 * size): a heapsort, as Xen's.
 */
#ifndef __XEN_SORT_H__
#define __XEN_SORT_H__

#include <stddef.h>

static inline void sort_sift(char *b, size_t size, size_t root, size_t n,
                             int (*cmp)(const void *a, const void *b),
                             void (*swap)(void *a, void *b))
{
    size_t child;

    for ( ; (child = 2 * root + 1) < n; root = child )
    {
        if ( child + 1 < n && cmp(b + child * size, b + (child + 1) * size) < 0 )
            child++;
        if ( cmp(b + root * size, b + child * size) >= 0 )
            return;
        swap(b + root * size, b + child * size);
    }
}

static inline void sort(void *base, size_t num, size_t size,
                        int (*cmp)(const void *a, const void *b),
                        void (*swap)(void *a, void *b))
{
    char *b = base;
    size_t i;

    for ( i = num / 2; i-- > 0; )
        sort_sift(b, size, i, num, cmp, swap);
    for ( i = num; i-- > 1; )
    {
        swap(b, b + i * size);
        sort_sift(b, size, 0, i, cmp, swap);
    }
}

#endif /* __XEN_SORT_H__ */
