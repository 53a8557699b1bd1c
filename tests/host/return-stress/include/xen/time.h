/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_TIME_H__
#define __XEN_TIME_H__
#include <xen/types.h>
#endif
