/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NOW() is the harness's fake clock (stub_now_ns), advanced by the tests;
 * calling it in NMI/MCE context is recorded as an anomaly (issue 15,
 * defect 11: it may read a torn calibration there).
 */
#ifndef __XEN_TIME_H__
#define __XEN_TIME_H__

#include <xen/types.h>

s_time_t stub_NOW(void);
s_time_t get_s_time_fixed(uint64_t stamp);
extern unsigned long cpu_khz;
extern s_time_t stub_calibration_ns;

#define NOW()            stub_NOW()
#define SECONDS(_s)      ((s_time_t)((_s) * 1000000000ULL))
#define MILLISECS(_ms)   ((s_time_t)((_ms) * 1000000ULL))
#define MICROSECS(_us)   ((s_time_t)((_us) * 1000ULL))

#endif
