/* SPDX-License-Identifier: GPL-2.0-only */
/* Bit operations and bitmaps with Xen's interface (words of unsigned long). */
#ifndef __XEN_BITMAP_H__
#define __XEN_BITMAP_H__

#include <string.h>
#include <xen/types.h>

#define BIT_WORD(nr)  ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)  (1UL << ((nr) % BITS_PER_LONG))

static inline bool stub_test_bit(unsigned long nr, const unsigned long *a)
{
    return (a[BIT_WORD(nr)] & BIT_MASK(nr)) != 0;
}

static inline void stub_set_bit(unsigned long nr, unsigned long *a)
{
    a[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void stub_clear_bit(unsigned long nr, unsigned long *a)
{
    a[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

#define test_bit(nr, addr)    stub_test_bit(nr, (const unsigned long *)(addr))
#define __set_bit(nr, addr)   stub_set_bit(nr, (unsigned long *)(addr))
#define __clear_bit(nr, addr) stub_clear_bit(nr, (unsigned long *)(addr))

/* Mask of the bits of the last word that belong to an nbits bitmap. */
static inline unsigned long stub_last_word_mask(unsigned int nbits)
{
    return nbits % BITS_PER_LONG ? BIT_MASK(nbits) - 1 : ~0UL;
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
                               unsigned int nbits)
{
    memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline bool bitmap_equal(const unsigned long *a, const unsigned long *b,
                                unsigned int nbits)
{
    unsigned int i, n = nbits / BITS_PER_LONG;

    for ( i = 0; i < n; i++ )
        if ( a[i] != b[i] )
            return false;

    return !(nbits % BITS_PER_LONG) ||
           !((a[n] ^ b[n]) & stub_last_word_mask(nbits));
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
    memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_andnot(unsigned long *dst, const unsigned long *a,
                                 const unsigned long *b, unsigned int nbits)
{
    unsigned int i;

    for ( i = 0; i < BITS_TO_LONGS(nbits); i++ )
        dst[i] = a[i] & ~b[i];
}

static inline bool bitmap_empty(const unsigned long *a, unsigned int nbits)
{
    unsigned int i, n = nbits / BITS_PER_LONG;

    for ( i = 0; i < n; i++ )
        if ( a[i] )
            return false;

    return !(nbits % BITS_PER_LONG) || !(a[n] & stub_last_word_mask(nbits));
}

static inline unsigned int bitmap_weight(const unsigned long *a,
                                         unsigned int nbits)
{
    unsigned int i, w = 0;

    for ( i = 0; i < nbits; i++ )
        w += !!(a[i / BITS_PER_LONG] & (1UL << (i % BITS_PER_LONG)));

    return w;
}

#endif
