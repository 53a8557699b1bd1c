/* SPDX-License-Identifier: GPL-2.0-only */
/* Symbol lookups over the harness's fake symbol table (image.c). */
#ifndef __XEN_SYMBOLS_H__
#define __XEN_SYMBOLS_H__

#include <xen/types.h>

#define KSYM_NAME_LEN 127

const char *symbols_lookup(unsigned long addr, unsigned long *symbolsize,
                           unsigned long *offset, char *namebuf);
unsigned long symbols_lookup_by_name(const char *symname);

#endif
