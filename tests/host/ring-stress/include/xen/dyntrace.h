/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What ring.c uses of xen/dyntrace.h: the clock anchors' conversion and the
 * NMI test of dt_ring_anchor()'s ASSERT.  The harness's records are
 * numbered (their "stamp" is the number); its writers take anchors of
 * those stamps, whose "NOW()" is stamp * 3 + 1, so that a reader can tell
 * a torn anchor.
 */
#ifndef XEN_DYNTRACE_H
#define XEN_DYNTRACE_H

#include <xen/time.h>
#include <asm/hardirq.h>

static inline bool arch_dyntrace_in_nmi(void)
{
    return in_nmi_handler() || in_mce_handler();
}

static inline unsigned long arch_dyntrace_stamp_khz(void)
{
    return 1000000;
}

static inline s_time_t arch_dyntrace_stamp_to_ns(uint64_t stamp)
{
    return stamp * 3 + 1;
}

#endif
