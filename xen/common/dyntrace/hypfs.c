/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * dyntrace: the /tracing HypFS directory: its files and what they show.
 *
 * Every file is one row of a table (struct dt_file): its name, type,
 * maximum write size, how its content is read (fixed at boot, or an owned
 * snapshot built per HypFS operation, hypfs_snap.c) and its write handler
 * (hypfs_write.c).  The core's are dt_files[] and dt_cpu_files[]
 * (per_cpu/cpuN/).  The leaves and their hypfs_funcs are built from the
 * tables at boot.
 */
#else
/*
 * dyntrace: the /tracing HypFS directory: its files and what they show.
 *
 * Every file is one row of a table (struct dt_file): its name, type,
 * maximum write size, how its content is read (fixed at boot, or an owned
 * snapshot built per HypFS operation, hypfs_snap.c) and its write handler
 * (hypfs_write.c).  The core's are dt_files[].  The leaves and their
 * hypfs_funcs are built from the table at boot.
 */
#endif

#include <xen/bitmap.h>
#include <xen/bug.h>
#include <xen/err.h>
#include <xen/hypfs.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/time.h>
#include <xen/xmalloc.h>

#include "hypfs_files.h"
#include "patch.h"
#include "ring.h"
#include "sites.h"
#include "tracer.h"

/* Longest write to current_tracer, NUL included. */
#define TRACER_MAX_WRITE 64
/* trace takes only "": one byte. */
#define TRACE_MAX_WRITE  1
#ifdef DYNTRACE_WITH_SCOPE
/* set_domain_filter: its longest words, and room for whitespace. */
#define DOMAINS_MAX_WRITE 512
/* tracing_cpumask: NR_CPUS bits in 32-bit groups of 8 digits and a comma. */
#define CPUMASK_MAX_WRITE (DIV_ROUND_UP(NR_CPUS, 32) * 9 + 64)
#endif

#ifdef DYNTRACE_WITH_SCOPE
static int scope_text(bool cpumask, struct dyntrace_text *t)
{
    struct dt_scope *s = xmalloc(struct dt_scope);
    unsigned int max = cpumask ? DT_SCOPE_CPUMASK_TEXT : DT_SCOPE_DOMAINS_TEXT;
    int rc = -ENOMEM;

    if ( s )
        rc = dyntrace_text_alloc(t, max);
    if ( !rc )
    {
        dt_state_scope_copy(s);
        if ( cpumask )
            dt_scope_cpumask_text(s, t->buf);
        else
            dt_scope_domains_text(s, t->buf);
        t->len = strlen(t->buf) + 1;
    }
    xfree(s);

    return rc;
}

static int cf_check domains_build(struct dyntrace_text *t)
{
    return scope_text(false, t);
}

static int cf_check cpumask_build(struct dyntrace_text *t)
{
    return scope_text(true, t);
}
#endif

/*
 * enabled_functions (ftrace's): each patched entry, the tracer its
 * callback belongs to, and the bytes the entry holds.
 */
static void enabled_line(struct dyntrace_text *t, unsigned long max,
                         unsigned int i, const char *tracer)
{
    uint8_t expect[DYNTRACE_SITE_SIZE], actual[DYNTRACE_SITE_SIZE];
    unsigned int b;

    arch_dyntrace_site_bytes(dt_site_addr(i), true, expect, actual);
    dyntrace_text_printf(t, max, "%s (1) ->%s", dt_site_name(i), tracer);
    for ( b = 0; b < DYNTRACE_SITE_SIZE; b++ )
        dyntrace_text_printf(t, max, " %02x", actual[b]);
    dyntrace_text_printf(t, max, "\n");
}

static int cf_check enabled_build(struct dyntrace_text *t)
{
    /*
     * The traced bits change only in the rendezvous, which cannot run its
     * action while this hypercall runs on another CPU.
     */
    const unsigned long *traced = dt_sites_traced();
    /* A bad site stopped tracing: the entries call no tracer's callback. */
    const char *tracer = dt_tracer_is_active() ? dt_state_tracer()->name
                                               : "(stopped)";
    unsigned int i, nr = dt_sites_nr();
    unsigned long max = 1;
    int rc;

    for ( i = 0; i < nr; i++ )
        if ( test_bit(i, traced) )
            max += strlen(dt_site_name(i)) + strlen(tracer) +
                   8 + 3 * DYNTRACE_SITE_SIZE;
    rc = dyntrace_text_alloc(t, max);
    for ( i = 0; !rc && i < nr; i++ )
        if ( test_bit(i, traced) )
            enabled_line(t, max, i, tracer);

    return rc;
}

static int __init cf_check tracers_init(struct hypfs_entry_leaf *leaf)
{
    hypfs_string_set_reference(leaf, dt_tracers_text());

    return 0;
}

/* strlen(available_functions) + 1: what a set reads back at most. */
static unsigned int names_len;

static int __init cf_check functions_init(struct hypfs_entry_leaf *leaf)
{
    char *list = dt_sites_names(NULL);

    if ( !list )
        return -ENOMEM;
    hypfs_string_set_reference(leaf, list);
    names_len = strlen(list) + 1;

    return 0;
}

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * available_functions_addrs (Linux's available_filter_functions_addrs): each
 * traceable function's patch site, the address its records carry, and its
 * name, for programs that read trace_pipe_raw.  Built when read: it would
 * otherwise keep a string as long as the symbol names in memory.
 */
static int cf_check addrs_build(struct dyntrace_text *t)
{
    unsigned int i, nr = dt_sites_nr();
    unsigned long max = 1;
    int rc;

    for ( i = 0; i < nr; i++ )
        max += 2 * sizeof(long) + 1 + strlen(dt_site_name(i)) + 1;
    rc = dyntrace_text_alloc(t, max);
    /* Lines separated as in available_functions (xenhypfs adds the last). */
    for ( i = 0; !rc && i < nr; i++ )
        dyntrace_text_printf(t, max, "%s%016lx %s", i ? "\n" : "",
                             dt_site_addr(i), dt_site_name(i));

    return rc;
}

#endif

static int __init cf_check tracing_on_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_state_on();
    leaf->e.size = sizeof(bool);

    return 0;
}

#ifdef DYNTRACE_WITH_BUFFERS
static int __init cf_check bufsize_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_rings_kb();
    leaf->e.size = sizeof(uint32_t);

    return 0;
}

static int __init cf_check buftotal_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_rings_total_kb();
    leaf->e.size = sizeof(uint32_t);

    return 0;
}
#endif

static const struct dt_file dt_files[] = {
    { .name = "available_tracers", .type = XEN_HYPFS_TYPE_STRING,
      .init = tracers_init },
    { .name = "current_tracer", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = TRACER_MAX_WRITE, .build = dt_state_tracer_name,
      .write = dt_fs_tracer_write },
    { .name = "available_functions", .type = XEN_HYPFS_TYPE_STRING,
      .init = functions_init },
#ifdef DYNTRACE_WITH_BUFFERS
    { .name = "available_functions_addrs", .type = XEN_HYPFS_TYPE_STRING,
      .build = addrs_build },
#endif
    { .name = "set_function_filter", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = DT_SET_MAX_WRITE, .fits_names = true,
      .build = dt_state_filter_text, .write = dt_fs_filter_write },
    { .name = "set_function_notrace", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = DT_SET_MAX_WRITE, .fits_names = true,
      .build = dt_state_notrace_text, .write = dt_fs_notrace_write },
#ifdef DYNTRACE_WITH_SCOPE
    { .name = "set_domain_filter", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = DOMAINS_MAX_WRITE, .build = domains_build,
      .write = dt_fs_domains_write },
    { .name = "tracing_cpumask", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = CPUMASK_MAX_WRITE, .build = cpumask_build,
      .write = dt_fs_cpumask_write },
#endif
    { .name = "tracing_on", .type = XEN_HYPFS_TYPE_BOOL,
      .max_write = sizeof(bool), .init = tracing_on_init,
      .write = dt_fs_tracing_on_write },
    { .name = "trace", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = TRACE_MAX_WRITE, .trace = true, .write = dt_fs_trace_write,
      .retry = true },
#ifdef DYNTRACE_WITH_BUFFERS
    { .name = "trace_pipe", .type = XEN_HYPFS_TYPE_STRING,
      .trace = true, .pipe = true, .retry = true },
    { .name = "buffer_size_kb", .type = XEN_HYPFS_TYPE_UINT,
      .max_write = sizeof(uint32_t), .init = bufsize_init,
      .write = dt_fs_bufsize_write },
    { .name = "buffer_total_size_kb", .type = XEN_HYPFS_TYPE_UINT,
      .init = buftotal_init },
#endif
    { .name = "enabled_functions", .type = XEN_HYPFS_TYPE_STRING,
      .build = enabled_build },
    { .name = "error_log", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = TRACE_MAX_WRITE, .build = dt_fs_errlog_build,
      .write = dt_fs_errlog_write },
};

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * per_cpu/cpuN/stats: ftrace's names for one CPU's buffer, dropped split by
 * cause.  Since the last clear or resize; entries: records not consumed.
 */
#define STATS_MAX 512

static int cf_check stats_build(struct dyntrace_text *t, unsigned int cpu)
{
    struct dt_ring_snapshot *snap;
    const struct dt_ring_copy *c;
    s_time_t now = NOW(), oldest = 0;
    int rc;

    /* The oldest record not consumed, and the counts: nothing consumed. */
    rc = dt_rings_snapshot(&snap, cpu, 1);
    if ( rc )
        return rc;
    c = &snap->cpu[0];
    if ( c->nr )
    {
        /* Every tracer's records start with their raw stamp (B14). */
        const uint64_t *ts = c->recs;

        oldest = dt_copy_stamp_to_ns(c, *ts, NULL);
    }
    rc = dyntrace_text_alloc(t, STATS_MAX);
    if ( !rc )
        dyntrace_text_printf(t, STATS_MAX,
            "entries: %"PRIu64"\n"
            "overrun: %"PRIu64"\n"
            "bytes: %"PRIu64"\n"
            "oldest event ts: %5lu.%06lu\n"
            "now ts: %5lu.%06lu\n"
            "dropped events: %"PRIu64"\n"
            "dropped nested: %"PRIu64"\n"
            "dropped held: %"PRIu64"\n"
            "read events: %"PRIu64"\n"
            "written: %"PRIu64"\n",
            c->entries, c->overrun, c->entries * snap->rec_size,
            (unsigned long)(oldest / SECONDS(1)),
            (unsigned long)((oldest % SECONDS(1)) / 1000),
            (unsigned long)(now / SECONDS(1)),
            (unsigned long)((now % SECONDS(1)) / 1000),
            c->dropped, c->dropped_nested, c->dropped_held, c->consumed,
            c->written);
    dt_rings_free_snapshot(snap);

    return rc;
}

/* The files of each per_cpu/cpuN/ directory: read-only, of that CPU. */
static const struct dt_file dt_cpu_files[] = {
    { .name = "trace", .type = XEN_HYPFS_TYPE_STRING, .trace = true,
      .retry = true },
    { .name = "trace_pipe", .type = XEN_HYPFS_TYPE_STRING, .trace = true,
      .pipe = true, .retry = true },
    { .name = "trace_pipe_raw", .type = XEN_HYPFS_TYPE_BLOB, .trace = true,
      .pipe = true, .raw = true, .retry = true },
    { .name = "stats", .type = XEN_HYPFS_TYPE_STRING,
      .cpu_build = stats_build },
};

#define NR_CPU_FILES ARRAY_SIZE(dt_cpu_files)

static struct hypfs_entry_leaf cpu_leaves[NR_CPU_FILES];
static struct hypfs_funcs cpu_leaf_funcs[NR_CPU_FILES];
#endif

#define NR_FILES ARRAY_SIZE(dt_files)

static struct hypfs_entry_leaf leaves[NR_FILES];
static struct hypfs_funcs leaf_funcs[NR_FILES];
#ifdef DYNTRACE_WITH_GRAPH
/*
 * The files tracers and the profiler add (dt_fs_add_files()): each table's
 * leaves, a cpu_build row's nr_cpu_ids of them, with the row and CPU of
 * each.  Tables are named before /tracing is built (added_built).
 */
#ifdef DYNTRACE_WITH_RETVAL
#define MAX_ADDED 5
#else
#define MAX_ADDED 4
#endif
static struct added {
    struct hypfs_entry_dir *dir;        /* NULL: /tracing */
    const struct dt_file *files;
    unsigned int nr;                    /* rows */
    unsigned int nr_leaves;
    struct hypfs_entry_leaf *leaves;
    struct hypfs_funcs *funcs;          /* one per row */
    const struct dt_file **row;         /* of each leaf */
    int *cpu;                           /* of each leaf, or -1 */
} added[MAX_ADDED];
static unsigned int nr_added;
static bool added_built;

void __init dt_fs_add_files(struct hypfs_entry_dir *dir,
                            const struct dt_file *f, unsigned int nr)
{
    ASSERT(nr_added < MAX_ADDED && !added_built);
    if ( nr_added == MAX_ADDED || added_built )
    {
        printk(XENLOG_ERR "dyntrace: files %s... not added to /tracing\n",
               f[0].name);
        return;
    }
    added[nr_added].dir = dir;
    added[nr_added].files = f;
    added[nr_added].nr = nr;
    nr_added++;
}

/* The table of added leaf e, and its index there; NULL if e is not one. */
static const struct added *added_of(const struct hypfs_entry *e,
                                    unsigned int *i)
{
    const struct hypfs_entry_leaf *l =
        container_of(e, const struct hypfs_entry_leaf, e);
    unsigned int t;

    for ( t = 0; t < nr_added; t++ )
        if ( added[t].leaves && l >= added[t].leaves &&
             l < added[t].leaves + added[t].nr_leaves )
        {
            *i = l - added[t].leaves;
            return &added[t];
        }

    return NULL;
}

int dt_fs_added_cpu(const struct hypfs_entry *e)
{
    unsigned int i;
    const struct added *a = added_of(e, &i);

    return a ? a->cpu[i] : -1;
}
#endif

#ifdef DYNTRACE_WITH_BUFFERS
bool dt_fs_cpu_leaf(const struct hypfs_entry *e)
{
    const struct hypfs_entry_leaf *l =
        container_of(e, const struct hypfs_entry_leaf, e);

    return l >= cpu_leaves && l < cpu_leaves + NR_CPU_FILES;
}
#endif

#ifdef DYNTRACE_WITH_EVENTS
#define MAX_OWN 2
static struct {
    const struct hypfs_entry_leaf *l;
    unsigned int nr;
    const struct dt_file *row;
} own[MAX_OWN];
static unsigned int nr_own;

void __init dt_fs_add_leaves(const struct hypfs_entry_leaf *l,
                             unsigned int nr, const struct dt_file *row)
{
    BUG_ON(nr_own == MAX_OWN || !row->index_build);
    own[nr_own].l = l;
    own[nr_own].nr = nr;
    own[nr_own].row = row;
    nr_own++;
}

int dt_fs_leaf_index(const struct hypfs_entry *e)
{
    const struct hypfs_entry_leaf *l =
        container_of(e, const struct hypfs_entry_leaf, e);
    unsigned int t;

    for ( t = 0; t < nr_own; t++ )
        if ( l >= own[t].l && l < own[t].l + own[t].nr )
            return l - own[t].l;

    return -1;
}

#endif
const struct dt_file *dt_fs_file(const struct hypfs_entry *e)
{
    const struct hypfs_entry_leaf *l =
        container_of(e, const struct hypfs_entry_leaf, e);
#ifdef DYNTRACE_WITH_GRAPH
    const struct added *a;
    unsigned int i;
#endif

#ifdef DYNTRACE_WITH_BUFFERS
    if ( dt_fs_cpu_leaf(e) )
        return &dt_cpu_files[l - cpu_leaves];
#endif
#ifdef DYNTRACE_WITH_GRAPH
    a = added_of(e, &i);
    if ( a )
        return a->row[i];
#endif
#ifdef DYNTRACE_WITH_EVENTS
    for ( i = 0; i < nr_own; i++ )
        if ( l >= own[i].l && l < own[i].l + own[i].nr )
            return own[i].row;
#endif

    ASSERT(l >= leaves && l < leaves + NR_FILES);

    return &dt_files[l - leaves];
}

static HYPFS_DIR_INIT_FUNC(tracing_dir, "tracing", &dt_fs_dir_funcs);

/* A leaf and its hypfs_funcs, from its row of a table. */
static int __init leaf_init(const struct dt_file *f,
                            struct hypfs_entry_leaf *l, struct hypfs_funcs *fn)
{
    int rc;

    fn->findentry = hypfs_leaf_findentry;
    fn->write = f->write ? dt_fs_logged_write : hypfs_write_deny;
#if defined(DYNTRACE_WITH_GRAPH) || defined(DYNTRACE_WITH_BUFFERS)
    if ( f->build || f->cpu_build || f->trace )
#else
    if ( f->build || f->trace )
#endif
    {
        dt_fs_snap_funcs(fn);
        l->u.content = "";              /* Unused: read() copies. */
    }
    else
    {
        fn->enter = hypfs_node_enter;
        fn->exit = hypfs_node_exit;
        fn->read = hypfs_read_leaf;
        fn->getsize = hypfs_getsize;
        rc = f->init(l);
        if ( rc )
            return rc;
    }
    l->e.type = f->type;
    l->e.encoding = XEN_HYPFS_ENC_PLAIN;
    l->e.name = f->name;
    l->e.max_size = f->fits_names ? max(f->max_write, names_len)
                                  : f->max_write;
    l->e.funcs = fn;

    return 0;
}

#ifdef DYNTRACE_WITH_GRAPH

/* The leaves of an added table, a cpu_build row's one per CPU. */
static int __init added_init(struct added *a)
{
    unsigned int r, c, n = 0;
    int rc;

    for ( r = 0; r < a->nr; r++ )
        a->nr_leaves += a->files[r].cpu_build ? nr_cpu_ids : 1;
    a->leaves = xzalloc_array(struct hypfs_entry_leaf, a->nr_leaves);
    a->funcs = xzalloc_array(struct hypfs_funcs, a->nr);
    a->row = xzalloc_array(const struct dt_file *, a->nr_leaves);
    a->cpu = xzalloc_array(int, a->nr_leaves);
    if ( !a->leaves || !a->funcs || !a->row || !a->cpu )
        return -ENOMEM;
    for ( r = 0; r < a->nr; r++ )
    {
        const struct dt_file *f = &a->files[r];

        for ( c = 0; c < (f->cpu_build ? nr_cpu_ids : 1); c++, n++ )
        {
            char *name;

            rc = leaf_init(f, &a->leaves[n], &a->funcs[r]);
            if ( rc )
                return rc;
            a->row[n] = f;
            a->cpu[n] = f->cpu_build ? (int)c : -1;
            if ( !f->cpu_build )
                continue;
            /* The row's name and the CPU's number (10 digits at most). */
            name = xmalloc_array(char, strlen(f->name) + 11);
            if ( !name )
                return -ENOMEM;
            snprintf(name, strlen(f->name) + 11, "%s%u", f->name, c);
            a->leaves[n].e.name = name;
        }
    }

    return 0;
}
#endif

#ifdef DYNTRACE_WITH_EVENTS
void __init dt_fs_add_dir(struct hypfs_entry_dir *dir)
{
    hypfs_add_dir(&tracing_dir, dir, true);
}

#endif
static int __init cf_check dyntrace_hypfs_init(void)
{
    unsigned int i;
    int rc = dt_state_init();

    if ( rc )
        return rc;

    dt_fs_snap_init();

    for ( i = 0; i < NR_FILES; i++ )
    {
        rc = leaf_init(&dt_files[i], &leaves[i], &leaf_funcs[i]);
        if ( rc )
            return rc;
    }
#ifdef DYNTRACE_WITH_BUFFERS
    for ( i = 0; i < NR_CPU_FILES; i++ )
    {
        rc = leaf_init(&dt_cpu_files[i], &cpu_leaves[i], &cpu_leaf_funcs[i]);
        if ( rc )
            return rc;
    }
#endif
#ifdef DYNTRACE_WITH_GRAPH
    added_built = true;
    for ( i = 0; i < nr_added; i++ )
    {
        rc = added_init(&added[i]);
        if ( rc )
            return rc;
    }
#endif

    hypfs_add_dir(&hypfs_root, &tracing_dir, true);
    for ( i = 0; i < NR_FILES; i++ )
        hypfs_add_leaf(&tracing_dir, &leaves[i], true);
#ifdef DYNTRACE_WITH_GRAPH
    for ( i = 0; i < nr_added; i++ )
    {
        struct added *a = &added[i];
        unsigned int j;

        /* A directory once, with the leaves of every table in it. */
        for ( j = 0; j < i && added[j].dir != a->dir; j++ )
            continue;
        if ( a->dir && j == i )
            hypfs_add_dir(&tracing_dir, a->dir, true);
        for ( j = 0; j < a->nr_leaves; j++ )
            hypfs_add_leaf(a->dir ?: &tracing_dir, &a->leaves[j], true);
    }
#endif
#ifdef DYNTRACE_WITH_BUFFERS
    hypfs_add_dir(&tracing_dir, &dt_fs_per_cpu_dir, true);
    hypfs_add_dyndir(&dt_fs_per_cpu_dir, &dt_fs_cpu_template);
    for ( i = 0; i < NR_CPU_FILES; i++ )
        hypfs_add_leaf(&dt_fs_cpu_template, &cpu_leaves[i], true);
#endif

    return 0;
}
__initcall(dyntrace_hypfs_init);
