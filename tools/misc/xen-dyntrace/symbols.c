/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Function names.  A capture carries available_functions_addrs ("ADDRESS
 * NAME" per line: each traceable function's patch site), which names every
 * record's ip exactly.  Callers (parent_ip) may be in functions that are not
 * traceable, so they are named only from a full symbol map (--symbols: `nm
 * -n xen-syms` output, "ADDRESS TYPE NAME"); without one they stay
 * addresses rather than be given the wrong name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xen-dyntrace.h"

static int by_addr(const void *a, const void *b)
{
    const struct xdt_sym *x = a, *y = b;

    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * A hexadecimal number of at most 64 bits at p, before end: its value in
 * *val and the byte after its last digit, or NULL if there is no digit or it
 * overflows.  Reads nothing at or beyond end (the text is a chunk of a mapped
 * file: no terminator follows it).
 */
static const char *parse_hex(const char *p, const char *end, uint64_t *val)
{
    const char *start = p;
    uint64_t v = 0;

    for ( ; p < end; p++ )
    {
        unsigned int d;

        if ( *p >= '0' && *p <= '9' )
            d = *p - '0';
        else if ( *p >= 'a' && *p <= 'f' )
            d = *p - 'a' + 10;
        else if ( *p >= 'A' && *p <= 'F' )
            d = *p - 'A' + 10;
        else
            break;
        if ( v >> 60 )
            return NULL;
        v = v << 4 | d;
    }
    *val = v;

    return p > start ? p : NULL;
}

/* A symbol name: printable, no blanks (and no NUL, which would cut it). */
static bool name_ok(const char *p, const char *end)
{
    if ( p >= end )
        return false;
    for ( ; p < end; p++ )
        if ( (unsigned char)*p <= ' ' || *p == 0x7f )
            return false;

    return true;
}

/*
 * Lines "ADDRESS NAME" or, with nm_format, "ADDRESS TYPE NAME" (only text
 * symbols kept); ADDRESS is hexadecimal, fields are separated by one space,
 * the last line may lack its newline.  Only the len bytes of text are read.
 * Returns -1 on a malformed line or no memory.
 */
int xdt_symtab_parse(struct xdt_symtab *t, const char *text, size_t len,
                     bool nm_format)
{
    const char *p = text, *end = text + len;
    size_t cap = 0;

    t->sym = NULL;
    t->nr = 0;
    while ( p < end )
    {
        const char *nl = memchr(p, '\n', end - p);
        const char *eol = nl ? nl : end, *q, *name;
        uint64_t addr;

        if ( p == eol )
        {
            p++;
            continue;
        }
        q = parse_hex(p, eol, &addr);
        if ( !q || eol - q < 2 || *q != ' ' )
            goto bad;
        q++;
        if ( nm_format )
        {
            char type = *q;

            if ( eol - q < 3 || q[1] != ' ' )
                goto bad;
            q += 2;
            if ( !memchr("tTwW", type, 4) )
            {
                p = nl ? nl + 1 : end;
                continue;
            }
        }
        name = q;
        if ( !name_ok(name, eol) )
            goto bad;
        if ( t->nr == cap )
        {
            struct xdt_sym *n;

            cap = cap ? cap * 2 : 4096;
            n = realloc(t->sym, cap * sizeof(*n));
            if ( !n )
                goto bad;
            t->sym = n;
        }
        t->sym[t->nr].addr = addr;
        t->sym[t->nr].name = strndup(name, eol - name);
        if ( !t->sym[t->nr].name )
            goto bad;
        t->nr++;
        p = nl ? nl + 1 : end;
    }
    /* An empty list has no array: qsort() must not be given NULL. */
    if ( t->nr )
        qsort(t->sym, t->nr, sizeof(*t->sym), by_addr);

    return 0;

 bad:
    xdt_symtab_free(t);
    return -1;
}

int xdt_symtab_load(struct xdt_symtab *t, const char *path)
{
    FILE *f = fopen(path, "r");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    int rc;

    if ( !f )
    {
        xdt_err("%s: %s", path, strerror(errno));
        return -1;
    }
    for ( ;; )
    {
        if ( cap - len < 65536 )
        {
            char *b = realloc(buf, cap + 1048576);

            if ( !b )
            {
                free(buf);
                fclose(f);
                xdt_err("%s: out of memory", path);
                return -1;
            }
            buf = b;
            cap += 1048576;
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
        if ( !n )
            break;
    }
    fclose(f);
    rc = xdt_symtab_parse(t, buf, len, true);
    free(buf);
    if ( rc || !t->nr )
    {
        xdt_err("%s: not a symbol map (expected `nm -n xen-syms` lines: "
                "ADDRESS TYPE NAME)", path);
        return -1;
    }

    return 0;
}

/* Index of the last symbol at or below addr, or -1. */
static long floor_index(const struct xdt_symtab *t, uint64_t addr)
{
    size_t lo = 0, hi = t->nr;

    while ( lo < hi )
    {
        size_t mid = lo + (hi - lo) / 2;

        if ( t->sym[mid].addr <= addr )
            lo = mid + 1;
        else
            hi = mid;
    }

    return (long)lo - 1;
}

const char *xdt_symtab_exact(const struct xdt_symtab *t, uint64_t addr)
{
    long i = floor_index(t, addr);

    return i >= 0 && t->sym[i].addr == addr ? t->sym[i].name : NULL;
}

const char *xdt_symtab_lookup(const struct xdt_symtab *t, uint64_t addr,
                              uint64_t *off)
{
    long i = floor_index(t, addr);

    if ( i < 0 )
        return NULL;
    *off = addr - t->sym[i].addr;

    return t->sym[i].name;
}

void xdt_symtab_free(struct xdt_symtab *t)
{
    size_t i;

    for ( i = 0; i < t->nr; i++ )
        free(t->sym[i].name);
    free(t->sym);
    t->sym = NULL;
    t->nr = 0;
}

void xdt_name_ip(const struct xdt_names *n, uint64_t ip, char *buf,
                 size_t len)
{
    const char *s = xdt_symtab_exact(&n->cap->funcs, ip);
    uint64_t off;

    if ( !s && n->map.nr )
        s = xdt_symtab_lookup(&n->map, ip, &off);
    if ( s )
        snprintf(buf, len, "%s", s);
    else
        snprintf(buf, len, "0x%" PRIx64, ip);
}

/* As the hypervisor's trace: the caller's name, without the offset. */
void xdt_name_parent(const struct xdt_names *n, uint64_t ip, char *buf,
                     size_t len)
{
    uint64_t off;
    const char *s = n->map.nr ? xdt_symtab_lookup(&n->map, ip, &off) : NULL;

    if ( s )
        snprintf(buf, len, "%s", s);
    else
        snprintf(buf, len, "0x%" PRIx64, ip);
}

void xdt_context(const struct xen_dyntrace_record *r, char *buf, size_t len)
{
    if ( r->domid == XDT_DOMID_IDLE )
        snprintf(buf, len, "<idle>");
    else
        snprintf(buf, len, "d%uv%u", r->domid, r->vcpu);
}

bool xdt_retval_error(uint64_t v, long *err)
{
    /* An int's error leaves the upper half 0 on x86 (ftrace's test too). */
    long e = (v >> 32) ? (long)v : (long)(int32_t)v;

    *err = e;

    return e < 0 && e >= -4095;
}

/*
 * Xen's error values are Linux's (public/errno.h): glibc names them, with
 * no header of Xen's needed (the NO_HYPFS=1 build has none).
 */
void xdt_retval_text(uint64_t v, char *buf, size_t len)
{
    const char *name;
    long e;

    if ( !xdt_retval_error(v, &e) )
        snprintf(buf, len, "0x%" PRIx64, v);
    else if ( (name = strerrorname_np(-e)) != NULL )
        snprintf(buf, len, "%ld (%s)", e, name);
    else
        snprintf(buf, len, "%ld", e);
}
