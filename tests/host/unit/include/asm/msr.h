/* SPDX-License-Identifier: GPL-2.0-only */
/* The TSC records keep (x86 asm/dyntrace.h): the fake clock at 2 GHz. */
#ifndef __ASM_MSR_H__
#define __ASM_MSR_H__

#include <xen/types.h>

extern s_time_t stub_now_ns;

static inline uint64_t rdtsc_ordered(void)
{
    return (uint64_t)stub_now_ns * 2;
}

#endif
