/* SPDX-License-Identifier: GPL-2.0-only */
/* dyntrace: the table of patch sites (sites.c). */
#ifndef DYNTRACE_SITES_H
#define DYNTRACE_SITES_H

#include <xen/types.h>

/*
 * Build the table from the linker's list of patchable entries, at boot
 * (patch.c's initcall, which then makes every site the untraced
 * instruction(s)).  Without sites the tracer stays absent: 0 sites.
 */
int dt_sites_init(void);
/* Sites kept at boot (0: the tracer is absent), indexed in address order. */
unsigned int dt_sites_nr(void);
unsigned long dt_site_addr(unsigned int i);
/* All dt_sites_nr() addresses, sorted. */
const unsigned long *dt_sites_table(void);
const char *dt_site_name(unsigned int i);
/* The index of the site at addr, or -1 (any context: no lock, no write). */
int dt_site_index(unsigned long addr);

/*
 * Which sites are traced (patched).  Changed only in the livepatch
 * rendezvous, by patch.c; a bitmap of dt_sites_nr() bits.
 */
unsigned long *dt_sites_traced(void);

/*
 * Select in map (add true) or remove from map (add false) every site named
 * word ("file.c#func" or "func"), or, if word holds '*' or '?', matching it.
 * Errors: -EINVAL (an empty word), -ENOENT (nothing of that name, or a
 * pattern matching nothing), -EPERM (a known symbol without a site),
 * -EEXIST (adding a named site that usable() refuses, e.g. rewritten by a
 * livepatch; patterns skip those).
 */
typedef bool dt_site_pred_t(unsigned int i);
int dt_sites_select(const char *word, unsigned long *map,
                    dt_site_pred_t *usable, bool add);

/*
 * Parse a set written in the filter language (sites.c) into map: words
 * applied left to right; "!word" removes, "+word" or "word" adds; a text
 * whose first word starts with '+' or '!' edits cur, any other replaces it.
 * text is modified.  Errors as dt_sites_select(); *bad then points to the
 * word that failed (inside text).
 */
int dt_sites_parse(char *text, unsigned long *map, const unsigned long *cur,
                   dt_site_pred_t *usable, const char **bad);

/* The names of the sites in map (all if NULL), one per line; xfree() it. */
char *dt_sites_names(const unsigned long *map);

#endif /* DYNTRACE_SITES_H */
