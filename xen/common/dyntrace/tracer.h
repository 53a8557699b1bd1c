/* SPDX-License-Identifier: GPL-2.0-only */
/* dyntrace: the tracer registry and the dispatcher (tracer.c). */
#ifndef DYNTRACE_TRACER_H
#define DYNTRACE_TRACER_H

#include <xen/dyntrace.h>

/*
 * Recording on or off (tracing_on): the tracers' callbacks write records
 * only while it is set (dt_state_set_on()).
 */
extern bool dt_recording;

/* The registered tracer of that name, or NULL. */
struct dyntrace_tracer *dt_tracer_find(const char *name);
/*
 * The tracer at boot: nop, as ftrace's, whatever order the tracers
 * registered in; NULL if it is absent.  Tracers register in presmp
 * initcalls, each on its own; /tracing (hypfs.c, a later initcall) reads
 * the registry once they all have.
 */
struct dyntrace_tracer *dt_tracer_default(void);
/* The registered tracers' names, space-separated (static storage). */
const char *dt_tracers_text(void);

/*
 * Switch the callback the dispatcher runs (NULL: none).  Only inside the
 * livepatch rendezvous (patch.c), which then also rewrites the
 * trampolines' calls (dt_tracer_fast_entry()).
 */
void dt_tracer_set_active(dyntrace_func_t *fn);
/* The callback the dispatcher runs now, or NULL (a return hook's test). */
extern dyntrace_func_t *dt_active_func;
static inline dyntrace_func_t *dt_tracer_active(void)
{
    return ACCESS_ONCE(dt_active_func);
}
/* Is a callback active (false once a bad site stopped tracing)? */
static inline bool dt_tracer_is_active(void)
{
    return ACCESS_ONCE(dt_active_func);
}
#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * What the trampoline is to call: the fast entry of the one active
 * callback, or NULL (the dispatcher's path).
 */
const void *dt_tracer_fast_entry(void);
#ifdef DYNTRACE_WITH_RETURN
/* What the return trampoline is to call, or NULL (dyntrace_return()). */
const void *dt_tracer_fast_return(void);
#endif
#endif

#ifdef DYNTRACE_WITH_PROFILER
/*
 * The function profiler (profile.c, function_profile_enabled): the
 * dispatcher's second callback, run after the tracer's on the same traced
 * functions, and its statistics (trace_stat/).
 */
struct dt_profiler {
    /* The callback, active while profiling. */
    dyntrace_func_t *func;
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    /*
     * While it alone runs (the tracer has no callback): its fast entry and
     * return (as struct dyntrace_tracer's), or NULL.
     */
    const void *fast_entry;
    const void *fast_return;
#endif
    /* Before the callback becomes active: allocate (may sleep). */
    int (*prepare)(void);
    /* Profiling starts: forget what was counted.  In the rendezvous. */
    void (*restart)(void);
};
void dt_register_profiler(const struct dt_profiler *p);
/* The registered profiler, or NULL. */
const struct dt_profiler *dt_profiler(void);
/*
 * Run the profiler's callback or not.  Only inside the livepatch
 * rendezvous, as dt_tracer_set_active().
 */
void dt_profiler_set_active(bool on);
/* Is the profiler's callback active? */
extern dyntrace_func_t *dt_active_prof;
static inline bool dt_profiler_is_active(void)
{
    return ACCESS_ONCE(dt_active_prof);
}
#endif

#endif /* DYNTRACE_TRACER_H */
