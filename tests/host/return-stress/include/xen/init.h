/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_INIT_H__
#define __XEN_INIT_H__
#define __init
#endif
