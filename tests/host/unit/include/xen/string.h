/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_STRING_H__
#define __XEN_STRING_H__

#include <string.h>

#endif
