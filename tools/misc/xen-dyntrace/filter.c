/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which records of a capture report and export show (--cpu, -d, -F, --from,
 * --to, --max-records).  Every option narrows: a record is shown when its
 * CPU is in the CPU list, its context matches the domain words as
 * set_domain_filter's would, its function matches the patterns, and its
 * time is within [from, to].  A loss marker follows the CPU and time tests
 * only: a gap in a CPU's records is worth knowing whatever else is shown.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "xen-dyntrace.h"

#define MAX_DOM_WORDS 64

static int add_cpu_range(struct xdt_filter *f, unsigned long lo,
                         unsigned long hi)
{
    if ( !f->cpus )
    {
        f->cpus = calloc(XDT_MAX_CPUS / 8, 1);
        if ( !f->cpus )
            return -1;
    }
    for ( ; lo <= hi; lo++ )
        f->cpus[lo / 8] |= 1u << (lo % 8);

    return 0;
}

/* "0,2-3" (',' or ':' between items); may be given again. */
int xdt_filter_cpus(struct xdt_filter *f, const char *list)
{
    const char *p = list;

    do {
        unsigned long lo, hi;
        char *e;

        if ( *p < '0' || *p > '9' )
            goto bad;
        errno = 0;
        lo = hi = strtoul(p, &e, 10);
        if ( *e == '-' )
        {
            if ( e[1] < '0' || e[1] > '9' )
                goto bad;
            hi = strtoul(e + 1, &e, 10);
        }
        if ( errno || lo > hi || hi >= XDT_MAX_CPUS )
            goto bad;
        if ( add_cpu_range(f, lo, hi) )
        {
            xdt_err("out of memory");
            return -1;
        }
        p = e;
    } while ( (*p == ',' || *p == ':') && *++p );
    if ( *p )
        goto bad;

    return 0;

 bad:
    xdt_err("--cpu %s: not a list of CPUs below %u (e.g. 0,2-3)", list,
            XDT_MAX_CPUS);
    return -1;
}

/* set_domain_filter's words: d<D>, d<D>v<V>, idle, each maybe with '!'. */
int xdt_filter_domains(struct xdt_filter *f, const char *words)
{
    char *copy = strdup(words), *w, *save = NULL;

    if ( !copy )
        return -1;
    for ( w = strtok_r(copy, " \t\n", &save); w;
          w = strtok_r(NULL, " \t\n", &save) )
    {
        struct xdt_dom_word d = { .vcpu = -1 };
        const char *p = w;
        unsigned long v;
        char *e;

        if ( *p == '!' )
            d.neg = true, p++;
        if ( !strcmp(p, "idle") || !strcmp(p, "<idle>") )
            d.domid = XDT_DOMID_IDLE;
        else
        {
            if ( *p != 'd' || p[1] < '0' || p[1] > '9' )
                goto bad;
            errno = 0;
            v = strtoul(p + 1, &e, 10);
            if ( errno || v >= XDT_DOMID_IDLE )
                goto bad;
            d.domid = v;
            if ( *e == 'v' )
            {
                if ( e[1] < '0' || e[1] > '9' )
                    goto bad;
                v = strtoul(e + 1, &e, 10);
                if ( errno || v > 0xffff )
                    goto bad;
                d.vcpu = v;
            }
            if ( *e )
                goto bad;
        }
        if ( f->nr_doms == MAX_DOM_WORDS )
        {
            xdt_err("-d: at most %u words", MAX_DOM_WORDS);
            free(copy);
            return -1;
        }
        if ( !f->doms && !(f->doms = calloc(MAX_DOM_WORDS, sizeof(d))) )
        {
            free(copy);
            return -1;
        }
        f->doms[f->nr_doms++] = d;
        f->dom_pos += !d.neg;
        continue;

 bad:
        xdt_err("-d: '%s' is not a domain word (d3, d3v1, idle, !d0)", w);
        free(copy);
        return -1;
    }
    free(copy);

    return 0;
}

/* Glob patterns as set_function_filter's ('*', '?', '[...]', '!pat'). */
int xdt_filter_funcs(struct xdt_filter *f, const char *patterns)
{
    char *copy = strdup(patterns), *w, *save = NULL;

    if ( !copy )
        return -1;
    for ( w = strtok_r(copy, " \t\n", &save); w;
          w = strtok_r(NULL, " \t\n", &save) )
    {
        char **n = realloc(f->funcs, (f->nr_funcs + 1) * sizeof(*n));

        if ( !n || !(n[f->nr_funcs] = strdup(w)) )
        {
            if ( n )
                f->funcs = n;
            free(copy);
            return -1;
        }
        f->funcs = n;
        if ( w[0] == '!' && !w[1] )
        {
            xdt_err("-F: '!' needs a pattern after it");
            free(n[f->nr_funcs]);
            free(copy);
            return -1;
        }
        f->func_pos += w[0] != '!';
        f->nr_funcs++;
    }
    free(copy);

    return 0;
}

/*
 * A time in seconds of Xen's system time, as report prints it: digits, an
 * optional fraction of up to 9 digits.  Exact (no floating point).
 */
int xdt_parse_time(const char *s, uint64_t *ns)
{
    const char *p = s;
    uint64_t sec = 0, frac = 0;
    unsigned int digits = 0;

    if ( *p < '0' || *p > '9' )
        return -1;
    for ( ; *p >= '0' && *p <= '9'; p++ )
    {
        if ( sec > (UINT64_MAX / 1000000000ULL - 9) / 10 )
            return -1;
        sec = sec * 10 + (*p - '0');
    }
    if ( *p == '.' )
        for ( p++; *p >= '0' && *p <= '9'; p++ )
        {
            if ( ++digits > 9 )
                return -1;
            frac = frac * 10 + (*p - '0');
        }
    if ( *p )
        return -1;
    for ( ; digits < 9; digits++ )
        frac *= 10;
    *ns = sec * 1000000000ULL + frac;

    return 0;
}

int xdt_parse_seconds(const char *s, double *seconds)
{
    char *e;

    *seconds = strtod(s, &e);

    return e == s || *e || !(*seconds > 0) || *seconds > 1e7 ? -1 : 0;
}

bool xdt_filter_active(const struct xdt_filter *f)
{
    return f && (f->cpus || f->nr_doms || f->nr_funcs || f->has_from ||
                 f->has_to);
}

static bool dom_match(const struct xdt_dom_word *d,
                      const struct xen_dyntrace_record *r)
{
    return d->domid == r->domid && (d->vcpu < 0 || d->vcpu == r->vcpu);
}

bool xdt_filter_pass(const struct xdt_filter *f, const struct xdt_capture *c,
                     const struct xdt_event *e)
{
    const struct xen_dyntrace_record *r = &e->rec;
    size_t i;

    if ( !f )
        return true;
    if ( f->cpus && !(f->cpus[r->cpu / 8] & (1u << (r->cpu % 8))) )
        return false;
    if ( (f->has_from && r->ts < f->from) || (f->has_to && r->ts > f->to) )
        return false;
    if ( e->lost )
        return true;
    if ( f->nr_doms )
    {
        bool any = !f->dom_pos;

        for ( i = 0; i < f->nr_doms; i++ )
            if ( dom_match(&f->doms[i], r) )
            {
                if ( f->doms[i].neg )
                    return false;
                any = true;
            }
        if ( !any )
            return false;
    }
    /* -F names functions: events pass it (as set_event and the filter). */
    if ( f->nr_funcs && !xdt_is_event(r) )
    {
        const char *name = xdt_symtab_exact(&c->funcs, r->ip);
        char hex[24];
        bool any = !f->func_pos;

        if ( !name )
        {
            snprintf(hex, sizeof(hex), "0x%" PRIx64, r->ip);
            name = hex;
        }
        for ( i = 0; i < f->nr_funcs; i++ )
        {
            const char *pat = f->funcs[i];
            bool neg = pat[0] == '!';

            if ( fnmatch(pat + neg, name, 0) )
                continue;
            if ( neg )
                return false;
            any = true;
        }
        if ( !any )
            return false;
    }

    return true;
}

void xdt_filter_free(struct xdt_filter *f)
{
    size_t i;

    free(f->cpus);
    free(f->doms);
    for ( i = 0; i < f->nr_funcs; i++ )
        free(f->funcs[i]);
    free(f->funcs);
    memset(f, 0, sizeof(*f));
}
