/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the writes to /tracing, and error_log, which records why each
 * failed write failed.
 *
 * HypFS lets in a domain with XSM's hypfs_op permission.  The writes that
 * rewrite hypervisor text (current_tracer, set_function_filter,
 * set_function_notrace) also need the permission of a livepatch operation
 * (dt_fs_may_patch()):
 * under a FLASK policy, HypFS access alone must not patch text nor make
 * traced functions refuse security livepatches.
 */

#include <xen/bitmap.h>
#include <xen/ctype.h>
#include <xen/errno.h>
#include <xen/guest_access.h>
#include <xen/hypfs.h>
#include <xen/lib.h>
#include <xen/livepatch.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/xmalloc.h>

#include "hypfs_files.h"
#include "patch.h"
#include "ring.h"
#include "sites.h"
#include "tracer.h"

/*
 * The word a failing write is logged with (error_log): set by the write
 * handlers, which HypFS's write lock serialises.
 */
#define BAD_WORD_MAX 64
static char bad_word[BAD_WORD_MAX];

/* One line of error_log: control and non-ASCII bytes shown as '?'. */
#ifdef DYNTRACE_WITH_GRAPH
void dt_fs_set_bad_word(const char *w)
#else
static void dt_fs_set_bad_word(const char *w)
#endif
{
    unsigned int i;

    safe_strcpy(bad_word, w);
    for ( i = 0; bad_word[i]; i++ )
        if ( (unsigned char)bad_word[i] < 0x20 ||
             (unsigned char)bad_word[i] >= 0x7f )
            bad_word[i] = '?';
}

/* Writes that patch text: does the writer hold the livepatch permission? */
#ifdef DYNTRACE_WITH_GRAPH
int dt_fs_may_patch(void)
#else
static int dt_fs_may_patch(void)
#endif
{
    int rc = livepatch_check_permission();

    if ( rc )
        dt_fs_set_bad_word("(the livepatch permission)");

    return rc;
}

/* Copy a written string: NUL-terminated exactly at its end, at most max. */
#ifdef DYNTRACE_WITH_EVENTS
char *dt_fs_copy_string(XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                        unsigned int ulen, unsigned int max, int *rc)
#else
static char *dt_fs_copy_string(XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                               unsigned int ulen, unsigned int max, int *rc)
#endif
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

int cf_check dt_fs_tracer_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    struct dyntrace_tracer *t;
    char *buf;
    int rc = dt_fs_may_patch();

    if ( rc )
        return rc;
    buf = dt_fs_copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
    strip_trailing_space(buf);
    dt_fs_set_bad_word(buf);
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
static bool cf_check any_site(unsigned int i)
{
    return true;
}

#ifdef DYNTRACE_WITH_SCOPE
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
        dt_fs_set_bad_word(word);
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
#else
/*
 * A set of functions in the filter language (dt_sites_parse()): replacing
 * the committed set, or edited in place when the first word starts with '+'
 * or '!'.
 */
#endif
#ifdef DYNTRACE_WITH_GRAPH
int dt_fs_set_write(enum dt_set which, struct hypfs_entry_leaf *leaf,
                    XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                    unsigned int ulen)
#else
static int dt_fs_set_write(enum dt_set which, struct hypfs_entry_leaf *leaf,
                           XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                           unsigned int ulen)
#endif
{
    unsigned long *map = NULL, *cur = NULL;
#ifdef DYNTRACE_WITH_SCOPE
    unsigned int base = DT_SET_REPLACE, nr = dt_sites_nr(), scope_base = 0;
    struct dt_scope *scope = NULL;
#else
    unsigned int base = DT_SET_REPLACE, nr = dt_sites_nr();
#endif
    char *text = NULL, *buf, *first;
    const char *bad = NULL;
    bool edit;
#ifdef DYNTRACE_WITH_GRAPH
    /* set_graph_function rewrites no text. */
    int rc = which == DT_GRAPH ? 0 : dt_fs_may_patch();
#else
    int rc = dt_fs_may_patch();
#endif

    if ( rc )
        return rc;
    buf = dt_fs_copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    if ( !buf )
        return rc;
#ifdef DYNTRACE_WITH_SCOPE
    if ( which == DT_FILTER )
    {
        scope = take_triggers(buf, &scope_base, &rc);
        if ( rc )
            goto out;
    }
#endif
    first = buf + strspn(buf, " \t\n");
    edit = *first == '+' || *first == '!';
#ifdef DYNTRACE_WITH_SCOPE
    /* Only triggers: the set is unchanged. */
    if ( scope && !*first )
    {
        xfree(buf);
        return dt_request(&(struct dt_change){
            .scope = scope, .scope_base = scope_base });
    }
#endif

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
            dt_fs_set_bad_word(bad);
        goto out;
    }
    rc = -ENOMEM;
    text = dt_sites_names(map);
    if ( !text )
        goto out;

    xfree(cur);
    xfree(buf);
#ifdef DYNTRACE_WITH_SCOPE
    return dt_request(&(struct dt_change){
        .which = which, .map = map, .text = text, .base = base,
        .scope = scope, .scope_base = scope_base });
#else
    return dt_request(&(struct dt_change){
        .which = which, .map = map, .text = text, .base = base });
#endif

 out:
#ifdef DYNTRACE_WITH_SCOPE
    xfree(scope);
#endif
    xfree(map);
    xfree(cur);
    xfree(buf);
    return rc;
}

int cf_check dt_fs_filter_write(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    return dt_fs_set_write(DT_FILTER, leaf, uaddr, ulen);
}

int cf_check dt_fs_notrace_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    return dt_fs_set_write(DT_NOTRACE, leaf, uaddr, ulen);
}

#ifdef DYNTRACE_WITH_SCOPE
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

    buf = dt_fs_copy_string(uaddr, ulen, leaf->e.max_size, &rc);
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
            dt_fs_set_bad_word(word);
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

int cf_check dt_fs_domains_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    return scope_write(false, leaf, uaddr, ulen);
}

int cf_check dt_fs_cpumask_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    return scope_write(true, leaf, uaddr, ulen);
}
#endif

/* A boolean as HypFS writes it: one byte, 0 or 1. */
#ifdef DYNTRACE_WITH_GRAPH
int dt_fs_bool_write(bool *val, XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                     unsigned int ulen)
#else
static int dt_fs_bool_write(bool *val,
                            XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                            unsigned int ulen)
#endif
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

int cf_check dt_fs_tracing_on_write(struct hypfs_entry_leaf *leaf,
                                    XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                    unsigned int ulen)
{
    bool on;
    int rc = dt_fs_bool_write(&on, uaddr, ulen);

    return rc ?: dt_state_set_on(on);
}

#ifdef DYNTRACE_WITH_BUFFERS
/* buffer_size_kb: KiB per CPU, a 32-bit unsigned value as HypFS writes it. */
int cf_check dt_fs_bufsize_write(struct hypfs_entry_leaf *leaf,
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
#endif

#ifdef DYNTRACE_WITH_GRAPH
/* A 32-bit unsigned setting from 0 to max, as HypFS writes it. */
int dt_fs_uint_write(uint32_t *var, uint32_t max,
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
#endif

/* trace, error_log: max_size is 1, so the only string that fits is "". */
static int empty_string(struct hypfs_entry_leaf *leaf,
                        XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                        unsigned int ulen)
{
    char *buf;
    int rc;

    buf = dt_fs_copy_string(uaddr, ulen, leaf->e.max_size, &rc);
    xfree(buf);

    return rc;
}

int cf_check dt_fs_trace_write(struct hypfs_entry_leaf *leaf,
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
 * write of another size than the file's type has (e.g. dt_fs_bool_write()).
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

int cf_check dt_fs_errlog_build(struct dyntrace_text *t)
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

int cf_check dt_fs_errlog_write(struct hypfs_entry_leaf *leaf,
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

/* Every write: its handler, and error_log if it fails. */
#ifdef DYNTRACE_WITH_EVENTS
int dt_fs_row_write(const struct dt_file *f, struct hypfs_entry_leaf *leaf,
                    XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                    unsigned int ulen)
#else
static int dt_fs_row_write(const struct dt_file *f,
                           struct hypfs_entry_leaf *leaf,
                           XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                           unsigned int ulen)
#endif
{
    int rc;

    bad_word[0] = '\0';
    rc = f->write(leaf, uaddr, ulen);
    if ( rc < 0 )
        errlog_add(f, rc, ulen);

    return rc;
}

int cf_check dt_fs_logged_write(struct hypfs_entry_leaf *leaf,
                               XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                               unsigned int ulen)
{
    return dt_fs_row_write(dt_fs_file(&leaf->e), leaf, uaddr, ulen);
}
