/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the tracer registry, the dispatcher the trampoline calls,
 * and the text helpers tracers format their output with.
 */

#include <xen/errno.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/vmap.h>
#include <asm/atomic.h>
#include <asm/system.h>

#ifdef DYNTRACE_WITH_SCOPE
#include "scope.h"
#endif
#include "tracer.h"

/* Tracers that can be registered. */
#define MAX_TRACERS      8
/* Room for each one's name in available_tracers. */
#define TRACER_NAME_ROOM 16

static struct dyntrace_tracer *tracers[MAX_TRACERS];
static unsigned int nr_tracers;
static char tracers_text[MAX_TRACERS * TRACER_NAME_ROOM];

bool dt_recording;

/* The tracer's callback the dispatcher runs: changed in the rendezvous. */
dyntrace_func_t *dt_active_func;
#ifdef DYNTRACE_WITH_PROFILER
/* The profiler's, likewise. */
dyntrace_func_t *dt_active_prof;
static const struct dt_profiler *profiler;
#endif
#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * What the trampolines are to call (ARCH_DYNTRACE_FAST_ENTRY), from the
 * active callbacks: the struct of the one active alone, if it names a fast
 * entry; else NULL (the dispatcher).  patch.c asks in the rendezvous.
 */
static const struct dyntrace_tracer *fast_owner(void)
{
    unsigned int i;

    if ( dt_active_func )
        for ( i = 0; i < nr_tracers; i++ )
            if ( tracers[i]->func == dt_active_func )
                return tracers[i];

    return NULL;
}

const void *dt_tracer_fast_entry(void)
{
    const struct dyntrace_tracer *t;

#ifdef DYNTRACE_WITH_PROFILER
    if ( dt_active_prof )
        return dt_active_func ? NULL : profiler->fast_entry;
#endif
    t = fast_owner();

    return t ? t->fast_entry : NULL;
}
#ifdef DYNTRACE_WITH_RETURN

const void *dt_tracer_fast_return(void)
{
    const struct dyntrace_tracer *t;

#ifdef DYNTRACE_WITH_PROFILER
    if ( dt_active_prof )
        return dt_active_func ? NULL : profiler->fast_return;
#endif
    t = fast_owner();

    return t ? t->fast_return : NULL;
}
#endif
#endif

void __init dyntrace_register_tracer(struct dyntrace_tracer *t)
{
    unsigned int len = strlen(tracers_text);

    if ( nr_tracers == MAX_TRACERS )
    {
        printk(XENLOG_ERR "dyntrace: too many tracers, %s dropped\n",
               t->name);
        return;
    }
    tracers[nr_tracers++] = t;
    snprintf(tracers_text + len, sizeof(tracers_text) - len, "%s%s",
             len ? " " : "", t->name);
}

struct dyntrace_tracer *dt_tracer_find(const char *name)
{
    unsigned int i;

    for ( i = 0; i < nr_tracers; i++ )
        if ( !strcmp(tracers[i]->name, name) )
            return tracers[i];

    return NULL;
}

struct dyntrace_tracer *dt_tracer_default(void)
{
    return dt_tracer_find("nop");
}

const char *dt_tracers_text(void)
{
    return tracers_text;
}

void dt_tracer_set_active(dyntrace_func_t *fn)
{
    write_atomic(&dt_active_func, fn);
}

#ifdef DYNTRACE_WITH_PROFILER
void __init dt_register_profiler(const struct dt_profiler *p)
{
    profiler = p;
}

const struct dt_profiler *dt_profiler(void)
{
    return profiler;
}

void dt_profiler_set_active(bool on)
{
    write_atomic(&dt_active_prof, on && profiler ? profiler->func : NULL);
}
#endif

#ifdef DYNTRACE_WITH_SCOPE
/*
 * Called by the trampoline from every traced function: read the active
 * callback once; if the scope lets the call through (before any other
 * work: a call filtered out is cheap), run the tracer's callback, then the
 * function's triggers, with IRQs off.
 */
#else
/*
 * Called by the trampoline from every traced function: read the active
 * callback once and run it, with IRQs off.
 */
#endif
#ifdef DYNTRACE_WITH_PROFILER
/*
 * The profiler's callback runs after the tracer's (it may claim the return
 * the first hooked, R6 of return.c).  The profiler's case is a copy of its
 * own (profiled), so that the tracer's alone costs no more than it did
 * before there was a profiler.
 */
static always_inline void dispatch(unsigned long ip, unsigned long parent_ip,
                                   unsigned long *ret, bool scoped,
                                   bool profiled)
#elif defined(DYNTRACE_WITH_SCOPE)
static always_inline void dispatch(unsigned long ip, unsigned long parent_ip,
                                   unsigned long *ret, bool scoped)
#else
static always_inline void dispatch(unsigned long ip, unsigned long parent_ip,
                                   unsigned long *ret)
#endif
{
    dyntrace_func_t *fn = ACCESS_ONCE(dt_active_func);
#ifdef DYNTRACE_WITH_PROFILER
    dyntrace_func_t *prof = profiled ? ACCESS_ONCE(dt_active_prof) : NULL;
#endif
    unsigned long flags;
    bool irqs_off;

#ifdef DYNTRACE_WITH_PROFILER
    if ( !fn && !prof )
#else
    if ( !fn )
#endif
        return;
#ifdef DYNTRACE_WITH_SCOPE
#ifndef ARCH_DYNTRACE_SCOPE_IN_ENTRY
    if ( unlikely(ACCESS_ONCE(dt_scope.active)) )
    {
        if ( !dt_scope_allows() )
            return;
        scoped = true;
    }
#endif
#endif

    irqs_off = !local_irq_is_enabled();
    local_irq_save(flags);
#ifdef DYNTRACE_WITH_PROFILER
    if ( fn )
        fn(ip, parent_ip, ret, irqs_off);
    if ( prof )
        prof(ip, parent_ip, ret, irqs_off);
#else
    fn(ip, parent_ip, ret, irqs_off);
#endif
#ifdef DYNTRACE_WITH_SCOPE
    /* Triggers make the scope active: only a scoped call can have one. */
    if ( scoped && ACCESS_ONCE(dt_scope.nr_triggers) )
        dt_scope_fire_triggers(ip);
#endif
    local_irq_restore(flags);
}

#ifdef DYNTRACE_WITH_PROFILER
static void noinline dispatch_profiled(unsigned long ip,
                                       unsigned long parent_ip,
                                       unsigned long *ret, bool scoped)
{
    dispatch(ip, parent_ip, ret, scoped, true);
}
#endif

void dyntrace_dispatch(unsigned long ip, unsigned long parent_ip,
                       unsigned long *ret)
{
#ifdef DYNTRACE_WITH_PROFILER
    if ( unlikely(ACCESS_ONCE(dt_active_prof)) )
        dispatch_profiled(ip, parent_ip, ret, false);
    else
        dispatch(ip, parent_ip, ret, false, false);
#elif defined(DYNTRACE_WITH_SCOPE)
    dispatch(ip, parent_ip, ret, false);
#else
    dispatch(ip, parent_ip, ret);
#endif
}

#ifdef DYNTRACE_WITH_SCOPE
#ifdef ARCH_DYNTRACE_SCOPE_IN_ENTRY
void dyntrace_dispatch_scoped(unsigned long ip, unsigned long parent_ip,
                              unsigned long *ret)
{
#ifdef DYNTRACE_WITH_PROFILER
    if ( unlikely(ACCESS_ONCE(dt_active_prof)) )
        dispatch_profiled(ip, parent_ip, ret, true);
    else
        dispatch(ip, parent_ip, ret, true, false);
#else
    dispatch(ip, parent_ip, ret, true);
#endif
}
#endif
#endif

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
