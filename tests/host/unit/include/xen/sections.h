/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_SECTIONS_H__
#define __XEN_SECTIONS_H__

#ifndef __read_mostly
#define __read_mostly
#endif
#define __ro_after_init

#endif
