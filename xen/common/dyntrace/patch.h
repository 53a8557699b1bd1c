/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the committed state (tracer, filter, recording; state.c) and
 * the patch operations that change it (patch.c).
 */
#ifndef DYNTRACE_PATCH_H
#define DYNTRACE_PATCH_H

#include <xen/dyntrace.h>

#ifdef DYNTRACE_WITH_SCOPE
#include "scope.h"
#endif

/* Once the tracers are registered: -ENODEV if the tracer is absent. */
int dt_state_init(void);

/* May site i be traced (traced already, or holding the untraced bytes)? */
bool cf_check dt_site_usable(unsigned int i);

/* The committed tracer (it may change as soon as this returns). */
struct dyntrace_tracer *dt_state_tracer(void);
/* Owned copies of the committed tracer's name / filter text. */
int cf_check dt_state_tracer_name(struct dyntrace_text *t);
int cf_check dt_state_filter_text(struct dyntrace_text *t);
int cf_check dt_state_notrace_text(struct dyntrace_text *t);
#ifdef DYNTRACE_WITH_GRAPH
int cf_check dt_state_graph_text(struct dyntrace_text *t);
#endif

/* The sets of functions a tracer that uses the filter traces from. */
enum dt_set {
    DT_FILTER,          /* set_function_filter: the functions to trace */
    DT_NOTRACE,         /* set_function_notrace: never traced, wins */
#ifdef DYNTRACE_WITH_GRAPH
    DT_GRAPH,           /* set_graph_function: function_graph's roots */
#endif
    DT_NR_SETS
};
/* Copy a committed set into map; returns its version (dt_request()). */
unsigned int dt_state_set_copy(enum dt_set which, unsigned long *map);
/* dt_request()'s base for a set that replaces the committed one. */
#define DT_SET_REPLACE (~0u)
/* Where the tracing_on value is kept (for HypFS to read): dt_recording. */
const bool *dt_state_on(void);
#ifdef DYNTRACE_WITH_PROFILER
/* Where function_profile_enabled's committed value is kept. */
const bool *dt_state_profiling(void);
#endif

#ifdef DYNTRACE_WITH_GRAPH
/*
 * set_graph_function, for function_graph's callback (any context, no
 * lock): is the set empty, and is the site at ip in it.  A change is seen
 * function by function: a call sees each function in or out.
 */
extern unsigned int dt_graph_nr;
static inline bool dt_state_graph_all(void)
{
    return !ACCESS_ONCE(dt_graph_nr);
}
bool dt_state_graph_root(unsigned long ip);
#endif
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * Bumped by every change a reader of trace could see: a clear, a resize, a
 * tracer switch, tracing_on.
 */
#else
/*
 * Bumped by every change a reader of trace could see: a clear, a tracer
 * switch, tracing_on.
 */
#endif
unsigned int dt_state_gen(void);

/* The committed tracer's set_on()/clear(), then the generation bumped. */
int dt_state_set_on(bool on);
int dt_state_clear(void);
#ifdef DYNTRACE_WITH_BUFFERS
/* Resize every CPU's buffer (dt_rings_resize()), then bump the generation */
int dt_state_resize(unsigned int kb);
#endif

#ifdef DYNTRACE_WITH_SCOPE
/*
 * A change of the committed state, asked for by a HypFS write (ownership of
 * map, text and scope passes to dt_request()).
 */
#else
/*
 * A change of the committed state, asked for by a HypFS write (ownership of
 * map and text passes to dt_request()).
 */
#endif
struct dt_change {
    /* The tracer after it; NULL: the committed one. */
    struct dyntrace_tracer *tracer;
    enum dt_set which;          /* the set that becomes map, if map */
    unsigned long *map;
    char *text;                 /* map's names, as read back */
    /*
     * DT_SET_REPLACE, or the version dt_state_set_copy() returned if map was
     * edited from the committed set (-EBUSY if that set changed since).
     */
    unsigned int base;
#ifdef DYNTRACE_WITH_SCOPE
    struct dt_scope *scope;     /* the scope after it, or NULL */
    unsigned int scope_base;    /* dt_state_scope_copy()'s version */
#endif
#ifdef DYNTRACE_WITH_PROFILER
    enum {
        DT_PROFILE_KEEP,        /* function_profile_enabled unchanged */
        DT_PROFILE_OFF,
        DT_PROFILE_ON,          /* from off: counting starts afresh */
    } profile;
#endif
};

#ifdef DYNTRACE_WITH_PROFILER
/*
 * Ask for a patch operation making the change.  The functions traced are
 * the filter minus notrace, plus the triggers' functions, when the tracer
 * uses the filter (or the profiler is on).  Called under the
 * HypFS write lock; the operation itself runs in a continuation on CPU 0
 * after the lock is dropped (or at once if no entry is or becomes patched).
 */
#elif defined(DYNTRACE_WITH_SCOPE)
/*
 * Ask for a patch operation making the change.  The functions traced are
 * the filter minus notrace, plus the triggers' functions, when the tracer
 * uses the filter.  Called under the HypFS write lock; the operation itself
 * runs in a continuation on CPU 0 after the lock is dropped (or at once if
 * no entry is or becomes patched).
 */
#else
/*
 * Ask for a patch operation making the change.  The functions traced are
 * the filter minus notrace, when the tracer uses the filter.  Called under
 * the HypFS write lock; the operation itself runs in a continuation on
 * CPU 0 after the lock is dropped (or at once if no entry is or becomes
 * patched).
 */
#endif
int dt_request(struct dt_change *c);
#ifdef DYNTRACE_WITH_SCOPE

/* Copy the committed scope into s; returns its version (dt_request()). */
unsigned int dt_state_scope_copy(struct dt_scope *s);
#endif

#endif /* DYNTRACE_PATCH_H */
