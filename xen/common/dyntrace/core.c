/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace core: the table of patch sites, the tracer registry, patching
 * through the livepatch rendezvous, and the HypFS /tracing interface.
 *
 * Patch changes (a tracer switch, a filter change under a tracer that uses
 * it) are requested by a HypFS write, which holds the HypFS lock and must not
 * wait for a rendezvous.  The write callback validates the request, marks an
 * operation pending and hands it to continue_hypercall_on_cpu(): once HypFS
 * has dropped its lock, the calling vCPU is paused and the continuation runs
 * in the idle vCPU of CPU 0, where it takes part in the livepatch
 * rendezvous (livepatch_run_quiesced()).  The write's result is the
 * continuation's, so when the tool's write returns the change is done or
 * failed.  See docs/design.md of xen-dyntrace.
 */

#include <xen/bitmap.h>
#include <xen/ctype.h>
#include <xen/err.h>
#include <xen/guest_access.h>
#include <xen/hypfs.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/livepatch.h>
#include <xen/percpu.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/symbols.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>

#include "private.h"

#define MAX_TRACERS      8
#define FILTER_MAX_WRITE 4096
#define TRACER_MAX_WRITE 64

/* The compiler's table of patch sites (in .init.data). */
extern const unsigned long __patchable_function_entries_start[], __patchable_function_entries_end[];

/* Sites kept at boot: function entries in .text, sorted. */
static unsigned long *sites;
static unsigned int nr_sites;
static unsigned int *site_name;         /* offset of each name in avail_text */
static char *avail_text;                /* available_functions */
static char tracers_text[MAX_TRACERS * 16];

static struct tracer *tracers[MAX_TRACERS];
static unsigned int nr_tracers;

/*
 * Committed state.  state_lock guards it against HypFS readers: it changes
 * in the continuation, outside the HypFS lock.  Writers are serialised by
 * the HypFS write lock plus op_pending.
 */
static DEFINE_SPINLOCK(state_lock);
static struct tracer *cur_tracer;
static unsigned long *filter_map;       /* sites selected by the filter */
static char *filter_text;               /* their names, as read back */
static bool op_pending;
static bool tracing_on_val;
/*
 * Bumped by every change a reader of trace could see: a clear, a tracer
 * switch, tracing_on.  A snapshot kept for a retry is served only while it
 * is unchanged (see snap_exit()).
 */
static unsigned int trace_gen;

/* Changed only inside the rendezvous. */
static unsigned long *patched_map;
static void (*active_func)(unsigned long, unsigned long, unsigned int);

/* ---- sites ---- */

/*
 * Heapsort of the site addresses.  Not Xen's sort(): its swap callback
 * differs between releases, and this file builds on several.
 */
static void __init sift_down(unsigned long *a, unsigned int root,
                             unsigned int n)
{
    unsigned int child;

    for ( ; (child = 2 * root + 1) < n; root = child )
    {
        unsigned long t;

        if ( child + 1 < n && a[child + 1] > a[child] )
            child++;
        if ( a[root] >= a[child] )
            break;
        t = a[root];
        a[root] = a[child];
        a[child] = t;
    }
}

static void __init sort_sites(unsigned long *a, unsigned int n)
{
    unsigned int i;

    for ( i = n / 2; i-- > 0; )
        sift_down(a, i, n);
    for ( i = n; i-- > 1; )
    {
        unsigned long t = a[0];

        a[0] = a[i];
        a[i] = t;
        sift_down(a, 0, i);
    }
}

static const char *site_to_name(unsigned int i)
{
    return avail_text + site_name[i];
}

/* Index of the site in [start, end), or -1. */
static int site_in_range(unsigned long start, unsigned long end)
{
    unsigned int lo = 0, hi = nr_sites;

    while ( lo < hi )
    {
        unsigned int mid = (lo + hi) / 2;

        if ( sites[mid] < start )
            lo = mid + 1;
        else
            hi = mid;
    }

    return (lo < nr_sites && sites[lo] < end) ? lo : -1;
}

bool dyntrace_range_is_traced(unsigned long start, unsigned long end)
{
    int i;

    if ( !patched_map )
        return false;
    for ( i = site_in_range(start, end); i >= 0 && i < nr_sites &&
                                         sites[i] < end; i++ )
        if ( test_bit(i, patched_map) )
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

static int __init build_site_table(void)
{
    const unsigned long *p;
    unsigned int i, n = 0;
    unsigned long len = 1;
    char namebuf[KSYM_NAME_LEN + 1];

    for ( p = __patchable_function_entries_start; p < __patchable_function_entries_end; p++ )
        if ( *p >= (unsigned long)_stext && *p < (unsigned long)_etext )
            n++;

    sites = xmalloc_array(unsigned long, n);
    site_name = xmalloc_array(unsigned int, n);
    if ( !sites || !site_name )
        return -ENOMEM;

    /* Sites in .init.text are dropped: init memory is freed after boot. */
    for ( p = __patchable_function_entries_start; p < __patchable_function_entries_end; p++ )
        if ( *p >= (unsigned long)_stext && *p < (unsigned long)_etext )
            sites[nr_sites++] = *p;
    sort_sites(sites, nr_sites);

    for ( i = 0; i < nr_sites; i++ )
        len += strlen(dyntrace_symbol(sites[i], namebuf)) + 1;
    avail_text = vmalloc(len);
    if ( !avail_text )
        return -ENOMEM;
    for ( len = 0, i = 0; i < nr_sites; i++ )
    {
        const char *n = dyntrace_symbol(sites[i], namebuf);

        site_name[i] = len;
        memcpy(avail_text + len, n, strlen(n) + 1);
        len += strlen(n) + 1;
    }
    /* avail_text holds NUL-separated names; the HypFS copy uses newlines. */
    return 0;
}

/* ---- tracers ---- */

void __init dyntrace_register_tracer(struct tracer *t)
{
    if ( nr_tracers == MAX_TRACERS )
    {
        printk(XENLOG_ERR "dyntrace: too many tracers, %s dropped\n", t->name);
        return;
    }
    tracers[nr_tracers++] = t;
    if ( !cur_tracer )
        cur_tracer = t;
}

static struct tracer *find_tracer(const char *name)
{
    unsigned int i;

    for ( i = 0; i < nr_tracers; i++ )
        if ( !strcmp(tracers[i]->name, name) )
            return tracers[i];

    return NULL;
}

/* ---- the dispatcher, called by the trampoline ---- */

void dyntrace_dispatch(unsigned long ip, unsigned long parent_ip)
{
    void (*fn)(unsigned long, unsigned long, unsigned int) =
        ACCESS_ONCE(active_func);
    unsigned long flags;
    unsigned int ctx;

    if ( !fn )
        return;

    ctx = local_irq_is_enabled() ? 0 : DT_FLAG_IRQS_OFF;
    local_irq_save(flags);
    fn(ip, parent_ip, ctx);
    local_irq_restore(flags);
}

/* ---- patching ---- */

/* The one pending operation (op_pending). */
static struct {
    struct tracer *tracer;      /* tracer after the operation */
    unsigned long *filter;      /* filter after the operation */
    char *filter_text;
    unsigned long *want;        /* patched sites after the operation */
    unsigned long *orig;        /* patched sites before it */
    bool switching;             /* tracer changes: clear the buffers */
    unsigned int changed;       /* entries rewritten by the last attempt */
} req;

/* Arm has no __change_bit(). */
static void flip_bit(unsigned int nr, unsigned long *map)
{
    if ( test_bit(nr, map) )
        __clear_bit(nr, map);
    else
        __set_bit(nr, map);
}

/* Runs on the master of the rendezvous, every other CPU parked. */
static int cf_check apply_quiesced(void *unused)
{
    unsigned int i, done;
    int rc;

    rc = arch_livepatch_quiesce();
    if ( rc )
        return rc;

    req.changed = 0;
    for ( i = 0; i < nr_sites; i++ )
    {
        bool want = test_bit(i, req.want);

        if ( want == test_bit(i, patched_map) )
            continue;
        rc = arch_dyntrace_patch(sites[i], want);
        if ( rc )
            break;
        flip_bit(i, patched_map);
        req.changed++;
    }

    if ( rc )
    {
        /* All or nothing: put back what was changed. */
        printk(XENLOG_WARNING "dyntrace: %s has unexpected bytes (rc %d)\n",
               site_to_name(i), rc);
        for ( done = 0; done < i; done++ )
        {
            bool orig = test_bit(done, req.orig);

            if ( orig == test_bit(done, patched_map) )
                continue;
            arch_dyntrace_patch(sites[done], orig);
            flip_bit(done, patched_map);
        }
    }
    else
    {
        active_func = bitmap_empty(patched_map, nr_sites) ? NULL
                                                         : req.tracer->func;
        if ( req.switching )
            dt_rings_reset_quiesced();
    }

    arch_livepatch_revive();

    return rc;
}

static void free_request(void)
{
    xfree(req.filter);
    xfree(req.want);
    xfree(req.orig);
    xfree(req.filter_text);
    req.filter = req.want = req.orig = NULL;
    req.filter_text = NULL;
}

static long cf_check patch_continuation(void *unused)
{
    unsigned int tries;
    uint32_t timeout = MILLISECS(50);
    s_time_t start = NOW();
    bool change = !bitmap_equal(req.want, patched_map, nr_sites) ||
                  req.switching;
    int rc = 0;

    bitmap_copy(req.orig, patched_map, nr_sites);

    /* The rendezvous's wait for the other CPUs may expire on an emulated,
     * overcommitted machine: retry with a longer wait. */
    for ( tries = 0; change; tries++ )
    {
        rc = livepatch_run_quiesced("dyntrace", apply_quiesced, NULL, timeout);
        if ( rc != -ETIMEDOUT || tries == 6 )
            break;
        timeout = min_t(uint64_t, timeout * 2, MILLISECS(2000));
    }

    /* For operators and the benchmarks: the cost of one operation. */
    printk(XENLOG_DEBUG
           "dyntrace: %u entries rewritten, %u rendezvous, %"PRI_stime
           " us, rc %d\n", change && !rc ? req.changed : 0, tries + change,
           (NOW() - start) / 1000, rc);

    spin_lock(&state_lock);
    if ( !rc )
    {
        if ( req.switching )
            trace_gen++;
        cur_tracer = req.tracer;
        bitmap_copy(filter_map, req.filter, nr_sites);
        SWAP(filter_text, req.filter_text);
    }
    /*
     * req belongs to the pending operation: free it before the next writer
     * can see op_pending clear and fill it in.
     */
    free_request();
    op_pending = false;
    spin_unlock(&state_lock);

    if ( rc )
        printk(XENLOG_WARNING "dyntrace: patching failed: %d\n", rc);

    return rc;
}

/*
 * Start an operation towards tracer t with filter f (ownership of f and
 * ftext passes here).  Called under the HypFS write lock.
 */
static int request(struct tracer *t, unsigned long *f, char *ftext)
{
    unsigned long *want = xzalloc_array(unsigned long,
                                        BITS_TO_LONGS(nr_sites));
    unsigned long *orig = xzalloc_array(unsigned long,
                                        BITS_TO_LONGS(nr_sites));
    int rc;

    if ( !want || !orig )
    {
        xfree(want);
        xfree(orig);
        xfree(f);
        xfree(ftext);
        return -ENOMEM;
    }
    if ( t->func && t->uses_filter )
        bitmap_copy(want, f, nr_sites);

    spin_lock(&state_lock);
    if ( op_pending )
    {
        spin_unlock(&state_lock);
        xfree(want);
        xfree(orig);
        xfree(f);
        xfree(ftext);
        return -EBUSY;
    }
    req.switching = t != cur_tracer;
    if ( !req.switching && bitmap_equal(want, patched_map, nr_sites) )
    {
        /* Nothing to patch (e.g. the filter under nop): commit now. */
        bitmap_copy(filter_map, f, nr_sites);
        SWAP(filter_text, ftext);
        spin_unlock(&state_lock);
        xfree(want);
        xfree(orig);
        xfree(f);
        xfree(ftext);
        return 0;
    }
    op_pending = true;
    spin_unlock(&state_lock);

    req.tracer = t;
    req.filter = f;
    req.filter_text = ftext;
    req.want = want;
    req.orig = orig;

    /*
     * On CPU 0, which never goes offline: a continuation queued on a CPU
     * that is taken down before it runs is moved to another CPU and not run
     * (the write would fail -EINVAL with the operation left pending).
     */
    rc = continue_hypercall_on_cpu(0, patch_continuation, NULL);
    if ( rc )
    {
        spin_lock(&state_lock);
        free_request();
        op_pending = false;
        spin_unlock(&state_lock);
    }

    return rc;
}

/* ---- HypFS ---- */

/* Copy a written string: NUL-terminated exactly at its end, at most max. */
static char *copy_string(XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                         unsigned int ulen, unsigned int max, int *rc)
{
    char *buf;

    *rc = -ENOSPC;
    if ( ulen > max )
        return NULL;
    *rc = -EINVAL;
    if ( !ulen )
        return NULL;
    *rc = -ENOMEM;
    buf = xmalloc_array(char, ulen);
    if ( !buf )
        return NULL;
    *rc = -EFAULT;
    if ( copy_from_guest(buf, uaddr, ulen) )
        goto fail;
    *rc = -EINVAL;
    if ( memchr(buf, 0, ulen) != buf + ulen - 1 )
        goto fail;
    *rc = 0;
    return buf;

 fail:
    xfree(buf);
    return NULL;
}

static void strip_trailing_space(char *s)
{
    size_t n = strlen(s);

    while ( n && isspace((unsigned char)s[n - 1]) )
        s[--n] = '\0';
}

/* The committed filter, copied (caller frees both). */
static int current_filter(unsigned long **f, char **ftext)
{
    *f = xmalloc_array(unsigned long, BITS_TO_LONGS(nr_sites));
    spin_lock(&state_lock);
    {
        const char *cur = filter_text ?: "";

        *ftext = xmalloc_array(char, strlen(cur) + 1);
        if ( *ftext )
            memcpy(*ftext, cur, strlen(cur) + 1);
    }
    if ( *f )
        bitmap_copy(*f, filter_map, nr_sites);
    spin_unlock(&state_lock);
    if ( !*f || !*ftext )
    {
        xfree(*f);
        xfree(*ftext);
        return -ENOMEM;
    }

    return 0;
}

static int cf_check tracer_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    struct tracer *t;
    unsigned long *f;
    char *ftext, *buf;
    int rc;

    buf = copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
    strip_trailing_space(buf);
    t = find_tracer(buf);
    xfree(buf);
    if ( !t )
        return -EINVAL;

    rc = current_filter(&f, &ftext);
    if ( rc )
        return rc;
    /* Tracing all functions does not exist yet: a filter is required. */
    if ( t->uses_filter && bitmap_empty(f, nr_sites) )
    {
        xfree(f);
        xfree(ftext);
        return -ENODATA;
    }

    return request(t, f, ftext);
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

/*
 * Parse a filter: whitespace-separated names, each selecting every site of
 * that name ("file.c#func" or plain "func").  A name with '*' or '?' is a
 * pattern, matched against both forms; it skips functions an applied
 * livepatch has rewritten and fails with -ENOENT only if it matches nothing.
 */
static int parse_filter(char *buf, unsigned long *f, char **ftext)
{
    char *tok, *p = buf, *out;
    unsigned long len = 1;
    unsigned int i;

    while ( (tok = strsep(&p, " \t\n")) != NULL )
    {
        bool found = false, glob;

        if ( !*tok )
            continue;
        glob = strpbrk(tok, "*?");
        for ( i = 0; i < nr_sites; i++ )
        {
            const char *n = site_to_name(i), *hash = strchr(n, '#');
            bool clean;

            if ( glob ? !glob_match(tok, n) &&
                        (!hash || !glob_match(tok, hash + 1))
                      : strcmp(n, tok) && (!hash || strcmp(hash + 1, tok)) )
                continue;
            clean = test_bit(i, patched_map) ||
                    arch_dyntrace_site_is_clean(sites[i]);
            if ( !clean && !glob )
                return -EEXIST;     /* Rewritten by a livepatch. */
            if ( !clean )
                continue;
            __set_bit(i, f);
            found = true;
        }
        if ( !found && glob )
            return -ENOENT;
        if ( !found )
            /* A known symbol without a site is not traceable. */
            return symbols_lookup_by_name(tok) ? -EPERM : -ENOENT;
    }

    for ( i = 0; i < nr_sites; i++ )
        if ( test_bit(i, f) )
            len += strlen(site_to_name(i)) + 1;
    out = xzalloc_array(char, len);
    if ( !out )
        return -ENOMEM;
    for ( len = 0, i = 0; i < nr_sites; i++ )
        if ( test_bit(i, f) )
        {
            const char *n = site_to_name(i);

            if ( len )
                out[len++] = '\n';
            memcpy(out + len, n, strlen(n) + 1);
            len += strlen(n);
        }
    *ftext = out;

    return 0;
}

static int cf_check filter_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    unsigned long *f;
    char *ftext = NULL, *buf;
    struct tracer *t;
    int rc;

    buf = copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
    f = xzalloc_array(unsigned long, BITS_TO_LONGS(nr_sites));
    rc = f ? parse_filter(buf, f, &ftext) : -ENOMEM;
    xfree(buf);
    if ( rc )
    {
        xfree(f);
        return rc;
    }

    spin_lock(&state_lock);
    t = cur_tracer;
    spin_unlock(&state_lock);

    return request(t, f, ftext);
}

static int cf_check tracing_on_write(struct hypfs_entry_leaf *leaf,
                                     XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                     unsigned int ulen)
{
    uint8_t val;
    struct tracer *t;
    int rc;

    if ( ulen != sizeof(val) )
        return -EDOM;
    if ( copy_from_guest(&val, uaddr, 1) )
        return -EFAULT;
    if ( val > 1 )
        return -EINVAL;

    spin_lock(&state_lock);
    t = cur_tracer;
    spin_unlock(&state_lock);

    rc = t->set_on ? t->set_on(val) : 0;
    if ( !rc )
    {
        spin_lock(&state_lock);
        tracing_on_val = val;
        trace_gen++;
        spin_unlock(&state_lock);
    }

    return rc;
}

static int cf_check trace_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    char *buf;
    struct tracer *t;
    int rc;

    /* max_size is 1: the only string that fits is "". */
    buf = copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
    xfree(buf);

    spin_lock(&state_lock);
    t = cur_tracer;
    spin_unlock(&state_lock);

    rc = t->clear ? t->clear() : 0;
    if ( !rc )
    {
        spin_lock(&state_lock);
        trace_gen++;
        spin_unlock(&state_lock);
    }

    return rc;
}

/*
 * Dynamic leaves read one owned snapshot per HypFS operation: built in
 * enter(), its length is what getsize() reports and exactly what read()
 * copies; exit() drops it.  Directory listings (which enter every child)
 * skip building it.
 */
struct snap {
    struct dyntrace_text text;
    unsigned int gen;           /* trace_gen before the snapshot was taken */
    bool sized;                 /* getsize() ran: this is a read */
    bool consumed;              /* read() copied it out */
};

static DEFINE_PER_CPU(bool, listing);

static DEFINE_SPINLOCK(cache_lock);
static struct dyntrace_text cached_trace;   /* unread snapshot, for a retry */
static unsigned int cached_gen;
static s_time_t cached_time;

static int build_text(const struct hypfs_entry *e, unsigned int gen,
                      struct dyntrace_text *t);

static const struct hypfs_entry *cf_check snap_enter(
    const struct hypfs_entry *e)
{
    struct snap *d;
    int rc;

    if ( this_cpu(listing) )
        return e;

    d = hypfs_alloc_dyndata(struct snap);
    if ( !d )
        return ERR_PTR(-ENOMEM);

    spin_lock(&state_lock);
    d->gen = trace_gen;
    spin_unlock(&state_lock);
    rc = build_text(e, d->gen, &d->text);
    if ( rc )
    {
        hypfs_free_dyndata();
        return ERR_PTR(rc);
    }

    return e;
}

static void cf_check snap_exit(const struct hypfs_entry *e);

static unsigned int cf_check snap_getsize(const struct hypfs_entry *e)
{
    struct snap *d;

    if ( this_cpu(listing) )
        return 0;

    d = hypfs_get_dyndata();
    d->sized = true;

    return d->text.len;
}

static int cf_check snap_read(const struct hypfs_entry *e,
                              XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    struct snap *d = hypfs_get_dyndata();

    if ( copy_to_guest(uaddr, d->text.buf, d->text.len) )
        return -EFAULT;
    d->consumed = true;

    return 0;
}

static int cf_check dir_read(const struct hypfs_entry *e,
                             XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    int rc;

    this_cpu(listing) = true;
    rc = hypfs_read_dir(e, uaddr);
    this_cpu(listing) = false;

    return rc;
}

static const struct hypfs_funcs dir_funcs = {
    .enter = hypfs_node_enter,
    .exit = hypfs_node_exit,
    .read = dir_read,
    .write = hypfs_write_deny,
    .getsize = hypfs_getsize,
    .findentry = hypfs_dir_findentry,
};

#define SNAP_FUNCS(nam, wr)                     \
    static const struct hypfs_funcs nam = {     \
        .enter = snap_enter,                    \
        .exit = snap_exit,                      \
        .read = snap_read,                      \
        .write = (wr),                          \
        .getsize = snap_getsize,                \
        .findentry = hypfs_leaf_findentry,      \
    }

SNAP_FUNCS(tracer_funcs, tracer_write);
SNAP_FUNCS(filter_funcs, filter_write);
SNAP_FUNCS(trace_funcs, trace_write);

static const struct hypfs_funcs tracing_on_funcs = {
    .enter = hypfs_node_enter,
    .exit = hypfs_node_exit,
    .read = hypfs_read_leaf,
    .write = tracing_on_write,
    .getsize = hypfs_getsize,
    .findentry = hypfs_leaf_findentry,
};

static HYPFS_DIR_INIT_FUNC(tracing_dir, "tracing", &dir_funcs);
static HYPFS_STRING_INIT(available_tracers, "available_tracers");
static HYPFS_STRING_INIT(available_functions, "available_functions");
static HYPFS_VARSIZE_INIT(current_tracer, XEN_HYPFS_TYPE_STRING,
                          "current_tracer", TRACER_MAX_WRITE, &tracer_funcs);
static HYPFS_VARSIZE_INIT(set_function_filter, XEN_HYPFS_TYPE_STRING,
                          "set_function_filter", FILTER_MAX_WRITE,
                          &filter_funcs);
static HYPFS_VARSIZE_INIT(trace, XEN_HYPFS_TYPE_STRING, "trace", 1,
                          &trace_funcs);
static HYPFS_FIXEDSIZE_INIT(tracing_on, XEN_HYPFS_TYPE_BOOL, "tracing_on",
                            tracing_on_val, &tracing_on_funcs, 1);

static void cf_check snap_exit(const struct hypfs_entry *e)
{
    struct snap *d;

    if ( this_cpu(listing) )
        return;

    d = hypfs_get_dyndata();
    if ( e == &trace.e && d->sized && !d->consumed )
    {
        /*
         * A read that copied nothing (-ENOBUFS: the caller's buffer was too
         * small).  Keep the snapshot for the caller's retry, which then
         * sees the same size.  Tagged with the generation from before it was
         * taken: any clear, switch or tracing_on write since invalidates it.
         * Write operations never leave one behind (they do not size).
         */
        spin_lock(&cache_lock);
        dyntrace_text_free(&cached_trace);
        cached_trace = d->text;
        cached_gen = d->gen;
        cached_time = NOW();
        spin_unlock(&cache_lock);
        d->text.buf = NULL;
    }
    dyntrace_text_free(&d->text);
    hypfs_free_dyndata();
}

static int build_text(const struct hypfs_entry *e, unsigned int gen,
                      struct dyntrace_text *t)
{
    const char *s;
    struct tracer *tr;

    if ( e == &trace.e )
    {
        spin_lock(&state_lock);
        tr = cur_tracer;
        spin_unlock(&state_lock);

        spin_lock(&cache_lock);
        if ( cached_trace.buf && cached_gen == gen &&
             NOW() - cached_time < SECONDS(2) )
        {
            *t = cached_trace;
            cached_trace.buf = NULL;
            cached_trace.len = 0;
            spin_unlock(&cache_lock);
            return 0;
        }
        spin_unlock(&cache_lock);

        return tr->print(t);
    }

    spin_lock(&state_lock);
    s = e == &current_tracer.e ? cur_tracer->name : (filter_text ?: "");
    t->len = strlen(s) + 1;
    t->buf = vmalloc(t->len);
    if ( t->buf )
        memcpy(t->buf, s, t->len);
    spin_unlock(&state_lock);

    return t->buf ? 0 : -ENOMEM;
}

/* ---- text helpers ---- */

int dyntrace_text_alloc(struct dyntrace_text *t, unsigned long max)
{
    if ( max > UINT_MAX )
        return -E2BIG;
    t->buf = vmalloc(max);
    if ( !t->buf )
        return -ENOMEM;
    t->buf[0] = '\0';
    t->len = 1;

    return 0;
}

void dyntrace_text_printf(struct dyntrace_text *t, unsigned long max,
                          const char *fmt, ...)
{
    va_list args;

    va_start(args, fmt);
    t->len += vscnprintf(t->buf + t->len - 1, max - (t->len - 1), fmt, args);
    va_end(args);
}

void dyntrace_text_free(struct dyntrace_text *t)
{
    vfree(t->buf);
    t->buf = NULL;
    t->len = 0;
}

/* ---- init ---- */

static int __init cf_check dyntrace_sites_init(void)
{
    int rc;

    /* The record layout is part of the interface (docs, benchmarks). */
    BUILD_BUG_ON(sizeof(struct dyntrace_record) != 32);

    rc = build_site_table();
    if ( rc )
        return rc;

    filter_map = xzalloc_array(unsigned long, BITS_TO_LONGS(nr_sites));
    patched_map = xzalloc_array(unsigned long, BITS_TO_LONGS(nr_sites));
    if ( !filter_map || !patched_map )
        return -ENOMEM;

    /* Single CPU still: make every site one NOP instruction. */
    arch_dyntrace_init_sites(sites, nr_sites);

    printk(XENLOG_INFO "dyntrace: %u traceable functions\n", nr_sites);

    return 0;
}
presmp_initcall(dyntrace_sites_init);

static int __init cf_check dyntrace_hypfs_init(void)
{
    unsigned int i;
    unsigned long len;

    if ( !sites || !cur_tracer )
        return -ENODEV;

    for ( i = 0, len = 0; i < nr_tracers; i++ )
        len += snprintf(tracers_text + len, sizeof(tracers_text) - len,
                        "%s%s", i ? " " : "", tracers[i]->name);

    /* The names were NUL-separated in site order: a newline-separated copy. */
    {
        unsigned long total = site_name[nr_sites - 1] +
                              strlen(site_to_name(nr_sites - 1)) + 1;
        char *list = vmalloc(total);

        if ( !list )
            return -ENOMEM;
        memcpy(list, avail_text, total);
        for ( i = 0; i + 1 < total; i++ )
            if ( !list[i] )
                list[i] = '\n';
        hypfs_string_set_reference(&available_functions, list);
    }

    hypfs_string_set_reference(&available_tracers, tracers_text);
    current_tracer.u.content = tracers_text;    /* Unused: funcs read. */
    set_function_filter.u.content = tracers_text;
    trace.u.content = tracers_text;

    hypfs_add_dir(&hypfs_root, &tracing_dir, true);
    hypfs_add_leaf(&tracing_dir, &available_tracers, true);
    hypfs_add_leaf(&tracing_dir, &current_tracer, true);
    hypfs_add_leaf(&tracing_dir, &available_functions, true);
    hypfs_add_leaf(&tracing_dir, &set_function_filter, true);
    hypfs_add_leaf(&tracing_dir, &tracing_on, true);
    hypfs_add_leaf(&tracing_dir, &trace, true);

    return 0;
}
__initcall(dyntrace_hypfs_init);
