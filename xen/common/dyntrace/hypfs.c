/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the /tracing HypFS directory.
 *
 * Every file is one row of dt_files[]: its name, type, maximum write size,
 * how its content is read (fixed at boot, or an owned snapshot built per
 * HypFS operation) and its write handler.  The leaves and their hypfs_funcs
 * are built from that table at boot.
 *
 * Dynamic leaves read one owned snapshot per HypFS operation: built when
 * getsize() first asks for it, its length is what getsize() reports and
 * exactly what read() copies; exit() drops it.  Writes never build one
 * (HypFS enters the leaf, then calls write() only).  Directory listings
 * (which enter every child and ask its size) skip building it too.
 */

#include <xen/bitmap.h>
#include <xen/bug.h>
#include <xen/ctype.h>
#include <xen/err.h>
#include <xen/guest_access.h>
#include <xen/hypfs.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/livepatch.h>
#include <xen/percpu.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <xen/xmalloc.h>

#include "patch.h"
#include "ring.h"
#include "sites.h"
#include "tracer.h"

/*
 * Longest write to current_tracer, NUL included.  set_function_filter and
 * set_function_notrace take at least SET_MAX_WRITE, and at least the length
 * of available_functions, so that whatever they read back can be written
 * back (with '*' that is every name).
 */
#define SET_MAX_WRITE    4096
#define TRACER_MAX_WRITE 64
/* trace takes only "": one byte. */
#define TRACE_MAX_WRITE  1
/* set_domain_filter: its longest words, and room for whitespace. */
#define DOMAINS_MAX_WRITE 512
/* tracing_cpumask: NR_CPUS bits in 32-bit groups of 8 digits and a comma. */
#define CPUMASK_MAX_WRITE (DIV_ROUND_UP(NR_CPUS, 32) * 9 + 64)
/* How long an unread trace snapshot is kept for a retry, from its making. */
#define RETRY_KEEP       SECONDS(2)

typedef int dt_write_t(struct hypfs_entry_leaf *leaf,
                       XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                       unsigned int ulen);

struct dt_file {
    const char *name;
    unsigned int type;              /* XEN_HYPFS_TYPE_* */
    unsigned int max_write;         /* 0: read-only */
    /* Dynamic leaf: build the snapshot one operation reads. */
    int (*build)(struct dyntrace_text *t);
    /* Dynamic leaf of per_cpu/cpuN/: build that CPU's snapshot. */
    int (*cpu_build)(struct dyntrace_text *t, unsigned int cpu);
    /* Dynamic leaf: the tracer's output (consuming it, if pipe). */
    bool trace, pipe, raw;
    /* Fixed content (when build is NULL): set it at boot. */
    int (*init)(struct hypfs_entry_leaf *leaf);
    dt_write_t *write;
    /* Keep an unread snapshot for the caller's retry (see snap_exit()). */
    bool retry;
    /* max_write grows to hold available_functions (names_len). */
    bool fits_names;
};

/*
 * ---- writes ----
 *
 * HypFS lets in a domain with XSM's hypfs_op permission.  The writes that
 * rewrite hypervisor text (current_tracer, set_function_filter,
 * set_function_notrace) also need the permission of a livepatch operation
 * (may_patch()):
 * under a FLASK policy, HypFS access alone must not patch text nor make
 * traced functions refuse security livepatches.
 */

/*
 * The word a failing write is logged with (error_log): set by the write
 * handlers, which HypFS's write lock serialises.
 */
#define BAD_WORD_MAX 64
static char bad_word[BAD_WORD_MAX];

/* One line of error_log: control and non-ASCII bytes shown as '?'. */
static void set_bad_word(const char *w)
{
    unsigned int i;

    safe_strcpy(bad_word, w);
    for ( i = 0; bad_word[i]; i++ )
        if ( (unsigned char)bad_word[i] < 0x20 ||
             (unsigned char)bad_word[i] >= 0x7f )
            bad_word[i] = '?';
}

/* Writes that patch text: does the writer hold the livepatch permission? */
static int may_patch(void)
{
    int rc = livepatch_check_permission();

    if ( rc )
        set_bad_word("(the livepatch permission)");

    return rc;
}

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

static int cf_check tracer_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    struct tracer *t;
    char *buf;
    int rc = may_patch();

    if ( rc )
        return rc;
    buf = copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
    strip_trailing_space(buf);
    set_bad_word(buf);
    t = dt_tracer_find(buf);
    xfree(buf);
    if ( !t )
        return -EINVAL;
    if ( t->usable )
    {
        const char *why = "";

        rc = t->usable(&why);
        if ( rc )
        {
            snprintf(bad_word, sizeof(bad_word), "%s: %s", t->name, why);
            return rc;
        }
    }

    return dt_request(&(struct dt_change){ .tracer = t });
}

/* Sites a notrace set may name: any (it only takes sites away). */
static bool any_site(unsigned int i)
{
    return true;
}

/*
 * Take the triggers ("[!]name:command[:count]") out of a filter text into
 * a copy of the committed scope (*base: its version), blanking them in
 * text: they add to (with '!': remove from) the triggers and leave the set
 * of functions alone.  NULL if there are none, or on error (*rc).
 */
static struct dt_scope *take_triggers(char *text, unsigned int *base,
                                      int *rc)
{
    struct dt_scope *s = NULL;
    char *p = text;

    *rc = 0;
    while ( *(p += strspn(p, " \t\n")) )
    {
        size_t len = dt_word_len(p);
        bool remove = *p == '!';
        char word[BAD_WORD_MAX];

        if ( !memchr(p, ':', len) )
        {
            p += len;
            continue;
        }
        snprintf(word, sizeof(word), "%.*s", (int)len, p);
        set_bad_word(word);
        *rc = -EINVAL;
        if ( len >= sizeof(word) )
            goto fail;
        if ( !s )
        {
            *rc = -ENOMEM;
            s = xmalloc(struct dt_scope);
            if ( !s )
                goto fail;
            *base = dt_state_scope_copy(s);
        }
        *rc = dt_scope_parse_trigger(s, word + (remove || *p == '+'), remove,
                                     dt_site_usable);
        if ( *rc )
            goto fail;
        memset(p, ' ', len);
        p += len;
    }
    bad_word[0] = '\0';

    return s;

 fail:
    xfree(s);
    return NULL;
}

/*
 * A set of functions in the filter language (dt_sites_parse()): replacing
 * the committed set, or edited in place when the first word starts with '+'
 * or '!'.  The filter also takes triggers (take_triggers()).
 */
static int set_write(enum dt_set which, struct hypfs_entry_leaf *leaf,
                     XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                     unsigned int ulen)
{
    unsigned long *map = NULL, *cur = NULL;
    unsigned int base = DT_SET_REPLACE, nr = dt_sites_nr(), scope_base = 0;
    char *text = NULL, *buf, *first;
    struct dt_scope *scope = NULL;
    const char *bad = NULL;
    bool edit;
#ifdef DYNTRACE_WITH_GRAPH
    /* set_graph_function rewrites no text. */
    int rc = which == DT_GRAPH ? 0 : may_patch();
#else
    int rc = may_patch();
#endif

    if ( rc )
        return rc;
    buf = copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
    if ( which == DT_FILTER )
    {
        scope = take_triggers(buf, &scope_base, &rc);
        if ( rc )
            goto out;
    }
    first = buf + strspn(buf, " \t\n");
    edit = *first == '+' || *first == '!';
    /* Only triggers: the set is unchanged. */
    if ( scope && !*first )
    {
        xfree(buf);
        return dt_request(&(struct dt_change){
            .scope = scope, .scope_base = scope_base });
    }

    rc = -ENOMEM;
    map = xzalloc_array(unsigned long, BITS_TO_LONGS(nr));
    cur = xzalloc_array(unsigned long, BITS_TO_LONGS(nr));
    if ( !map || !cur )
        goto out;
    /* An edit in place must find the set it was computed from. */
    if ( edit )
        base = dt_state_set_copy(which, cur);
    rc = dt_sites_parse(buf, map, cur,
                        which == DT_FILTER ? dt_site_usable : any_site, &bad);
    if ( rc )
    {
        if ( bad )
            set_bad_word(bad);
        goto out;
    }
    rc = -ENOMEM;
    text = dt_sites_names(map);
    if ( !text )
        goto out;

    xfree(cur);
    xfree(buf);
    return dt_request(&(struct dt_change){
        .which = which, .map = map, .text = text, .base = base,
        .scope = scope, .scope_base = scope_base });

 out:
    xfree(scope);
    xfree(map);
    xfree(cur);
    xfree(buf);
    return rc;
}

static int cf_check filter_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    return set_write(DT_FILTER, leaf, uaddr, ulen);
}

static int cf_check notrace_write(struct hypfs_entry_leaf *leaf,
                                  XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                  unsigned int ulen)
{
    return set_write(DT_NOTRACE, leaf, uaddr, ulen);
}

#ifdef DYNTRACE_WITH_GRAPH
static int cf_check graph_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    return set_write(DT_GRAPH, leaf, uaddr, ulen);
}
#endif

/*
 * set_domain_filter, tracing_cpumask: a new scope, from the committed one
 * with the file's part replaced.  They rewrite no text (no livepatch
 * permission needed); while entries are patched the scope is installed in
 * the rendezvous, so that no callback sees half of it.
 */
static int scope_write(bool cpumask, struct hypfs_entry_leaf *leaf,
                       XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                       unsigned int ulen)
{
    struct dt_scope *s;
    unsigned int base;
    const char *bad = NULL;
    char *buf;
    int rc;

    buf = copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
    s = xmalloc(struct dt_scope);
    rc = -ENOMEM;
    if ( !s )
        goto out;
    base = dt_state_scope_copy(s);
    rc = cpumask ? dt_scope_parse_cpumask(s, buf, &bad)
                 : dt_scope_parse_domains(s, buf, &bad);
    if ( rc )
    {
        if ( bad )
        {
            char word[BAD_WORD_MAX];

            /* The word alone (parse_cpumask leaves text unsplit). */
            snprintf(word, sizeof(word), "%.*s",
                     (int)dt_word_len(bad), bad);
            set_bad_word(word);
        }
        goto out;
    }
    xfree(buf);

    return dt_request(&(struct dt_change){ .scope = s, .scope_base = base });

 out:
    xfree(s);
    xfree(buf);
    return rc;
}

static int cf_check domains_write(struct hypfs_entry_leaf *leaf,
                                  XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                  unsigned int ulen)
{
    return scope_write(false, leaf, uaddr, ulen);
}

static int cf_check cpumask_write(struct hypfs_entry_leaf *leaf,
                                  XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                  unsigned int ulen)
{
    return scope_write(true, leaf, uaddr, ulen);
}

/* A boolean as HypFS writes it: one byte, 0 or 1. */
static int bool_write(bool *val, XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                      unsigned int ulen)
{
    uint8_t byte;

    if ( ulen != sizeof(byte) )
        return -EDOM;
    if ( copy_from_guest(&byte, uaddr, 1) )
        return -EFAULT;
    if ( byte > 1 )
    {
        snprintf(bad_word, sizeof(bad_word), "%u", byte);
        return -EINVAL;
    }
    *val = byte;

    return 0;
}

static int cf_check tracing_on_write(struct hypfs_entry_leaf *leaf,
                                     XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                     unsigned int ulen)
{
    bool on;
    int rc = bool_write(&on, uaddr, ulen);

    return rc ?: dt_state_set_on(on);
}

#ifdef DYNTRACE_WITH_PROFILER
/*
 * function_profile_enabled: the profiler on (counting afresh, if it was
 * off) or off (what it counted stays readable).  It traces the filter's
 * functions whatever the tracer: it patches.
 */
static int cf_check profile_write(struct hypfs_entry_leaf *leaf,
                                  XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                  unsigned int ulen)
{
    bool on;
    int rc = may_patch() ?: bool_write(&on, uaddr, ulen);

    if ( rc )
        return rc;
    rc = dt_request(&(struct dt_change){
        .profile = on ? DT_PROFILE_ON : DT_PROFILE_OFF });
    if ( rc == -ENODATA )
        set_bad_word("(set_function_filter is empty)");
    else if ( rc == -EOPNOTSUPP )
        set_bad_word("(no profiler in this build)");

    return rc;
}
#endif

/* buffer_size_kb: KiB per CPU, a 32-bit unsigned value as HypFS writes it. */
static int cf_check bufsize_write(struct hypfs_entry_leaf *leaf,
                                  XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                  unsigned int ulen)
{
    uint32_t kb;
    int rc;

    if ( ulen != sizeof(kb) )
        return -EDOM;
    if ( copy_from_guest(&kb, uaddr, 1) )
        return -EFAULT;
    rc = dt_state_resize(kb);
    if ( rc == -EINVAL )
        snprintf(bad_word, sizeof(bad_word), "%u (not %u to %u)", kb,
                 DT_RING_MIN_KB, DT_RING_MAX_KB);

    return rc;
}

#ifdef DYNTRACE_WITH_GRAPH
/* A 32-bit unsigned setting from 0 to max, as HypFS writes it. */
static int uint_write(uint32_t *var, uint32_t max,
                      XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                      unsigned int ulen)
{
    uint32_t val;

    if ( ulen != sizeof(val) )
        return -EDOM;
    if ( copy_from_guest(&val, uaddr, 1) )
        return -EFAULT;
    if ( val > max )
    {
        snprintf(bad_word, sizeof(bad_word), "%u (not 0 to %u)", val, max);
        return -EINVAL;
    }
    write_atomic(var, val);

    return 0;
}

static int cf_check depth_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    return uint_write(&dt_graph_max_depth, DT_GRAPH_DEPTH_MAX, uaddr, ulen);
}

/* tracing_thresh: microseconds, up to an hour. */
#define THRESH_MAX_US 3600000000U

static int cf_check thresh_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    return uint_write(&dt_tracing_thresh, THRESH_MAX_US, uaddr, ulen);
}
#endif

/* trace, error_log: max_size is 1, so the only string that fits is "". */
static int empty_string(struct hypfs_entry_leaf *leaf,
                        XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                        unsigned int ulen)
{
    char *buf;
    int rc;

    buf = copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    xfree(buf);

    return rc;
}

static int cf_check trace_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    int rc = empty_string(leaf, uaddr, ulen);

    return rc ?: dt_state_clear();
}

/*
 * ---- error_log ----
 *
 * ftrace's error_log: the last ERRLOG_ENTRIES failed writes to /tracing,
 * oldest first, each naming the file, the word that failed (when the
 * handler knows it) and why.  Errors of the patch operation itself, which
 * runs after the write's HypFS call (-ETIMEDOUT, -EAGAIN, a bad site), are
 * returned by the write and logged on Xen's console, not here.
 */
#define ERRLOG_ENTRIES 16
#define ERRLOG_LINE    (BAD_WORD_MAX + 128)

static DEFINE_SPINLOCK(errlog_lock);
static char errlog[ERRLOG_ENTRIES][ERRLOG_LINE];
static unsigned int errlog_next, errlog_count;

/*
 * Why a write failed, by its error and the file's type (0: any type; a
 * directory, type 0, takes no write): the first row that fits.  -EDOM is a
 * write of another size than the file's type has (e.g. bool_write(),
 * bufsize_write()).
 */
static const struct {
    int rc;
    unsigned int type;
    const char *why;
} errlog_why[] = {
    { -ENOENT,  0, "no such function, or a pattern that matches none" },
    { -EPERM,   0, "not traceable, or not permitted" },
    { -EEXIST,  0, "rewritten by a livepatch" },
    { -EINVAL,  0, "invalid value" },
    { -ENOSPC,  0, "longer than the file takes" },
    { -ENODATA, 0, "no function to trace" },
    { -EBUSY,   0, "another operation in progress, or the set changed" },
    { -EDOM,    XEN_HYPFS_TYPE_BOOL, "not a boolean (1 byte)" },
    { -EDOM,    XEN_HYPFS_TYPE_UINT,
      "not a 32-bit unsigned integer (4 bytes)" },
    { -EDOM,    0, "not the size of the file's type" },
    { -EACCES,  0, "permission denied" },
    { -ENOMEM,  0, "out of memory" },
    { -EFAULT,  0, "bad address" },
    { -EOPNOTSUPP, 0, "not supported" },
};

static void errlog_add(const struct dt_file *f, int rc, unsigned int ulen)
{
    const char *why = "error";
    char word[BAD_WORD_MAX + 16];
    s_time_t now = NOW();
    unsigned int i;

    for ( i = 0; i < ARRAY_SIZE(errlog_why); i++ )
        if ( errlog_why[i].rc == rc &&
             (!errlog_why[i].type || errlog_why[i].type == f->type) )
        {
            why = errlog_why[i].why;
            break;
        }
    if ( bad_word[0] )
        snprintf(word, sizeof(word), "'%s'", bad_word);
    else
        snprintf(word, sizeof(word), "(%u bytes)", ulen);

    spin_lock(&errlog_lock);
    snprintf(errlog[errlog_next], ERRLOG_LINE,
             "[%5lu.%06lu] %s: %s: %s (%d)\n",
             (unsigned long)(now / SECONDS(1)),
             (unsigned long)((now % SECONDS(1)) / 1000), f->name, word, why,
             rc);
    errlog_next = (errlog_next + 1) % ERRLOG_ENTRIES;
    if ( errlog_count < ERRLOG_ENTRIES )
        errlog_count++;
    spin_unlock(&errlog_lock);
}

static int cf_check errlog_build(struct dyntrace_text *t)
{
    unsigned int i, first;
    int rc;

    rc = dyntrace_text_alloc(t, ERRLOG_ENTRIES * ERRLOG_LINE + 1);
    if ( rc )
        return rc;
    spin_lock(&errlog_lock);
    first = (errlog_next + ERRLOG_ENTRIES - errlog_count) % ERRLOG_ENTRIES;
    for ( i = 0; i < errlog_count; i++ )
        dyntrace_text_printf(t, ERRLOG_ENTRIES * ERRLOG_LINE + 1, "%s",
                             errlog[(first + i) % ERRLOG_ENTRIES]);
    spin_unlock(&errlog_lock);

    return 0;
}

static int cf_check errlog_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    int rc = empty_string(leaf, uaddr, ulen);

    if ( rc )
        return rc;

    spin_lock(&errlog_lock);
    errlog_next = errlog_count = 0;
    spin_unlock(&errlog_lock);

    return 0;
}

/* ---- reads ---- */

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

static int __init cf_check tracing_on_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_state_on();
    leaf->e.size = sizeof(bool);

    return 0;
}

#ifdef DYNTRACE_WITH_PROFILER
static int __init cf_check profile_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_state_profiling();
    leaf->e.size = sizeof(bool);

    return 0;
}
#endif

static int __init cf_check bufsize_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_rings_kb();
    leaf->e.size = sizeof(uint32_t);

    return 0;
}

#ifdef DYNTRACE_WITH_GRAPH
static int __init cf_check depth_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = &dt_graph_max_depth;
    leaf->e.size = sizeof(uint32_t);

    return 0;
}

static int __init cf_check thresh_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = &dt_tracing_thresh;
    leaf->e.size = sizeof(uint32_t);

    return 0;
}
#endif

static int __init cf_check buftotal_init(struct hypfs_entry_leaf *leaf)
{
    leaf->u.content = dt_rings_total_kb();
    leaf->e.size = sizeof(uint32_t);

    return 0;
}

static const struct dt_file dt_files[] = {
    { .name = "available_tracers", .type = XEN_HYPFS_TYPE_STRING,
      .init = tracers_init },
    { .name = "current_tracer", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = TRACER_MAX_WRITE, .build = dt_state_tracer_name,
      .write = tracer_write },
    { .name = "available_functions", .type = XEN_HYPFS_TYPE_STRING,
      .init = functions_init },
    { .name = "available_functions_addrs", .type = XEN_HYPFS_TYPE_STRING,
      .build = addrs_build },
    { .name = "set_function_filter", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = SET_MAX_WRITE, .fits_names = true,
      .build = dt_state_filter_text, .write = filter_write },
    { .name = "set_function_notrace", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = SET_MAX_WRITE, .fits_names = true,
      .build = dt_state_notrace_text, .write = notrace_write },
    { .name = "set_domain_filter", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = DOMAINS_MAX_WRITE, .build = domains_build,
      .write = domains_write },
    { .name = "tracing_cpumask", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = CPUMASK_MAX_WRITE, .build = cpumask_build,
      .write = cpumask_write },
    { .name = "tracing_on", .type = XEN_HYPFS_TYPE_BOOL,
      .max_write = sizeof(bool), .init = tracing_on_init,
      .write = tracing_on_write },
    { .name = "trace", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = TRACE_MAX_WRITE, .trace = true, .write = trace_write,
      .retry = true },
    { .name = "trace_pipe", .type = XEN_HYPFS_TYPE_STRING,
      .trace = true, .pipe = true, .retry = true },
    { .name = "buffer_size_kb", .type = XEN_HYPFS_TYPE_UINT,
      .max_write = sizeof(uint32_t), .init = bufsize_init,
      .write = bufsize_write },
    { .name = "buffer_total_size_kb", .type = XEN_HYPFS_TYPE_UINT,
      .init = buftotal_init },
    { .name = "enabled_functions", .type = XEN_HYPFS_TYPE_STRING,
      .build = enabled_build },
#ifdef DYNTRACE_WITH_GRAPH
    { .name = "max_graph_depth", .type = XEN_HYPFS_TYPE_UINT,
      .max_write = sizeof(uint32_t), .init = depth_init,
      .write = depth_write },
    { .name = "tracing_thresh", .type = XEN_HYPFS_TYPE_UINT,
      .max_write = sizeof(uint32_t), .init = thresh_init,
      .write = thresh_write },
    { .name = "set_graph_function", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = SET_MAX_WRITE, .fits_names = true,
      .build = dt_state_graph_text, .write = graph_write },
#endif
#ifdef DYNTRACE_WITH_PROFILER
    { .name = "function_profile_enabled", .type = XEN_HYPFS_TYPE_BOOL,
      .max_write = sizeof(bool), .init = profile_init,
      .write = profile_write },
#endif
    { .name = "error_log", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = TRACE_MAX_WRITE, .build = errlog_build,
      .write = errlog_write },
};

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

#ifdef DYNTRACE_WITH_PROFILER
/*
 * ---- trace_stat/ ----
 *
 * The profiler's statistics: function<N> for every CPU Xen can have
 * (nr_cpu_ids; a CPU that never ran the profiler shows no function), and
 * domains, every CPU's by domain.
 */
static int cf_check stat_cpu_build(struct dyntrace_text *t, unsigned int cpu)
{
    const struct dt_profiler *p = dt_profiler();

    return p ? p->print_cpu(t, cpu) : -EOPNOTSUPP;
}

static int cf_check stat_domains_build(struct dyntrace_text *t)
{
    const struct dt_profiler *p = dt_profiler();

    return p ? p->print_domains(t) : -EOPNOTSUPP;
}

static const struct dt_file dt_stat_files[] = {
    { .name = "domains", .type = XEN_HYPFS_TYPE_STRING,
      .build = stat_domains_build },
};
/* The row of every trace_stat/function<N> leaf. */
static const struct dt_file dt_stat_function = {
    .name = "function", .type = XEN_HYPFS_TYPE_STRING,
    .cpu_build = stat_cpu_build,
};
/* "function" and a CPU number. */
#define STAT_NAME_MAX 20
#endif

#define NR_FILES ARRAY_SIZE(dt_files)
#define NR_CPU_FILES ARRAY_SIZE(dt_cpu_files)
#ifdef DYNTRACE_WITH_PROFILER
#define NR_STAT_FILES ARRAY_SIZE(dt_stat_files)
#endif

static struct hypfs_entry_leaf leaves[NR_FILES];
static struct hypfs_funcs leaf_funcs[NR_FILES];
static struct hypfs_entry_leaf cpu_leaves[NR_CPU_FILES];
static struct hypfs_funcs cpu_leaf_funcs[NR_CPU_FILES];
#ifdef DYNTRACE_WITH_PROFILER
static struct hypfs_entry_leaf stat_leaves[NR_STAT_FILES];
static struct hypfs_funcs stat_leaf_funcs[NR_STAT_FILES];
/* trace_stat/function<N>: nr_cpu_ids of them, sharing their funcs. */
static struct hypfs_entry_leaf *function_leaves;
static struct hypfs_funcs function_leaf_funcs;

static bool is_function_leaf(const struct hypfs_entry *e)
{
    const struct hypfs_entry_leaf *l =
        container_of(e, const struct hypfs_entry_leaf, e);

    return function_leaves && l >= function_leaves &&
           l < function_leaves + nr_cpu_ids;
}
#endif

static bool is_cpu_leaf(const struct hypfs_entry *e)
{
    const struct hypfs_entry_leaf *l =
        container_of(e, const struct hypfs_entry_leaf, e);

    return l >= cpu_leaves && l < cpu_leaves + NR_CPU_FILES;
}

static const struct dt_file *file_of(const struct hypfs_entry *e)
{
    const struct hypfs_entry_leaf *l =
        container_of(e, const struct hypfs_entry_leaf, e);

    if ( is_cpu_leaf(e) )
        return &dt_cpu_files[l - cpu_leaves];
#ifdef DYNTRACE_WITH_PROFILER
    if ( is_function_leaf(e) )
        return &dt_stat_function;
    if ( l >= stat_leaves && l < stat_leaves + NR_STAT_FILES )
        return &dt_stat_files[l - stat_leaves];
#endif

    ASSERT(l >= leaves && l < leaves + NR_FILES);

    return &dt_files[l - leaves];
}

/* Every write: its handler, and error_log if it fails. */
static int cf_check logged_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    const struct dt_file *f = file_of(&leaf->e);
    int rc;

    bad_word[0] = '\0';
    rc = f->write(leaf, uaddr, ulen);
    if ( rc < 0 )
        errlog_add(f, rc, ulen);

    return rc;
}

/* The snapshot of one HypFS operation on a dynamic leaf. */
struct snap {
    struct dyntrace_text text;
    struct dyntrace_read rd;    /* for the tracer's output */
    int rc;                     /* the build's result */
    unsigned int gen;           /* dt_state_gen() before it was taken */
    unsigned int consumes;      /* dt_rings_consumes() before it was taken */
    s_time_t born;              /* when it was taken (kept across retries) */
    bool built;
    bool sized;                 /* getsize() ran: this is a read */
    bool consumed;              /* read() copied it out */
};

/* Set while /tracing is listed: its leaves then build no snapshot. */
static DEFINE_PER_CPU(bool, listing);

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

static void snap_build(const struct dt_file *f, struct snap *d, int cpu)
{
    d->built = true;
    d->rd.cpu = cpu;
    if ( f->retry )
    {
        d->gen = dt_state_gen();
        d->consumes = dt_rings_consumes();
        if ( cache_take(f, d) )
            return;
    }
    d->born = NOW();
    if ( f->trace )
    {
        d->rd.pipe = f->pipe;
        d->rd.raw = f->raw;
        d->rc = dt_state_tracer()->print(&d->text, &d->rd);
    }
    else if ( f->cpu_build )
        d->rc = f->cpu_build(&d->text, cpu);
    else
        d->rc = f->build(&d->text);
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

    return is_cpu_leaf(e) ? &((struct cpu_dyn *)d)->snap : d;
}

#ifdef DYNTRACE_WITH_PROFILER
/*
 * The CPU whose buffer (or profile) leaf e shows, or -1 for /tracing's
 * own.
 */
static int op_cpu(const struct hypfs_entry *e)
{
    if ( is_function_leaf(e) )
        return container_of(e, const struct hypfs_entry_leaf, e) -
               function_leaves;

#else
/* The CPU whose buffer leaf e shows, or -1 for /tracing's own. */
static int op_cpu(const struct hypfs_entry *e)
{
#endif
    return is_cpu_leaf(e) ? (int)((struct cpu_dyn *)hypfs_get_dyndata())->id.id
                          : -1;
}

static const struct hypfs_entry *cf_check snap_enter(
    const struct hypfs_entry *e)
{
    /* per_cpu/ has the room; listings build no snapshot. */
    if ( is_cpu_leaf(e) || this_cpu(listing) )
        return e;

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
        snap_build(file_of(e), d, op_cpu(e));
    d->sized = true;

    /* A failed build reports no content; read() then returns the error. */
    return d->rc ? 0 : d->text.len;
}

static int cf_check snap_read(const struct hypfs_entry *e,
                              XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    struct snap *d = op_snap(e);

    if ( !d->built )
        snap_build(file_of(e), d, op_cpu(e));
    if ( d->rc )
        return d->rc;
    if ( copy_to_guest(uaddr, d->text.buf, d->text.len) )
        return -EFAULT;
    /* A consuming read consumes what it returned, and only then. */
    if ( d->rd.consume )
    {
        int rc = dt_rings_consume(d->rd.consume, true);

        if ( rc )
            return rc;
    }
    d->consumed = true;

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
    if ( file_of(e)->retry && d->built && !d->rc && d->sized &&
         !d->consumed )
        cache_put(file_of(e), d);
    dyntrace_text_free(&d->text);
    dt_rings_free_snapshot(d->rd.consume);
    d->rd.consume = NULL;
    if ( !is_cpu_leaf(e) )
        hypfs_free_dyndata();
}

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

static HYPFS_DIR_INIT_FUNC(cpu_template, "cpu%u", &dir_funcs);

static unsigned int cf_check cpus_getsize(const struct hypfs_entry *e)
{
    const cpumask_t *cpus = cpus_taken();
    unsigned int cpu, size = 0;

    for_each_cpu ( cpu, cpus )
        size += hypfs_dynid_entry_size(&cpu_template.e, cpu);

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
        rc = hypfs_read_dyndir_id_entry(&cpu_template, cpu,
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

    return hypfs_gen_dyndir_id_entry(&cpu_template, cpu, NULL);
}

static const struct hypfs_funcs cpus_funcs = {
    .enter = cpus_enter,
    .exit = cpus_exit,
    .read = cpus_read,
    .write = hypfs_write_deny,
    .getsize = cpus_getsize,
    .findentry = cpus_findentry,
};

static HYPFS_DIR_INIT_FUNC(per_cpu_dir, "per_cpu", &cpus_funcs);

static HYPFS_DIR_INIT_FUNC(tracing_dir, "tracing", &dir_funcs);
#ifdef DYNTRACE_WITH_PROFILER
static HYPFS_DIR_INIT_FUNC(trace_stat_dir, "trace_stat", &dir_funcs);
#endif

/* A leaf and its hypfs_funcs, from its row of dt_files[]/dt_cpu_files[]. */
static int __init leaf_init(const struct dt_file *f,
                            struct hypfs_entry_leaf *l, struct hypfs_funcs *fn)
{
    int rc;

    fn->findentry = hypfs_leaf_findentry;
    fn->write = f->write ? logged_write : hypfs_write_deny;
    if ( f->build || f->cpu_build || f->trace )
    {
        fn->enter = snap_enter;
        fn->exit = snap_exit;
        fn->read = snap_read;
        fn->getsize = snap_getsize;
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

static int __init cf_check dyntrace_hypfs_init(void)
{
    unsigned int i;
    int rc = dt_state_init();

    if ( rc )
        return rc;

    /* On CPU 0, which never goes offline. */
    init_timer(&cache_timer, cache_expire, NULL, 0);

    for ( i = 0; i < NR_FILES; i++ )
    {
        rc = leaf_init(&dt_files[i], &leaves[i], &leaf_funcs[i]);
        if ( rc )
            return rc;
    }
    for ( i = 0; i < NR_CPU_FILES; i++ )
    {
        rc = leaf_init(&dt_cpu_files[i], &cpu_leaves[i], &cpu_leaf_funcs[i]);
        if ( rc )
            return rc;
    }

#ifdef DYNTRACE_WITH_PROFILER
    for ( i = 0; i < NR_STAT_FILES; i++ )
    {
        rc = leaf_init(&dt_stat_files[i], &stat_leaves[i],
                       &stat_leaf_funcs[i]);
        if ( rc )
            return rc;
    }
    function_leaves = xzalloc_array(struct hypfs_entry_leaf, nr_cpu_ids);
    if ( !function_leaves )
        return -ENOMEM;
    for ( i = 0; i < nr_cpu_ids; i++ )
    {
        char *name = xmalloc_array(char, STAT_NAME_MAX);

        if ( !name )
            return -ENOMEM;
        snprintf(name, STAT_NAME_MAX, "function%u", i);
        rc = leaf_init(&dt_stat_function, &function_leaves[i],
                       &function_leaf_funcs);
        if ( rc )
            return rc;
        function_leaves[i].e.name = name;
    }
#endif

    hypfs_add_dir(&hypfs_root, &tracing_dir, true);
    for ( i = 0; i < NR_FILES; i++ )
        hypfs_add_leaf(&tracing_dir, &leaves[i], true);
#ifdef DYNTRACE_WITH_PROFILER
    hypfs_add_dir(&tracing_dir, &trace_stat_dir, true);
    for ( i = 0; i < NR_STAT_FILES; i++ )
        hypfs_add_leaf(&trace_stat_dir, &stat_leaves[i], true);
    for ( i = 0; i < nr_cpu_ids; i++ )
        hypfs_add_leaf(&trace_stat_dir, &function_leaves[i], true);
#endif
    hypfs_add_dir(&tracing_dir, &per_cpu_dir, true);
    hypfs_add_dyndir(&per_cpu_dir, &cpu_template);
    for ( i = 0; i < NR_CPU_FILES; i++ )
        hypfs_add_leaf(&cpu_template, &cpu_leaves[i], true);

    return 0;
}
__initcall(dyntrace_hypfs_init);
