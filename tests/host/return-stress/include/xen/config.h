/* SPDX-License-Identifier: GPL-2.0-only */
/* Host stand-in for Xen's xen/config.h (forced with -include, as Xen does). */
#ifndef __XEN_CONFIG_H__
#define __XEN_CONFIG_H__

#define CONFIG_LIVEPATCH_TRACER 1

#endif
