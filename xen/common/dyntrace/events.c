/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: Xen's trace points (trace(), public/trace.h) recorded as
 * events in the tracer's buffers, beside the function records, whether
 * xentrace runs or not: the events' table (public/dyntrace_events.h), their
 * enable files (/tracing/events/, set_event, available_events), the
 * recording of one, and its line of text.
 *
 * The rules (E1 ... E6 of docs/designs/dyntrace-events.md):
 * E1 The enable state (ev_on[], trace_users.dyntrace) changes only under
 *    HypFS's write lock, one whole store at a time; a trace point reads it
 *    with no lock, and one racing a write records or not.  Events are
 *    enabled first, then the trace points' flag; disabled in the reverse
 *    order.  The lookup of an event's row (row_cache[]) depends on the
 *    const table alone: it is no part of this state.
 * E2 An event is recorded under its CPU's buffer reservation (WRITING),
 *    and its scope is tested there: so a holder of every buffer sees no
 *    event half written, nor one judged by a scope it is replacing
 *    (dt_scope_install() outside the rendezvous holds them all).
 * E3 An event of more than three words is written as two records in one
 *    reservation, the continuation published after its head
 *    (dt_ring_next()); a consuming read never returns the head alone
 *    (dt_events_whole()), so the pair reaches a reader whole unless the
 *    buffer overwrote one of them.
 * E4 Recording obeys tracing_on (dt_recording, tested before and again
 *    after the reservation, as function.c does), tracing_cpumask and
 *    set_domain_filter (the scope).
 * E5 Under function_graph, the entry records still pending on the CPU's
 *    return stack (G1 of graph.c) are written before the event, as before
 *    a call's record, so that the event shows inside the calls under way.
 * E6 An event's triggers fire after its record, recorded or not, within
 *    the scope, as a function's do (dt_trigger_fire()); a write turns one
 *    off before changing its count, on after.
 */

#include <xen/bug.h>
#include <xen/dyntrace.h>
#include <xen/errno.h>
#include <xen/hypfs.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/string.h>
#include <xen/trace.h>
#include <xen/xmalloc.h>

#define XEN_DYNTRACE_EVENT_FORMATTER
#include <public/dyntrace_events.h>

#include "events.h"
#include "hypfs_files.h"
#include "ring.h"
#include "scope.h"
#include "tracer.h"

enum {
#define CLASS_ENUM(name, id, mask) CLASS_##name,
    XEN_DYNTRACE_EVENT_CLASSES(CLASS_ENUM)
#undef CLASS_ENUM
    NR_CLASSES
};

struct ev_class {
    const char *name;
    uint32_t id, mask;
};

static const struct ev_class classes[NR_CLASSES] = {
#define CLASS_ROW(name, id, mask) { #name, id, mask },
    XEN_DYNTRACE_EVENT_CLASSES(CLASS_ROW)
#undef CLASS_ROW
};

struct ev {
    const char *name;
    const char *fmt;
    uint32_t id, mask;
    unsigned int cls;
};

static const struct ev events[] = {
#define EVENT_ROW(cls, name, id, mask, fmt) \
    { #name, fmt, id, mask, CLASS_##cls },
    XEN_DYNTRACE_EVENTS(EVENT_ROW)
#undef EVENT_ROW
};
#define NR_EVENTS ARRAY_SIZE(events)

/* The events of class c: events[class_first[c], class_first[c + 1]). */
static unsigned int class_first[NR_CLASSES + 1];

/* The enable files' content (E1). */
static bool ev_on[NR_EVENTS];
static bool class_on[NR_CLASSES];
static bool all_on;

/* Each event's triggers (E6): at most one per command, as a function's. */
struct ev_trigger {
    bool set;
    int left;                   /* DT_TRIGGER_UNLIMITED: no count */
};
static struct ev_trigger ev_trig[NR_EVENTS][DT_TRIGGER_TRACEON + 1];

/* What a trace point does for event i (E1): record it, run its triggers. */
#define EV_RECORD   1
#define EV_TRIGGERS 2
static uint8_t ev_hot[NR_EVENTS];

/* The row of an event id, or -1. */
static int event_row(uint32_t id, unsigned int cls_mask)
{
    unsigned int c, i;

    for ( c = 0; c < NR_CLASSES && cls_mask; c++, cls_mask >>= 1 )
    {
        if ( !(cls_mask & 1) || (id & classes[c].mask) != classes[c].id )
            continue;
        for ( i = class_first[c]; i < class_first[c + 1]; i++ )
            if ( (id & events[i].mask) == events[i].id )
                return i;
    }

    return -1;
}

/*
 * event_row(id, all classes), remembered by a hash of the id: the table is
 * const, so an entry is never stale, and any CPU may fill one at any time.
 * An entry is one word, (id << 32) | (row + 1), 0 standing for no row; a
 * zero word is id 0's answer (no class has id 0), never a wrong one.  Two
 * ids of one bucket take turns: each lookup is still right.
 */
#define ROW_CACHE_ORDER 6
static uint64_t row_cache[1U << ROW_CACHE_ORDER];

static unsigned int row_hash(uint32_t id)
{
    return (id * 0x9e3779b1U) >> (32 - ROW_CACHE_ORDER);
}

/* Record one event of extra bytes of data (E2, E3, E4, E5). */
static void noinline event_record(uint32_t id, unsigned int extra,
                                  const void *data)
{
    struct xen_dyntrace_event *e;
    struct xen_dyntrace_event_more *m;
    const struct vcpu *v;
    struct dt_ring *r;
    unsigned long irq;
    unsigned int cpu, nr = DIV_ROUND_UP(extra, sizeof(uint32_t));
    unsigned int head = min_t(unsigned int, extra, sizeof(e->word));
    unsigned int flags = XEN_DYNTRACE_FLAG_EVENT | XEN_DYNTRACE_FLAG_RAW_TS;
    uint64_t stamp;

    if ( !local_irq_is_enabled() )
        flags |= XEN_DYNTRACE_FLAG_IRQS_OFF;

    local_irq_save(irq);
    /* E5: function_graph's calls under way show around the event. */
    if ( dt_tracer_active() )
        dt_graph_flush_for_event(smp_processor_id());
    e = dt_ring_reserve(&r, &cpu, RECORD_SIZE);
    if ( !e )
        goto out;
    /* As function.c: pairs with the smp_mb() of dt_state_set_on(). */
    if ( unlikely(!ACCESS_ONCE(dt_recording)) || !dt_scope_allows() )
    {
        dt_ring_cancel(r);
        goto out;
    }

    if ( local_irq_count(cpu) )
        flags |= XEN_DYNTRACE_FLAG_IN_IRQ;
    if ( arch_dyntrace_cpu_in_nmi(cpu) )
        flags |= XEN_DYNTRACE_FLAG_IN_NMI;
    stamp = arch_dyntrace_stamp();
    dt_ring_anchor_if_due(r, stamp, false);
    v = current;

    /*
     * The words may be a structure of any alignment, and (4.17's
     * __trace_var() rounds its size up) of any size: the rest is zeroes.
     */
    e->ts = stamp;
    e->id = id;
    memset(e->word, 0, sizeof(e->word));
    memcpy(e->word, data, head);
    e->domid = v->domain->domain_id;
    e->vcpu = v->vcpu_id;
    e->cpu = cpu;
    e->flags = flags;
    e->nr_words = nr;
    if ( nr > XEN_DYNTRACE_EVENT_HEAD_WORDS )
    {
        m = dt_ring_next(r, RECORD_SIZE);
        m->ts = stamp;
        memset(m->word, 0, sizeof(m->word));
        memcpy(m->word, data + head, extra - head);
        m->domid = e->domid;
        m->vcpu = e->vcpu;
        m->cpu = cpu;
        m->flags = flags;
        m->more = XEN_DYNTRACE_EVENT_MORE;
    }
    dt_ring_commit(r);

 out:
    local_irq_restore(irq);
}

/*
 * Event i's triggers (E6), after its record: as a function's, within the
 * scope, and only when they change tracing_on.
 */
static void event_triggers(unsigned int i)
{
    unsigned long flags;
    unsigned int k;

    local_irq_save(flags);
    if ( dt_scope_allows() )
        for ( k = 0; k < ARRAY_SIZE(ev_trig[i]); k++ )
            if ( ACCESS_ONCE(ev_trig[i][k].set) )
                dt_trigger_fire(&ev_trig[i][k].left, k);
    local_irq_restore(flags);
}

/* Event i (-1: no row) with triggers, or not in row_cache[] yet. */
static void noinline event_slow(int i, uint32_t id, unsigned int extra,
                                const void *data)
{
    unsigned int hot = i < 0 ? 0 : ACCESS_ONCE(ev_hot[i]);

    if ( (hot & EV_RECORD) && ACCESS_ONCE(dt_recording) )
        event_record(id, extra, data);
    if ( hot & EV_TRIGGERS )
        event_triggers(i);
}

/* An id not in row_cache[]: find its row, remember it, then as usual. */
static void noinline event_miss(uint32_t id, unsigned int extra,
                                const void *data)
{
    int i = event_row(id, ~0U);

    write_atomic(&row_cache[row_hash(id)],
                 ((uint64_t)id << 32) | (uint32_t)(i + 1));
    event_slow(i, id, extra, data);
}

/*
 * trace()'s call while an event is on (trace_users.dyntrace): record the
 * event if it is on, run its triggers if it has any.  Any context, IRQs on
 * or off.  The usual case, an event on without triggers, takes no frame
 * here.
 */
void dyntrace_trace_event(uint32_t event, unsigned int extra,
                          const void *data)
{
    uint32_t id = event & XEN_DYNTRACE_EVENT_ID_MASK;
    unsigned int hot;
    uint64_t c;
    int i;

    if ( extra > XEN_DYNTRACE_EVENT_WORDS * sizeof(uint32_t) )
        return;

    c = read_atomic(&row_cache[row_hash(id)]);
    if ( unlikely((uint32_t)(c >> 32) != id) )
    {
        event_miss(id, extra, data);
        return;
    }
    i = (int)(uint32_t)c - 1;
    if ( i < 0 )
        return;
    hot = ACCESS_ONCE(ev_hot[i]);
    if ( likely(hot == EV_RECORD) )
    {
        if ( ACCESS_ONCE(dt_recording) )
            event_record(id, extra, data);
    }
    else if ( hot )
        event_slow(i, id, extra, data);
}

/* ---- The text of an event ---- */

static bool is_more(const struct xen_dyntrace_record *r)
{
    return r->depth == XEN_DYNTRACE_EVENT_MORE;
}

unsigned int dt_event_text(char *buf, size_t len,
                           const struct xen_dyntrace_record *r,
                           const struct xen_dyntrace_record *end)
{
    const struct xen_dyntrace_event *e = (const void *)r;
    const struct xen_dyntrace_event_more *m = (const void *)(r + 1);
    uint32_t w[XEN_DYNTRACE_EVENT_WORDS];
    unsigned int nr = min_t(unsigned int, e->nr_words,
                            XEN_DYNTRACE_EVENT_HEAD_WORDS), used = 1, n;
    int i;

    buf[0] = '\0';
    /* A continuation whose head was overwritten: nothing to show. */
    if ( is_more(r) )
        return 1;

    memcpy(w, e->word, sizeof(e->word));
    if ( e->nr_words > XEN_DYNTRACE_EVENT_HEAD_WORDS && r + 1 < end &&
         dt_record_is_event(r + 1) && is_more(r + 1) && m->ts == e->ts )
    {
        memcpy(w + XEN_DYNTRACE_EVENT_HEAD_WORDS, m->word, sizeof(m->word));
        nr = min_t(unsigned int, e->nr_words, XEN_DYNTRACE_EVENT_WORDS);
        used = 2;
    }

    i = event_row(e->id, ~0U);
    if ( i < 0 )
        n = snprintf(buf, len, "event_%#x: ", e->id);
    else
        n = snprintf(buf, len, "%s: ", events[i].name);
    if ( n < len )
        xen_dyntrace_event_format(buf + n, len - n, i < 0 ? "" : events[i].fmt,
                                  e->id, w, nr);

    return used;
}

unsigned int dt_events_whole(const struct xen_dyntrace_record *recs,
                             unsigned int nr)
{
    const struct xen_dyntrace_record *last;

    if ( !nr )
        return 0;
    last = &recs[nr - 1];
    if ( dt_record_is_event(last) && !is_more(last) &&
         last->depth > XEN_DYNTRACE_EVENT_HEAD_WORDS )
        return nr - 1;

    return nr;
}

unsigned int dt_events_more(const struct xen_dyntrace_record *recs,
                            unsigned int nr)
{
    unsigned int i, more = 0;

    for ( i = 0; i < nr; i++ )
        more += dt_record_is_event(&recs[i]) && is_more(&recs[i]);

    return more;
}

/* ---- The enable state (E1) ---- */

/* Bring the class and global files and the trace points' tests up to date. */
static void enable_update(void)
{
    unsigned int c, i;
    bool on = false;

    all_on = true;
    for ( c = 0; c < NR_CLASSES; c++ )
    {
        class_on[c] = true;
        for ( i = class_first[c]; i < class_first[c + 1]; i++ )
            class_on[c] &= ev_on[i];
        all_on &= class_on[c];
    }
    for ( i = 0; i < NR_EVENTS; i++ )
    {
        unsigned int hot = ev_on[i] ? EV_RECORD : 0;

        if ( ev_trig[i][DT_TRIGGER_TRACEOFF].set ||
             ev_trig[i][DT_TRIGGER_TRACEON].set )
            hot |= EV_TRIGGERS;
        write_atomic(&ev_hot[i], hot);
        on |= hot;
    }

#ifdef CONFIG_TRACEBUFFER
    /* Events (already stored) before the flag. */
    if ( on )
    {
        smp_wmb();
        write_atomic(&trace_users.dyntrace, true);
    }
    else
        write_atomic(&trace_users.dyntrace, false);
#endif
}

/* ---- /tracing/events/ ---- */

/* Static, as the table: /tracing is built whole or not at all. */
static struct hypfs_entry_dir class_dirs[NR_CLASSES];
static struct hypfs_entry_dir event_dirs[NR_EVENTS];
static struct hypfs_entry_leaf class_leaves[NR_CLASSES];
static struct hypfs_entry_leaf event_leaves[NR_EVENTS];
static HYPFS_DIR_INIT_FUNC(events_dir, "events", &dt_fs_dir_funcs);
static struct hypfs_entry_leaf all_leaf;

/* events/enable, events/CLASS/enable, events/CLASS/EVENT/enable. */
static int cf_check enable_set(struct hypfs_entry_leaf *leaf,
                               XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                               unsigned int ulen)
{
    unsigned int first = 0, last = NR_EVENTS, i;
    bool on;
    int rc = dt_fs_bool_write(&on, uaddr, ulen);

    if ( rc )
        return rc;

    if ( leaf >= class_leaves && leaf < class_leaves + NR_CLASSES )
    {
        first = class_first[leaf - class_leaves];
        last = class_first[leaf - class_leaves + 1];
    }
    else if ( leaf >= event_leaves && leaf < event_leaves + NR_EVENTS )
    {
        first = leaf - event_leaves;
        last = first + 1;
    }
    else
        ASSERT(leaf == &all_leaf);

    for ( i = first; i < last; i++ )
        write_atomic(&ev_on[i], on);
    enable_update();

    return 0;
}

/* The write of an enable file, failures logged in error_log by path. */
static int cf_check enable_write(struct hypfs_entry_leaf *leaf,
                                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                 unsigned int ulen)
{
    char name[64];
    struct dt_file f = {
        .name = name, .type = XEN_HYPFS_TYPE_BOOL, .write = enable_set,
    };

    if ( leaf >= class_leaves && leaf < class_leaves + NR_CLASSES )
        snprintf(name, sizeof(name), "events/%s/enable",
                 classes[leaf - class_leaves].name);
    else if ( leaf >= event_leaves && leaf < event_leaves + NR_EVENTS )
        snprintf(name, sizeof(name), "events/%s/%s/enable",
                 classes[events[leaf - event_leaves].cls].name,
                 events[leaf - event_leaves].name);
    else
        safe_strcpy(name, "events/enable");

    return dt_fs_row_write(&f, leaf, uaddr, ulen);
}

static const struct hypfs_funcs enable_funcs = {
    .enter = hypfs_node_enter,
    .exit = hypfs_node_exit,
    .read = hypfs_read_leaf,
    .write = enable_write,
    .getsize = hypfs_getsize,
    .findentry = hypfs_leaf_findentry,
};

static void __init dir_init(struct hypfs_entry_dir *d, const char *name)
{
    d->e.type = XEN_HYPFS_TYPE_DIR;
    d->e.encoding = XEN_HYPFS_ENC_PLAIN;
    d->e.name = name;
    d->e.funcs = &dt_fs_dir_funcs;
    INIT_LIST_HEAD(&d->e.list);
    INIT_LIST_HEAD(&d->dirlist);
}

static void __init enable_init(struct hypfs_entry_dir *dir,
                               struct hypfs_entry_leaf *l, bool *content)
{
    l->e.type = XEN_HYPFS_TYPE_BOOL;
    l->e.encoding = XEN_HYPFS_ENC_PLAIN;
    l->e.name = "enable";
    l->e.size = sizeof(bool);
    l->e.max_size = sizeof(bool);
    l->e.funcs = &enable_funcs;
    l->u.content = content;
    hypfs_add_leaf(dir, l, true);
}

/* ---- events/CLASS/EVENT/trigger (E6) ---- */

static struct hypfs_entry_leaf trigger_leaves[NR_EVENTS];
static struct hypfs_funcs trigger_funcs;

/*
 * Its triggers as ftrace shows them ("traceoff:count=2", "traceon:unlimited"),
 * counts as they are now; with none, the commands it takes.
 */
static int cf_check trigger_build(struct dyntrace_text *t, unsigned int i)
{
    unsigned long max = 64;
    unsigned int k, n = 0;
    int rc = dyntrace_text_alloc(t, max);

    if ( rc )
        return rc;
    for ( k = 0; k < ARRAY_SIZE(ev_trig[i]); k++ )
    {
        const struct ev_trigger *tr = &ev_trig[i][k];
        int left = ACCESS_ONCE(tr->left);

        if ( !tr->set )
            continue;
        n++;
        if ( left == DT_TRIGGER_UNLIMITED )
            dyntrace_text_printf(t, max, "%s:unlimited\n", dt_trigger_name(k));
        else
            dyntrace_text_printf(t, max, "%s:count=%d\n", dt_trigger_name(k),
                                 left);
    }
    if ( !n )
        dyntrace_text_printf(t, max, "# Available triggers:\n# %s %s\n",
                             dt_trigger_name(DT_TRIGGER_TRACEON),
                             dt_trigger_name(DT_TRIGGER_TRACEOFF));

    return 0;
}

static const struct dt_file trigger_row = {
    .name = "trigger", .type = XEN_HYPFS_TYPE_STRING, .max_write = 256,
    .index_build = trigger_build,
};

/*
 * Words "cmd[:count]" set a trigger (replacing the event's of that
 * command), "!cmd" removes one; nothing but blanks removes them all.  All
 * or nothing.  -EINVAL: an unknown command, a bad count; -EOPNOTSUPP:
 * stacktrace; -ENOENT: removing one that is not set.
 */
static int cf_check trigger_set(struct hypfs_entry_leaf *leaf,
                                XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                unsigned int ulen)
{
    unsigned int i = leaf - trigger_leaves, k;
    struct ev_trigger want[ARRAY_SIZE(ev_trig[0])] = {};
    bool named[ARRAY_SIZE(ev_trig[0])] = {};
    char *text, *p, word[32];
    int rc;

    text = dt_fs_copy_string(uaddr, ulen, trigger_row.max_write, &rc);
    if ( !text )
        return rc;

    for ( k = 0; k < ARRAY_SIZE(want); k++ )
        want[k].set = ev_trig[i][k].set;
    p = text + strspn(text, " \t\n");
    if ( !*p )
        for ( k = 0; k < ARRAY_SIZE(want); k++ )
        {
            want[k].set = false;
            named[k] = true;
        }
    while ( *p )
    {
        size_t len = dt_word_len(p);
        bool remove = *p == '!', last = !p[len];
        enum dt_trigger_cmd cmd;
        int left;

        p[len] = '\0';
        /* The word as written, for error_log: parsing cuts it. */
        safe_strcpy(word, p);
        rc = dt_trigger_parse(p + remove, &cmd, &left);
        if ( !rc && remove && !want[cmd].set )
            rc = -ENOENT;
        if ( rc )
        {
            dt_fs_set_bad_word(word);
            goto out;
        }
        want[cmd].set = !remove;
        want[cmd].left = remove ? 0 : left;
        named[cmd] = true;
        p += len + !last;
        p += strspn(p, " \t\n");
    }

    /*
     * Only the commands written (a count another changes as it fires stays
     * its own): one removed is off before its count changes, one set is on
     * after (E6).
     */
    for ( k = 0; k < ARRAY_SIZE(want); k++ )
    {
        if ( !named[k] )
            continue;
        if ( !want[k].set )
            write_atomic(&ev_trig[i][k].set, false);
        write_atomic(&ev_trig[i][k].left, want[k].left);
    }
    smp_wmb();
    for ( k = 0; k < ARRAY_SIZE(want); k++ )
        if ( named[k] && want[k].set )
            write_atomic(&ev_trig[i][k].set, true);
    enable_update();

 out:
    xfree(text);
    return rc;
}

/* The write of a trigger file, failures logged in error_log by path. */
static int cf_check trigger_write(struct hypfs_entry_leaf *leaf,
                                  XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                  unsigned int ulen)
{
    char name[64];
    const struct ev *ev = &events[leaf - trigger_leaves];
    struct dt_file f = {
        .name = name, .type = XEN_HYPFS_TYPE_STRING, .write = trigger_set,
    };

    snprintf(name, sizeof(name), "events/%s/%s/trigger",
             classes[ev->cls].name, ev->name);

    return dt_fs_row_write(&f, leaf, uaddr, ulen);
}

static void __init trigger_init(struct hypfs_entry_dir *dir,
                                struct hypfs_entry_leaf *l)
{
    l->e.type = XEN_HYPFS_TYPE_STRING;
    l->e.encoding = XEN_HYPFS_ENC_PLAIN;
    l->e.name = trigger_row.name;
    l->e.max_size = trigger_row.max_write;
    l->e.funcs = &trigger_funcs;
    l->u.content = "";                  /* Unused: read() copies. */
    hypfs_add_leaf(dir, l, true);
}

/* ---- set_event and available_events ---- */

/* "CLASS:EVENT\n" of every event (all) or of those on. */
static int events_text(struct dyntrace_text *t, bool all)
{
    unsigned long max = 1;
    unsigned int i;
    int rc;

    for ( i = 0; i < NR_EVENTS; i++ )
        max += strlen(classes[events[i].cls].name) + strlen(events[i].name) +
               2;
    rc = dyntrace_text_alloc(t, max);
    if ( rc )
        return rc;
    for ( i = 0; i < NR_EVENTS; i++ )
        if ( all || ev_on[i] )
            dyntrace_text_printf(t, max, "%s:%s\n",
                                 classes[events[i].cls].name, events[i].name);

    return 0;
}

static int cf_check available_build(struct dyntrace_text *t)
{
    return events_text(t, true);
}

static int cf_check set_event_build(struct dyntrace_text *t)
{
    return events_text(t, false);
}

/* Does pattern (a name, or "*" for any) match name? */
static bool part_matches(const char *pat, size_t len, const char *name)
{
    return (len == 1 && *pat == '*') ||
           (strlen(name) == len && !memcmp(pat, name, len));
}

/*
 * One word of set_event (ftrace's): [!]CLASS:EVENT, CLASS:*, *:EVENT, or
 * a NAME alone (every event of that name, or of the class of that name);
 * into (or, with '!', out of) want.  -EINVAL: malformed; -ENOENT: it names
 * no event.
 */
static int set_event_word(const char *w, size_t len, bool *want)
{
    const char *colon = memchr(w, ':', len);
    bool on = true, found = false;
    unsigned int i;

    if ( *w == '!' )
    {
        on = false;
        w++;
        len--;
    }
    if ( !len || (colon && (colon == w || colon == w + len - 1 ||
                            memchr(colon + 1, ':', w + len - colon - 1))) )
        return -EINVAL;

    for ( i = 0; i < NR_EVENTS; i++ )
    {
        const char *cls = classes[events[i].cls].name;
        bool match;

        if ( colon )
            match = part_matches(w, colon - w, cls) &&
                    part_matches(colon + 1, w + len - colon - 1,
                                 events[i].name);
        else
            match = part_matches(w, len, events[i].name) ||
                    part_matches(w, len, cls);
        if ( match )
        {
            want[i] = on;
            found = true;
        }
    }

    return found ? 0 : -ENOENT;
}

/* The events the words name become the ones on (all or nothing). */
static int cf_check set_event_write(struct hypfs_entry_leaf *leaf,
                                    XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                                    unsigned int ulen)
{
    bool want[NR_EVENTS] = {};
    char *text, *p;
    unsigned int i;
    int rc;

    text = dt_fs_copy_string(uaddr, ulen, DT_SET_MAX_WRITE, &rc);
    if ( !text )
        return rc;

    for ( p = text; *p; )
    {
        size_t len;

        p += strspn(p, " \t\n");
        len = dt_word_len(p);
        if ( !len )
            break;
        rc = set_event_word(p, len, want);
        if ( rc )
        {
            p[len] = '\0';
            dt_fs_set_bad_word(p);
            goto out;
        }
        p += len;
    }

    for ( i = 0; i < NR_EVENTS; i++ )
        write_atomic(&ev_on[i], want[i]);
    enable_update();

 out:
    xfree(text);
    return rc;
}

static const struct dt_file event_files[] = {
    { .name = "available_events", .type = XEN_HYPFS_TYPE_STRING,
      .build = available_build },
    { .name = "set_event", .type = XEN_HYPFS_TYPE_STRING,
      .max_write = DT_SET_MAX_WRITE, .build = set_event_build,
      .write = set_event_write },
};

static int __init cf_check events_names_init(void)
{
    unsigned int c = 0, i;

    BUILD_BUG_ON(sizeof(struct xen_dyntrace_event) != RECORD_SIZE);
    BUILD_BUG_ON(sizeof(struct xen_dyntrace_event_more) != RECORD_SIZE);
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_event, flags) !=
                 offsetof(struct xen_dyntrace_record, flags));
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_event, nr_words) !=
                 offsetof(struct xen_dyntrace_record, depth));
    BUILD_BUG_ON(offsetof(struct xen_dyntrace_event_more, more) !=
                 offsetof(struct xen_dyntrace_record, depth));
    BUILD_BUG_ON(NR_CLASSES > 32);

#ifndef CONFIG_TRACEBUFFER
    /* No trace point calls trace(): no events. */
    return 0;
#endif

    /* The table is grouped by class, in the classes' order. */
    for ( i = 0; i < NR_EVENTS; i++ )
    {
        ASSERT(events[i].cls >= c);
        ASSERT((events[i].id & classes[events[i].cls].mask) ==
               classes[events[i].cls].id);
        while ( c < events[i].cls )
            class_first[++c] = i;
    }
    while ( c < NR_CLASSES )
        class_first[++c] = NR_EVENTS;

    dt_fs_add_files(NULL, event_files, ARRAY_SIZE(event_files));

    return 0;
}
presmp_initcall(events_names_init);

/* After /tracing is built (hypfs.c's initcall, linked before this one). */
static int __init cf_check events_dir_init(void)
{
    unsigned int c, i;

#ifndef CONFIG_TRACEBUFFER
    return 0;
#endif

    dt_fs_snap_funcs(&trigger_funcs);
    trigger_funcs.write = trigger_write;
    trigger_funcs.findentry = hypfs_leaf_findentry;
    dt_fs_add_leaves(trigger_leaves, NR_EVENTS, &trigger_row);

    dt_fs_add_dir(&events_dir);
    enable_init(&events_dir, &all_leaf, &all_on);
    for ( c = 0; c < NR_CLASSES; c++ )
    {
        dir_init(&class_dirs[c], classes[c].name);
        hypfs_add_dir(&events_dir, &class_dirs[c], true);
        enable_init(&class_dirs[c], &class_leaves[c], &class_on[c]);
        for ( i = class_first[c]; i < class_first[c + 1]; i++ )
        {
            dir_init(&event_dirs[i], events[i].name);
            hypfs_add_dir(&class_dirs[c], &event_dirs[i], true);
            enable_init(&event_dirs[i], &event_leaves[i], &ev_on[i]);
            trigger_init(&event_dirs[i], &trigger_leaves[i]);
        }
    }

    return 0;
}
__initcall(events_dir_init);
