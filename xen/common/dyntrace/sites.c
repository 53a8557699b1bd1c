/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the table of patch sites.
 *
 * Built at boot (presmp, one CPU) from the compiler's
 * __patchable_function_entries table: the sites inside [_stext, _etext),
 * sorted, with their symbol names (patch.c then makes them untraced
 * instructions).  If anything fails here, the table stays
 * empty and the tracer is simply absent.
 */

#include <xen/bitmap.h>
#include <xen/bug.h>
#include <xen/dyntrace.h>
#include <xen/errno.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sort.h>
#include <xen/symbols.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>

#include "sites.h"

/* The compiler's table of patch sites (in .init.data). */
extern const unsigned long __patchable_function_entries_start[];
extern const unsigned long __patchable_function_entries_end[];
#define table_start __patchable_function_entries_start
#define table_end   __patchable_function_entries_end

static unsigned long *sites;
static unsigned int nr_sites;
static unsigned int *site_name;         /* offset of each name in names */
static char *names;                     /* NUL-separated, in site order */
static unsigned long *traced_map;       /* sites patched (patch.c) */

unsigned int dt_sites_nr(void)
{
    return nr_sites;
}

unsigned long dt_site_addr(unsigned int i)
{
    ASSERT(i < nr_sites);
    return sites[i];
}

const char *dt_site_name(unsigned int i)
{
    ASSERT(i < nr_sites);
    return names + site_name[i];
}

const unsigned long *dt_sites_table(void)
{
    return sites;
}

unsigned long *dt_sites_traced(void)
{
    return traced_map;
}

/* Index of the first site that ends after addr (nr_sites if none). */
static unsigned int first_site_ending_after(unsigned long addr)
{
    unsigned int lo = 0, hi = nr_sites;

    while ( lo < hi )
    {
        unsigned int mid = lo + (hi - lo) / 2;

        if ( sites[mid] + DYNTRACE_SITE_SIZE <= addr )
            lo = mid + 1;
        else
            hi = mid;
    }

    return lo;
}

int dt_site_index(unsigned long addr)
{
    unsigned int i = first_site_ending_after(addr);

    return i < nr_sites && sites[i] == addr ? (int)i : -1;
}

/* Any overlap counts: a range starting inside a site is traced too. */
bool dyntrace_range_is_traced(unsigned long start, unsigned long end)
{
    unsigned int i;

    if ( !nr_sites )
        return false;
    for ( i = first_site_ending_after(start);
          i < nr_sites && sites[i] < end; i++ )
        if ( test_bit(i, traced_map) )
            return true;

    return false;
}

const char *dyntrace_symbol(unsigned long addr, char *namebuf)
{
    unsigned long size, offset;
    const char *name = symbols_lookup(addr, &size, &offset, namebuf);

    if ( !name )
    {
        snprintf(namebuf, KSYM_NAME_LEN + 1, "%#lx", addr);
        name = namebuf;
    }

    return name;
}

/* Shell-style match of '*' (any run) and '?' (one character). */
static bool glob_match(const char *pat, const char *s)
{
    const char *star = NULL, *resume = NULL;

    while ( *s )
    {
        if ( *pat == '*' )
        {
            star = ++pat;
            resume = s;
        }
        else if ( *pat == '?' || *pat == *s )
        {
            pat++;
            s++;
        }
        else if ( star )
        {
            pat = star;
            s = ++resume;
        }
        else
            return false;
    }
    while ( *pat == '*' )
        pat++;

    return !*pat;
}

int dt_sites_select(const char *word, unsigned long *map,
                    dt_site_pred_t *usable, bool add)
{
    bool found = false, glob = strpbrk(word, "*?");
    unsigned int i;

    if ( !*word )
        return -EINVAL;

    for ( i = 0; i < nr_sites; i++ )
    {
        const char *n = dt_site_name(i), *hash = strchr(n, '#');
        bool ok;

        if ( glob ? !glob_match(word, n) &&
                    (!hash || !glob_match(word, hash + 1))
                  : strcmp(n, word) && (!hash || strcmp(hash + 1, word)) )
            continue;
        if ( !add )
        {
            __clear_bit(i, map);
            found = true;
            continue;
        }
        ok = usable(i);
        if ( !ok && !glob )
            return -EEXIST;     /* E.g. rewritten by a livepatch. */
        if ( !ok )
            continue;
        __set_bit(i, map);
        found = true;
    }
    if ( !found && glob )
        return -ENOENT;
    if ( !found )
        /* A known symbol without a site is not traceable. */
        return symbols_lookup_by_name(word) ? -EPERM : -ENOENT;

    return 0;
}

/*
 * The filter language: whitespace-separated words, applied left to right.
 * "name" or "pattern" (or "+name", "+pattern") adds the sites it selects,
 * "!name" or "!pattern" removes them.  The write starts from the empty set
 * (it replaces the set), unless its first word starts with '+' or '!': then
 * it starts from cur and edits it in place.
 */
int dt_sites_parse(char *text, unsigned long *map, const unsigned long *cur,
                   dt_site_pred_t *usable, const char **bad)
{
    char *p = text, *word;
    bool first = true;

    bitmap_zero(map, nr_sites);
    while ( (word = strsep(&p, " \t\n")) != NULL )
    {
        int rc;

        if ( !*word )
            continue;
        if ( first && (*word == '+' || *word == '!') )
            bitmap_copy(map, cur, nr_sites);
        first = false;

        if ( *word == '!' )
            rc = dt_sites_select(word + 1, map, usable, false);
        else
            rc = dt_sites_select(*word == '+' ? word + 1 : word, map, usable,
                                 true);
        if ( rc )
        {
            *bad = word;
            return rc;
        }
    }

    return 0;
}

char *dt_sites_names(const unsigned long *map)
{
    unsigned long len = 1;
    unsigned int i;
    char *out;

    for ( i = 0; i < nr_sites; i++ )
        if ( !map || test_bit(i, map) )
            len += strlen(dt_site_name(i)) + 1;
    out = xzalloc_array(char, len);
    if ( !out )
        return NULL;
    for ( len = 0, i = 0; i < nr_sites; i++ )
        if ( !map || test_bit(i, map) )
        {
            const char *n = dt_site_name(i);

            if ( len )
                out[len++] = '\n';
            memcpy(out + len, n, strlen(n) + 1);
            len += strlen(n);
        }

    return out;
}

static int __init cf_check cmp_site(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

    return x < y ? -1 : x > y;
}

#ifdef DYNTRACE_BASE_SORT_SWAP_SIZE
static void __init cf_check swap_site(void *a, void *b, size_t size)
#else
static void __init cf_check swap_site(void *a, void *b)
#endif
{
    SWAP(*(unsigned long *)a, *(unsigned long *)b);
}

static bool __init in_text(unsigned long addr)
{
    return addr >= (unsigned long)_stext && addr < (unsigned long)_etext;
}

static void __init free_table(void)
{
    xfree(sites);
    xfree(site_name);
    xfree(traced_map);
    vfree(names);
    sites = NULL;
    site_name = NULL;
    traced_map = NULL;
    names = NULL;
}

static int __init build_site_table(unsigned long *tab, unsigned int n)
{
    char namebuf[KSYM_NAME_LEN + 1];
    unsigned long len = 0;
    unsigned int i;

    sort(tab, n, sizeof(*tab), cmp_site, swap_site);

    for ( i = 0; i < n; i++ )
        len += strlen(dyntrace_symbol(tab[i], namebuf)) + 1;

    sites = tab;
    site_name = xmalloc_array(unsigned int, n);
    traced_map = xzalloc_array(unsigned long, BITS_TO_LONGS(n));
    names = vmalloc(len);
    if ( !site_name || !traced_map || !names )
        return -ENOMEM;

    for ( len = 0, i = 0; i < n; i++ )
    {
        const char *name = dyntrace_symbol(tab[i], namebuf);

        site_name[i] = len;
        memcpy(names + len, name, strlen(name) + 1);
        len += strlen(name) + 1;
    }

    return 0;
}

int __init dt_sites_init(void)
{
    const unsigned long *p;
    unsigned long *tab;
    unsigned int n = 0;
    int rc;

    /* Sites in .init.text are dropped: init memory is freed after boot. */
    for ( p = table_start; p < table_end; p++ )
        if ( in_text(*p) )
            n++;
    if ( !n )
    {
        printk(XENLOG_WARNING "dyntrace: no patch sites, tracer absent\n");
        return -ENODEV;
    }

    tab = xmalloc_array(unsigned long, n);
    if ( !tab )
        goto nomem;
    for ( n = 0, p = table_start; p < table_end; p++ )
        if ( in_text(*p) )
            tab[n++] = *p;

    rc = build_site_table(tab, n);
    if ( rc )
        goto nomem;
    nr_sites = n;

    printk(XENLOG_INFO "dyntrace: %u traceable functions\n", nr_sites);

    return 0;

 nomem:
    free_table();
    printk(XENLOG_ERR "dyntrace: out of memory, tracer absent\n");
    return -ENOMEM;
}
