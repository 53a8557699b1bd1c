/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NOW() is the harness's per-CPU clock: it numbers the records accepted on
 * this CPU (see stress.c) and is an interrupt point.
 */
#ifndef __XEN_TIME_H__
#define __XEN_TIME_H__

#include <xen/types.h>
#include "ring-stress.h"

#define NOW()           ((s_time_t)stub_now())
#define SECONDS(_s)     ((s_time_t)((_s) * 1000000000ULL))

#endif
