/* SPDX-License-Identifier: GPL-2.0-only */
/* The architecture as return.c sees it: x86's return hooking. */
#ifndef __ASM_DYNTRACE_H__
#define __ASM_DYNTRACE_H__

#include "return-stress.h"

#define DYNTRACE_SITE_SIZE 5
#define ARCH_DYNTRACE_RETURN 1

/* As x86's: a backtrace's slot is the frame itself. */
static inline bool arch_dyntrace_ret_frame_is(unsigned long frame,
                                              const void *slot)
{
    return frame == (unsigned long)slot;
}

/* In the harness's NMI; also a point where one may come. */
static inline bool arch_dyntrace_in_nmi(void)
{
    return stub_in_nmi();
}

#endif
