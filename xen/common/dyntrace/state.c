/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the committed state (the tracer, the function sets, the
 * scope's version, function_profile_enabled, the trace's generation) and
 * its readers, for HypFS.  What changes patched entries is an operation of
 * patch.c, which commits here once the rendezvous has done it; what needs
 * no patching is committed at once (dt_request()).  See
 * docs/designs/dyntrace.md ("Patching").
 */

#include <xen/bitmap.h>
#include <xen/bug.h>
#include <xen/errno.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/spinlock.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>

#include "patch.h"
#include "ring.h"
#include "sites.h"
#include "state.h"
#include "tracer.h"

/*
 * The committed state.  state_lock guards it against HypFS readers: it
 * changes in patch.c's continuation, outside the HypFS lock, and in a
 * request that needs no operation.
 */
static DEFINE_SPINLOCK(state_lock);
static struct dt_committed state;
#ifdef DYNTRACE_WITH_GRAPH
/* set_graph_function's weight. */
unsigned int dt_graph_nr;
#endif

struct dt_committed *dt_state_lock(void)
{
    spin_lock(&state_lock);

    return &state;
}

void dt_state_unlock(void)
{
    spin_unlock(&state_lock);
}

struct dyntrace_tracer *dt_state_tracer(void)
{
    struct dyntrace_tracer *t;

    spin_lock(&state_lock);
    t = state.tracer;
    spin_unlock(&state_lock);

    return t;
}

static int copy_text(const char *s, struct dyntrace_text *t)
{
    t->len = strlen(s) + 1;
    t->buf = vmalloc(t->len);
    if ( !t->buf )
        return -ENOMEM;
    memcpy(t->buf, s, t->len);

    return 0;
}

int cf_check dt_state_tracer_name(struct dyntrace_text *t)
{
    int rc;

    spin_lock(&state_lock);
    rc = copy_text(state.tracer->name, t);
    spin_unlock(&state_lock);

    return rc;
}

#ifdef DYNTRACE_WITH_SCOPE
/* A set's names; for the filter, followed by the triggers, one per line. */
static int set_text(enum dt_set which, struct dyntrace_text *t)
{
    char *triggers = NULL;
    const char *names;
    int rc = 0;

    spin_lock(&state_lock);
    names = state.sets[which].text ?: "";
    if ( which == DT_FILTER && dt_scope.nr_triggers )
        rc = dt_scope_triggers_text(&dt_scope, &triggers);
    if ( !rc && triggers )
    {
        /* The names, a newline if there are any, the triggers, a NUL. */
        t->len = strlen(names) + !!*names + strlen(triggers) + 1;
        t->buf = vmalloc(t->len);
        if ( t->buf )
            snprintf(t->buf, t->len, "%s%s%s", names, *names ? "\n" : "",
                     triggers);
        else
            rc = -ENOMEM;
    }
    else if ( !rc )
        rc = copy_text(names, t);
    spin_unlock(&state_lock);
    xfree(triggers);

    return rc;
}
#else
/* A set's names. */
static int set_text(enum dt_set which, struct dyntrace_text *t)
{
    int rc;

    spin_lock(&state_lock);
    rc = copy_text(state.sets[which].text ?: "", t);
    spin_unlock(&state_lock);

    return rc;
}
#endif

int cf_check dt_state_filter_text(struct dyntrace_text *t)
{
    return set_text(DT_FILTER, t);
}

int cf_check dt_state_notrace_text(struct dyntrace_text *t)
{
    return set_text(DT_NOTRACE, t);
}

#ifdef DYNTRACE_WITH_GRAPH
int cf_check dt_state_graph_text(struct dyntrace_text *t)
{
    return set_text(DT_GRAPH, t);
}

bool dt_state_graph_root(unsigned long ip)
{
    int i = dt_site_index(ip);

    return i >= 0 && test_bit(i, state.sets[DT_GRAPH].map);
}
#endif

unsigned int dt_state_set_copy(enum dt_set which, unsigned long *map)
{
    unsigned int ver;

    spin_lock(&state_lock);
    bitmap_copy(map, state.sets[which].map, dt_sites_nr());
    ver = state.sets[which].ver;
    spin_unlock(&state_lock);

    return ver;
}

void dt_state_commit_set(enum dt_set which, unsigned long *map, char **text)
{
    ASSERT(spin_is_locked(&state_lock));

    bitmap_copy(state.sets[which].map, map, dt_sites_nr());
    SWAP(state.sets[which].text, *text);
    state.sets[which].ver++;
#ifdef DYNTRACE_WITH_GRAPH
    if ( which == DT_GRAPH )
        write_atomic(&dt_graph_nr, bitmap_weight(map, dt_sites_nr()));
#endif
}

#ifdef DYNTRACE_WITH_SCOPE
unsigned int dt_state_scope_copy(struct dt_scope *s)
{
    unsigned int ver;

    spin_lock(&state_lock);
    dt_scope_copy(s);
    ver = state.scope_ver;
    spin_unlock(&state_lock);

    return ver;
}
#endif

const bool *dt_state_on(void)
{
    return &dt_recording;
}

#ifdef DYNTRACE_WITH_PROFILER
const bool *dt_state_profiling(void)
{
    return &state.profiling;
}
#endif

unsigned int dt_state_gen(void)
{
    unsigned int gen;

    spin_lock(&state_lock);
    gen = state.trace_gen;
    spin_unlock(&state_lock);

    return gen;
}

#ifdef DYNTRACE_WITH_SCOPE
/*
 * Recording on or off: dt_recording, which the callbacks test before they
 * reserve a slot and again once they hold it, then the tracer's set_on(),
 * which drains the writers still at work.  The full barrier between them
 * pairs with the callback's reservation (a cmpxchg): a callback that takes
 * a buffer after the drain sees the new value.  So once this returns no
 * callback records any more.  Triggers change dt_recording too, without a
 * drain.  A failed drain (CPU hotplug) restores the previous value.
 */
#else
/*
 * Recording on or off: dt_recording, which the callbacks test before they
 * reserve a slot and again once they hold it, then the tracer's set_on(),
 * which drains the writers still at work.  The full barrier between them
 * pairs with the callback's reservation (a cmpxchg): a callback that takes
 * a buffer after the drain sees the new value.  So once this returns no
 * callback records any more.  A failed drain (CPU hotplug) restores the
 * previous value.
 */
#endif
int dt_state_set_on(bool on)
{
    struct dyntrace_tracer *t = dt_state_tracer();
    bool was = ACCESS_ONCE(dt_recording);
    int rc;

    write_atomic(&dt_recording, on);
    smp_mb();
    rc = t->set_on ? t->set_on(on) : 0;
    if ( rc )
    {
        write_atomic(&dt_recording, was);
        return rc;
    }

    spin_lock(&state_lock);
    state.trace_gen++;
    spin_unlock(&state_lock);

    return 0;
}

int dt_state_clear(void)
{
    struct dyntrace_tracer *t = dt_state_tracer();
    int rc = t->clear ? t->clear() : 0;

    if ( !rc )
    {
        spin_lock(&state_lock);
        state.trace_gen++;
        spin_unlock(&state_lock);
    }

    return rc;
}

#ifdef DYNTRACE_WITH_BUFFERS
int dt_state_resize(unsigned int kb)
{
    int rc = dt_rings_resize(kb);

    /* The buffers were emptied, as by a clear. */
    if ( !rc )
    {
        spin_lock(&state_lock);
        state.trace_gen++;
        spin_unlock(&state_lock);
    }

    return rc;
}
#endif


int __init dt_state_init(void)
{
    unsigned int i, nr = dt_sites_nr();

    state.tracer = dt_tracer_default();
    if ( !nr || !state.tracer )
        return -ENODEV;

    for ( i = 0; i < DT_NR_SETS; i++ )
    {
        state.sets[i].map = xzalloc_array(unsigned long, BITS_TO_LONGS(nr));
        if ( !state.sets[i].map )
            return -ENOMEM;
    }

    /*
     * The buffers take records from now on; dt_recording (off) decides
     * whether the callbacks write them.
     */
    return state.tracer->set_on ? state.tracer->set_on(true) : 0;
}
