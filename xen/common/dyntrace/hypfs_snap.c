/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: reading /tracing's dynamic files.
 *
 * Dynamic leaves read one owned snapshot per HypFS operation: built when
 * getsize() first asks for it, its length is what getsize() reports and
 * exactly what read() copies; exit() drops it.  Writes never build one
 * (HypFS enters the leaf, then calls write() only).  Directory listings
 * (which enter every child and ask its size) skip building it too.  A read
 * that copied nothing (the caller's buffer was too small) leaves its
 * snapshot for the caller's retry.
 */

#include <xen/bitmap.h>
#include <xen/ctype.h>
#include <xen/err.h>
#include <xen/guest_access.h>
#include <xen/hypfs.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/percpu.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/timer.h>

#include "hypfs_files.h"
#include "patch.h"
#include "ring.h"
#include "tracer.h"

/* How long an unread trace snapshot is kept for a retry, from its making. */
#define RETRY_KEEP       SECONDS(2)

/* The snapshot of one HypFS operation on a dynamic leaf. */
struct snap {
    struct dyntrace_text text;
#ifdef DYNTRACE_WITH_BUFFERS
    struct dyntrace_read rd;    /* for the tracer's output */
#endif
    int rc;                     /* the build's result */
    unsigned int gen;           /* dt_state_gen() before it was taken */
#ifdef DYNTRACE_WITH_BUFFERS
    unsigned int consumes;      /* dt_rings_consumes() before it was taken */
#endif
    s_time_t born;              /* when it was taken (kept across retries) */
    bool built;
    bool sized;                 /* getsize() ran: this is a read */
    bool copied;                /* read() copied it out */
};

/* Set while /tracing is listed: its leaves then build no snapshot. */
static DEFINE_PER_CPU(bool, listing);

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * An unread snapshot of trace or trace_pipe, for the caller's retry after
 * -ENOBUFS.  Served only for the file it was taken of, only while it is
 * still what that file shows (the same generation and consuming reads for
 * trace; for trace_pipe, buffers consumed, cleared and resized since can
 * no longer commit it), and only until RETRY_KEEP after it was taken,
 * however often it is served and put back.  cache_timer frees it then if
 * nobody has taken it, so a stale snapshot never keeps its memory beyond
 * RETRY_KEEP.  A retry that finds none builds a new one: the read still
 * returns what its own size says.
 */
struct cached {
    struct dyntrace_text text;
    struct dt_ring_snapshot *consume;
    const struct dt_file *file;
    int cpu;                    /* the file's CPU (per_cpu/), or -1 */
    unsigned int gen, consumes;
    s_time_t born;
};
static DEFINE_SPINLOCK(cache_lock);
static struct cached cache;
static struct timer cache_timer;

static void cached_free(struct cached *c)
{
    dyntrace_text_free(&c->text);
    dt_rings_free_snapshot(c->consume);
}

/* Take the cached snapshot if it is still valid for d; drop it if not. */
static bool cache_take(const struct dt_file *f, struct snap *d)
{
    struct cached old = { .text = { NULL, 0 } };
    bool hit = false;

    spin_lock(&cache_lock);
    if ( cache.file == f && cache.cpu == d->rd.cpu )
    {
        old = cache;
        cache.text.buf = NULL;
        cache.text.len = 0;
        cache.consume = NULL;
    }
    spin_unlock(&cache_lock);

    if ( old.text.buf && old.gen == d->gen &&
         NOW() - old.born < RETRY_KEEP &&
         (f->pipe ? !dt_rings_consume(old.consume, false)
                  : old.consumes == d->consumes) )
    {
        d->text = old.text;
        d->rd.consume = old.consume;
        d->born = old.born;
        hit = true;
    }
    else
        cached_free(&old);

    return hit;
}

/* cache_timer: free the cached snapshot once it can no longer be served. */
static void cf_check cache_expire(void *unused)
{
    struct cached stale = { .text = { NULL, 0 } };

    spin_lock(&cache_lock);
    if ( cache.text.buf )
    {
        if ( NOW() - cache.born >= RETRY_KEEP )
        {
            stale = cache;
            cache.text.buf = NULL;
            cache.text.len = 0;
            cache.consume = NULL;
        }
        else
            set_timer(&cache_timer, cache.born + RETRY_KEEP);
    }
    spin_unlock(&cache_lock);

    cached_free(&stale);
}

static void cache_put(const struct dt_file *f, struct snap *d)
{
    struct cached old;

    spin_lock(&cache_lock);
    old = cache;
    cache.text = d->text;
    cache.consume = d->rd.consume;
    cache.file = f;
    cache.cpu = d->rd.cpu;
    cache.gen = d->gen;
    cache.consumes = d->consumes;
    cache.born = d->born;
    spin_unlock(&cache_lock);

    d->text.buf = NULL;
    d->text.len = 0;
    d->rd.consume = NULL;
    cached_free(&old);
    set_timer(&cache_timer, d->born + RETRY_KEEP);
}

#else
/*
 * An unread snapshot of trace, for the caller's retry after -ENOBUFS.
 * Served only while it is still what trace shows (the same generation),
 * and only until RETRY_KEEP after it was taken, however often it is served
 * and put back.  cache_timer frees it then if nobody has taken it, so a
 * stale snapshot never keeps its memory beyond RETRY_KEEP.  A retry that
 * finds none builds a new one: the read still returns what its own size
 * says.
 */
struct cached {
    struct dyntrace_text text;
    const struct dt_file *file;
    unsigned int gen;
    s_time_t born;
};
static DEFINE_SPINLOCK(cache_lock);
static struct cached cache;
static struct timer cache_timer;

/* Take the cached snapshot if it is still valid for d; drop it if not. */
static bool cache_take(const struct dt_file *f, struct snap *d)
{
    struct cached old = { .text = { NULL, 0 } };
    bool hit = false;

    spin_lock(&cache_lock);
    if ( cache.file == f )
    {
        old = cache;
        cache.text.buf = NULL;
        cache.text.len = 0;
    }
    spin_unlock(&cache_lock);

    if ( old.text.buf && old.gen == d->gen &&
         NOW() - old.born < RETRY_KEEP )
    {
        d->text = old.text;
        d->born = old.born;
        hit = true;
    }
    else
        dyntrace_text_free(&old.text);

    return hit;
}

/* cache_timer: free the cached snapshot once it can no longer be served. */
static void cf_check cache_expire(void *unused)
{
    struct cached stale = { .text = { NULL, 0 } };

    spin_lock(&cache_lock);
    if ( cache.text.buf )
    {
        if ( NOW() - cache.born >= RETRY_KEEP )
        {
            stale = cache;
            cache.text.buf = NULL;
            cache.text.len = 0;
        }
        else
            set_timer(&cache_timer, cache.born + RETRY_KEEP);
    }
    spin_unlock(&cache_lock);

    dyntrace_text_free(&stale.text);
}

static void cache_put(const struct dt_file *f, struct snap *d)
{
    struct cached old;

    spin_lock(&cache_lock);
    old = cache;
    cache.text = d->text;
    cache.file = f;
    cache.gen = d->gen;
    cache.born = d->born;
    spin_unlock(&cache_lock);

    d->text.buf = NULL;
    d->text.len = 0;
    dyntrace_text_free(&old.text);
    set_timer(&cache_timer, d->born + RETRY_KEEP);
}

#endif

static int cf_check dir_read(const struct hypfs_entry *e,
                             XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    int rc;

    this_cpu(listing) = true;
    rc = hypfs_read_dir(e, uaddr);
    this_cpu(listing) = false;

    return rc;
}

const struct hypfs_funcs dt_fs_dir_funcs = {
    .enter = hypfs_node_enter,
    .exit = hypfs_node_exit,
    .read = dir_read,
    .write = hypfs_write_deny,
    .getsize = hypfs_getsize,
    .findentry = hypfs_dir_findentry,
};

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * ---- per_cpu/ ----
 *
 * per_cpu/ lists cpuN for every CPU that owns a buffer (the set only grows:
 * buffers are never freed).  A HypFS operation has one dyndata slot, which
 * HypFS's dynamic-directory helpers use for the cpuN they generate; so
 * per_cpu/'s enter() allocates a struct cpu_dyn holding both that and the
 * snapshot of the per-CPU leaf the operation reads, and its exit() frees
 * it, after the leaf's exit().  The CPUs a listing shows are copied once
 * per operation: its size and its contents agree.
 */
struct cpu_dyn {
    struct hypfs_dyndir_id id;  /* First: the dyndir helpers' view. */
    cpumask_t cpus;
    bool cpus_taken;
    struct snap snap;
};

/* The snapshot of the operation on leaf e. */
static struct snap *op_snap(const struct hypfs_entry *e)
{
    void *d = hypfs_get_dyndata();

    return dt_fs_cpu_leaf(e) ? &((struct cpu_dyn *)d)->snap : d;
}
#else
/* The snapshot of the operation on leaf e. */
static struct snap *op_snap(const struct hypfs_entry *e)
{
    return hypfs_get_dyndata();
}
#endif

#if defined(DYNTRACE_WITH_GRAPH) || defined(DYNTRACE_WITH_BUFFERS)
/* The CPU of leaf e, a file of one CPU, or -1 for /tracing's own. */
static int op_cpu(const struct hypfs_entry *e)
{
#ifdef DYNTRACE_WITH_GRAPH
    int cpu = dt_fs_added_cpu(e);

    if ( cpu >= 0 )
        return cpu;
#endif
#ifdef DYNTRACE_WITH_BUFFERS
    if ( dt_fs_cpu_leaf(e) )
        return ((struct cpu_dyn *)hypfs_get_dyndata())->id.id;
#endif
    return -1;
}
#endif

static void snap_build(const struct hypfs_entry *e, struct snap *d)
{
    const struct dt_file *f = dt_fs_file(e);
#if defined(DYNTRACE_WITH_GRAPH) || defined(DYNTRACE_WITH_BUFFERS)
    int cpu = op_cpu(e);
#endif

    d->built = true;
#ifdef DYNTRACE_WITH_BUFFERS
    d->rd.cpu = cpu;
#endif
    if ( f->retry )
    {
        d->gen = dt_state_gen();
#ifdef DYNTRACE_WITH_BUFFERS
        d->consumes = dt_rings_consumes();
#endif
        if ( cache_take(f, d) )
            return;
    }
    d->born = NOW();
    if ( f->trace )
#ifdef DYNTRACE_WITH_BUFFERS
    {
        d->rd.pipe = f->pipe;
        d->rd.raw = f->raw;
        d->rc = dt_state_tracer()->print(&d->text, &d->rd);
    }
#else
        d->rc = dt_state_tracer()->print(&d->text);
#endif
#if defined(DYNTRACE_WITH_GRAPH) || defined(DYNTRACE_WITH_BUFFERS)
    else if ( f->cpu_build )
        d->rc = f->cpu_build(&d->text, cpu);
#endif
#ifdef DYNTRACE_WITH_EVENTS
    else if ( f->index_build )
        d->rc = f->index_build(&d->text, dt_fs_leaf_index(e));
#endif
    else
        d->rc = f->build(&d->text);
}

static const struct hypfs_entry *cf_check snap_enter(
    const struct hypfs_entry *e)
{
#ifdef DYNTRACE_WITH_BUFFERS
    /* per_cpu/ has the room; listings build no snapshot. */
    if ( dt_fs_cpu_leaf(e) || this_cpu(listing) )
        return e;
#else
    /* Listings build no snapshot. */
    if ( this_cpu(listing) )
        return e;
#endif

    /* Only the room: the snapshot is built if the operation reads. */
    if ( !hypfs_alloc_dyndata(struct snap) )
        return ERR_PTR(-ENOMEM);

    return e;
}

static unsigned int cf_check snap_getsize(const struct hypfs_entry *e)
{
    struct snap *d;

    if ( this_cpu(listing) )
        return 0;

    d = op_snap(e);
    if ( !d->built )
        snap_build(e, d);
    d->sized = true;

    /* A failed build reports no content; read() then returns the error. */
    return d->rc ? 0 : d->text.len;
}

static int cf_check snap_read(const struct hypfs_entry *e,
                              XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    struct snap *d = op_snap(e);

    if ( !d->built )
        snap_build(e, d);
    if ( d->rc )
        return d->rc;
    if ( copy_to_guest(uaddr, d->text.buf, d->text.len) )
        return -EFAULT;
#ifdef DYNTRACE_WITH_BUFFERS
    /* A consuming read consumes what it returned, and only then. */
    if ( d->rd.consume )
    {
        int rc = dt_rings_consume(d->rd.consume, true);

        if ( rc )
            return rc;
    }
#endif
    d->copied = true;

    return 0;
}

static void cf_check snap_exit(const struct hypfs_entry *e)
{
    struct snap *d;

    if ( this_cpu(listing) )
        return;

    d = op_snap(e);
    /*
     * A read that copied nothing (-ENOBUFS: the caller's buffer was too
     * small): keep the snapshot for the caller's retry, which then sees the
     * same size.  Writes never build one.
     */
    if ( dt_fs_file(e)->retry && d->built && !d->rc && d->sized &&
         !d->copied )
        cache_put(dt_fs_file(e), d);
    dyntrace_text_free(&d->text);
#ifdef DYNTRACE_WITH_BUFFERS
    dt_rings_free_snapshot(d->rd.consume);
    d->rd.consume = NULL;
    if ( !dt_fs_cpu_leaf(e) )
        hypfs_free_dyndata();
#else
    hypfs_free_dyndata();
#endif
}

#ifdef DYNTRACE_WITH_BUFFERS
static const struct hypfs_entry *cf_check cpus_enter(
    const struct hypfs_entry *e)
{
    if ( !hypfs_alloc_dyndata(struct cpu_dyn) )
        return ERR_PTR(-ENOMEM);

    return e;
}

static void cf_check cpus_exit(const struct hypfs_entry *e)
{
    hypfs_free_dyndata();
}

static const cpumask_t *cpus_taken(void)
{
    struct cpu_dyn *d = hypfs_get_dyndata();

    if ( !d->cpus_taken )
    {
        cpumask_copy(&d->cpus, dt_rings_cpus());
        d->cpus_taken = true;
    }

    return &d->cpus;
}

HYPFS_DIR_INIT_FUNC(dt_fs_cpu_template, "cpu%u", &dt_fs_dir_funcs);

static unsigned int cf_check cpus_getsize(const struct hypfs_entry *e)
{
    const cpumask_t *cpus = cpus_taken();
    unsigned int cpu, size = 0;

    for_each_cpu ( cpu, cpus )
        size += hypfs_dynid_entry_size(&dt_fs_cpu_template.e, cpu);

    return size;
}

static int cf_check cpus_read(const struct hypfs_entry *e,
                              XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    const cpumask_t *cpus = cpus_taken();
    unsigned int cpu;
    int rc = 0;

    for_each_cpu ( cpu, cpus )
    {
        rc = hypfs_read_dyndir_id_entry(&dt_fs_cpu_template, cpu,
                                        cpumask_next(cpu, cpus) >= nr_cpu_ids,
                                        &uaddr);
        if ( rc )
            break;
    }

    return rc;
}

static struct hypfs_entry *cf_check cpus_findentry(
    const struct hypfs_entry_dir *dir, const char *name, unsigned int len)
{
    const char *end;
    unsigned long cpu;

    if ( len < 4 || strncmp(name, "cpu", 3) || !isdigit(name[3]) ||
         (name[3] == '0' && len > 4) )
        return ERR_PTR(-ENOENT);
    cpu = simple_strtoul(name + 3, &end, 10);
    if ( end != name + len || cpu >= nr_cpu_ids ||
         !cpumask_test_cpu(cpu, cpus_taken()) )
        return ERR_PTR(-ENOENT);

    return hypfs_gen_dyndir_id_entry(&dt_fs_cpu_template, cpu, NULL);
}

static const struct hypfs_funcs cpus_funcs = {
    .enter = cpus_enter,
    .exit = cpus_exit,
    .read = cpus_read,
    .write = hypfs_write_deny,
    .getsize = cpus_getsize,
    .findentry = cpus_findentry,
};

HYPFS_DIR_INIT_FUNC(dt_fs_per_cpu_dir, "per_cpu", &cpus_funcs);
#endif

/* A dynamic leaf's funcs: one owned snapshot per operation. */
void __init dt_fs_snap_funcs(struct hypfs_funcs *fn)
{
    fn->enter = snap_enter;
    fn->exit = snap_exit;
    fn->read = snap_read;
    fn->getsize = snap_getsize;
}

void __init dt_fs_snap_init(void)
{
    /* On CPU 0, which never goes offline. */
    init_timer(&cache_timer, cache_expire, NULL, 0);
}
