/* SPDX-License-Identifier: GPL-2.0-only */
/* xen-dyntrace: the table of patch sites (sites.c). */
#ifndef DYNTRACE_SITES_H
#define DYNTRACE_SITES_H

#include <xen/types.h>

/* Sites kept at boot (0: the tracer is absent), indexed in address order. */
unsigned int dt_sites_nr(void);
unsigned long dt_site_addr(unsigned int i);
const char *dt_site_name(unsigned int i);

/*
 * Which sites are traced (patched).  Changed only in the livepatch
 * rendezvous, by patch.c; a bitmap of dt_sites_nr() bits.
 */
unsigned long *dt_sites_traced(void);

/*
 * Select in map every site named word ("file.c#func" or "func"), or, if
 * word holds '*' or '?', matching it.  Errors: -ENOENT (nothing of that
 * name, or a pattern matching nothing), -EPERM (a known symbol without a
 * site), -EEXIST (named site rewritten by a livepatch; patterns skip them).
 */
int dt_sites_select(const char *word, unsigned long *map);

/* The names of the sites in map (all if NULL), one per line; xfree() it. */
char *dt_sites_names(const unsigned long *map);

#endif /* DYNTRACE_SITES_H */
