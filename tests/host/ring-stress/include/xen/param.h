/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_PARAM_H__
#define __XEN_PARAM_H__

/* Boot parameters: the host tests keep each variable's default. */
#define size_param(name, var)
#define integer_param(name, var)

#endif
