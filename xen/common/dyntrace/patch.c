/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: patching through the livepatch rendezvous: the operations that
 * change the committed state (state.c).
 *
 * Patch changes (a tracer switch, a filter change under a tracer that uses
 * it) are requested by a HypFS write, which holds the HypFS lock and must not
 * wait for a rendezvous.  dt_request() validates the request against the
 * committed state and claims the one pending operation in the same critical
 * section, then hands it to continue_hypercall_on_cpu(): once HypFS has
 * dropped its lock, the calling vCPU is paused and the continuation runs in
 * the idle vCPU of CPU 0, where it takes part in the livepatch rendezvous
 * (livepatch_run_quiesced()).  The write's result is the continuation's, so
 * when the tool's write returns the change is done or failed.  See
 * docs/designs/dyntrace.md ("Patching").
 */

#include <xen/bitmap.h>
#include <xen/bug.h>
#include <xen/errno.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/livepatch.h>
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>

#include "patch.h"
#include "ring.h"
#include "sites.h"
#include "state.h"
#include "tracer.h"

/* The first wait for the other CPUs to join the rendezvous. */
#define RENDEZVOUS_TIMEOUT     MILLISECS(50)
/* The longest wait, once doubled on each retry. */
#define RENDEZVOUS_TIMEOUT_MAX MILLISECS(2000)
/*
 * Rendezvous attempts per operation (50 ms .. 2 s: seven tries), each in
 * its own run of CPU 0's tasklet.
 */
#define RENDEZVOUS_TRIES       7

/*
 * Is an operation pending?  Under the state lock (dt_state_lock()): a
 * request is checked against the committed state and claims the operation
 * in one critical section.  Writers are serialised by the HypFS write lock
 * plus this.
 */
static bool op_pending;

/* The one pending operation (op_pending). */
static struct {
    struct dyntrace_tracer *tracer; /* tracer after the operation */
    enum dt_set which;          /* the set that changes, if map */
    unsigned long *map;         /* that set after it (NULL: unchanged) */
    char *text;
#ifdef DYNTRACE_WITH_SCOPE
    struct dt_scope *scope;     /* the scope after it (NULL: unchanged) */
#endif
#ifdef DYNTRACE_WITH_PROFILER
    bool profile;               /* function_profile_enabled after it */
    bool restart;               /* the profiler starts afresh */
#endif
    unsigned long *want;        /* patched sites after the operation */
    unsigned long *orig;        /* patched sites before it */
    bool switching;             /* tracer changes: clear the buffers */
    bool stopped;               /* a site was bad: tracing was stopped */
    unsigned int changed;       /* entries rewritten by the last attempt */
    unsigned int tries;         /* rendezvous attempts so far */
    uint32_t timeout;           /* the next attempt's wait */
    s_time_t start;             /* when the first attempt began */
} req;

bool cf_check dt_site_usable(unsigned int i)
{
    return test_bit(i, dt_sites_traced()) ||
           arch_dyntrace_site_is_clean(dt_site_addr(i));
}

/* Arm has no __change_bit(). */
static void flip_bit(unsigned int nr, unsigned long *map)
{
    if ( test_bit(nr, map) )
        __clear_bit(nr, map);
    else
        __set_bit(nr, map);
}

/*
 * Like Linux's ftrace_bug(): name the site and show what it should hold and
 * what it holds.  traced: the state the site was expected to be in.
 */
static void report_bad_site(unsigned int i, bool traced, int rc)
{
    uint8_t expect[DYNTRACE_SITE_SIZE], actual[DYNTRACE_SITE_SIZE];

    arch_dyntrace_site_bytes(dt_site_addr(i), traced, expect, actual);
    printk(XENLOG_ERR "dyntrace: bad site %s (%#lx), rc %d\n",
           dt_site_name(i), dt_site_addr(i), rc);
    printk(XENLOG_ERR "dyntrace:  expected: %*ph\n",
           DYNTRACE_SITE_SIZE, expect);
    printk(XENLOG_ERR "dyntrace:  actual:   %*ph\n",
           DYNTRACE_SITE_SIZE, actual);
}

/* Runs on the master of the rendezvous, every other CPU parked. */
#ifdef DYNTRACE_WITH_EVENTS
static void cf_check install_scope(const void *s)
{
    dt_scope_install(s);
}

#endif
static int cf_check apply_quiesced(void *unused)
{
    unsigned long *patched = dt_sites_traced();
    unsigned int i, done, nr = dt_sites_nr();
    int rc;

    /* The rendezvous master runs the action with IRQs off. */
    ASSERT(!local_irq_is_enabled());

    rc = arch_livepatch_quiesce();
    if ( rc )
        return rc;

    req.changed = 0;
    for ( i = 0; i < nr; i++ )
    {
        bool want = test_bit(i, req.want);

        if ( want == test_bit(i, patched) )
            continue;
        rc = arch_dyntrace_patch(dt_site_addr(i), want);
        if ( rc )
            break;
        flip_bit(i, patched);
        req.changed++;
    }

    if ( rc )
    {
        /* The site did not hold what its state says: stop tracing. */
        report_bad_site(i, test_bit(i, patched), rc);
        dt_tracer_set_active(NULL);
#ifdef DYNTRACE_WITH_PROFILER
        dt_profiler_set_active(false);
#endif
        req.stopped = true;

        /* All or nothing: put back what was changed. */
        for ( done = 0; done < i; done++ )
        {
            bool orig = test_bit(done, req.orig);
            int rc2;

            if ( orig == test_bit(done, patched) )
                continue;
            rc2 = arch_dyntrace_patch(dt_site_addr(done), orig);
            if ( rc2 )
            {
                printk(XENLOG_ERR
                       "dyntrace: could not put back %s: tracing stopped\n",
                       dt_site_name(done));
                report_bad_site(done, test_bit(done, patched), rc2);
                continue;       /* The bit keeps telling what is there. */
            }
            flip_bit(done, patched);
        }
    }
    else
    {
        bool any = !bitmap_empty(patched, nr);

#ifdef DYNTRACE_WITH_PROFILER
        /* Nothing counted before the restart survives it. */
        if ( req.restart )
            dt_profiler()->restart();
#endif
        dt_tracer_set_active(any ? req.tracer->func : NULL);
#ifdef DYNTRACE_WITH_PROFILER
        dt_profiler_set_active(any && req.profile);
#endif
#ifdef DYNTRACE_WITH_SCOPE
        if ( req.scope )
            dt_scope_install(req.scope);
#endif
        if ( req.switching )
            dt_rings_reset_quiesced();
    }

#ifdef ARCH_DYNTRACE_FAST_ENTRY
    /* The trampolines call the fast entry of what is now active, if any. */
#ifdef DYNTRACE_WITH_RETURN
    arch_dyntrace_set_fast(dt_tracer_fast_entry(), dt_tracer_fast_return());
#else
    arch_dyntrace_set_fast(dt_tracer_fast_entry());
#endif
#endif

    arch_livepatch_revive();

    return rc;
}

static void free_request(void)
{
    xfree(req.map);
    xfree(req.want);
    xfree(req.orig);
    xfree(req.text);
    req.map = req.want = req.orig = NULL;
    req.text = NULL;
#ifdef DYNTRACE_WITH_SCOPE
    xfree(req.scope);
    req.scope = NULL;
#endif
}

/*
 * The operation, in CPU 0's idle vCPU.  A rendezvous that could not be held
 * (-ETIMEDOUT: the other CPUs did not all arrive in time; -EAGAIN: a CPU was
 * still leaving the previous one, or CPU hotplug held the CPU maps) is
 * retried with a longer wait, in a later run of the tasklet: the hypercall
 * continuation is queued again, so that CPU 0 runs its softirqs and other
 * work in between and the write's result is that of the last attempt.
 */
static long cf_check patch_continuation(void *unused)
{
    struct dt_committed *st;
    unsigned int nr = dt_sites_nr();
    bool change = !bitmap_equal(req.want, dt_sites_traced(), nr) ||
#ifdef DYNTRACE_WITH_SCOPE
                  req.scope ||
#endif
#ifdef DYNTRACE_WITH_PROFILER
                  req.profile != *dt_state_profiling() ||
#endif
                  req.switching;
    int rc = 0;

    /* CPU 0's idle vCPU, IRQs on: what livepatch_run_quiesced() needs. */
    ASSERT(smp_processor_id() == 0);
    ASSERT(is_idle_vcpu(current));
    ASSERT(local_irq_is_enabled());

    if ( !req.tries )
    {
        req.start = NOW();
        req.timeout = RENDEZVOUS_TIMEOUT;
        bitmap_copy(req.orig, dt_sites_traced(), nr);
        req.stopped = false;
    }

    if ( change )
    {
        req.tries++;
        rc = livepatch_run_quiesced("dyntrace", apply_quiesced, NULL,
                                    req.timeout);
        if ( (rc == -ETIMEDOUT || rc == -EAGAIN) &&
             req.tries < RENDEZVOUS_TRIES )
        {
            req.timeout = min_t(uint64_t, req.timeout * 2,
                                RENDEZVOUS_TIMEOUT_MAX);
            if ( !continue_hypercall_on_cpu(0, patch_continuation, NULL) )
                return 0;       /* Overwritten by the next attempt's. */
        }
    }

    /* For operators and the benchmarks: the cost of one operation. */
    printk(XENLOG_DEBUG
           "dyntrace: %u entries rewritten, %u rendezvous, %"PRI_stime
           " us, rc %d\n", change && !rc ? req.changed : 0, req.tries,
           (NOW() - req.start) / 1000, rc);

    /* A bad site stopped the callbacks: stop recording too. */
    if ( req.stopped && dt_state_set_on(false) )
        printk(XENLOG_ERR "dyntrace: could not turn recording off\n");

    st = dt_state_lock();
    if ( !rc )
    {
        if ( req.switching )
            st->trace_gen++;
        st->tracer = req.tracer;
        if ( req.map )
            dt_state_commit_set(req.which, req.map, &req.text);
#ifdef DYNTRACE_WITH_SCOPE
        if ( req.scope )
            st->scope_ver++;
#endif
#ifdef DYNTRACE_WITH_PROFILER
        st->profiling = req.profile;
#endif
    }
    /*
     * req belongs to the pending operation: free it before the next writer
     * can see op_pending clear and fill it in.
     */
    free_request();
    op_pending = false;
    dt_state_unlock();

    if ( rc )
        printk(XENLOG_WARNING "dyntrace: patching failed: %d\n", rc);

    return rc;
}

int dt_request(struct dt_change *c)
{
    unsigned int nr = dt_sites_nr();
    unsigned long *want = xzalloc_array(unsigned long, BITS_TO_LONGS(nr));
    unsigned long *orig = xzalloc_array(unsigned long, BITS_TO_LONGS(nr));
    const unsigned long *filter, *excluded;
#ifdef DYNTRACE_WITH_SCOPE
    const struct dt_scope *scope;
#endif
#ifdef DYNTRACE_WITH_PROFILER
    const struct dt_profiler *prof = dt_profiler();
#endif
    struct dyntrace_tracer *t;
    struct dt_committed *st;
#ifdef DYNTRACE_WITH_PROFILER
    bool profile;
#endif
    int rc = -ENOMEM;

    if ( !want || !orig )
        goto out;
#ifdef DYNTRACE_WITH_PROFILER
    /* The profiler's tables, before it can run (they are kept). */
    if ( c->profile == DT_PROFILE_ON )
    {
        rc = -EOPNOTSUPP;
        if ( !prof )
            goto out;
        rc = prof->prepare();
        if ( rc )
            goto out;
    }
#endif

    /*
     * Check and claim under one lock: the state the operation is computed
     * from is the state it will be applied to.
     */
    st = dt_state_lock();
    t = c->tracer ?: st->tracer;
    rc = -EBUSY;
    if ( op_pending )
        goto unlock;
#ifdef DYNTRACE_WITH_SCOPE
    /* An in-place edit of a set, or a scope, that changed since read. */
    if ( c->map && c->base != DT_SET_REPLACE &&
         c->base != st->sets[c->which].ver )
        goto unlock;
    if ( c->scope && c->scope_base != st->scope_ver )
        goto unlock;
#else
    /* An in-place edit of a set that changed since read. */
    if ( c->map && c->base != DT_SET_REPLACE &&
         c->base != st->sets[c->which].ver )
        goto unlock;
#endif
    filter = c->map && c->which == DT_FILTER ? c->map
                                              : st->sets[DT_FILTER].map;
    excluded = c->map && c->which == DT_NOTRACE ? c->map
                                                : st->sets[DT_NOTRACE].map;
#ifdef DYNTRACE_WITH_SCOPE
    scope = c->scope ?: &dt_scope;
#endif
#ifdef DYNTRACE_WITH_PROFILER
    profile = c->profile == DT_PROFILE_KEEP ? st->profiling
                                            : c->profile == DT_PROFILE_ON;
    /*
     * The functions traced: the filter minus notrace, and the triggers',
     * for a tracer that uses the filter or for the profiler.
     */
    if ( t->uses_filter || profile )
#elif defined(DYNTRACE_WITH_SCOPE)
    /*
     * The functions traced: the filter minus notrace, and the triggers',
     * for a tracer that uses the filter.
     */
    if ( t->uses_filter )
#else
    /*
     * The functions traced: the filter minus notrace, for a tracer that
     * uses the filter.
     */
    if ( t->uses_filter )
#endif
    {
        bitmap_andnot(want, filter, excluded, nr);
#ifdef DYNTRACE_WITH_SCOPE
        dt_scope_trigger_sites(scope, want);
#endif
    }
    /* Tracing all functions does not exist yet: a filter is required. */
    rc = -ENODATA;
#ifdef DYNTRACE_WITH_PROFILER
    if ( !c->map && !c->scope && (t->uses_filter || profile) &&
         bitmap_empty(want, nr) )
        goto unlock;
    if ( !t->func && !profile )
        bitmap_zero(want, nr);
#else
#ifdef DYNTRACE_WITH_SCOPE
    if ( !c->map && !c->scope && t->uses_filter && bitmap_empty(want, nr) )
        goto unlock;
#else
    if ( !c->map && t->uses_filter && bitmap_empty(want, nr) )
        goto unlock;
#endif
    if ( !t->func )
        bitmap_zero(want, nr);
#endif
#ifdef DYNTRACE_WITH_SCOPE
    /*
     * Nothing to patch (e.g. the filter under nop), and no callback that
     * could read the scope: commit now.
     */
#else
    /* Nothing to patch (e.g. the filter under nop): commit now. */
#endif
#ifdef DYNTRACE_WITH_PROFILER
    if ( t == st->tracer && bitmap_equal(want, dt_sites_traced(), nr) &&
         (!c->scope || bitmap_empty(want, nr)) && profile == st->profiling )
#elif defined(DYNTRACE_WITH_SCOPE)
    if ( t == st->tracer && bitmap_equal(want, dt_sites_traced(), nr) &&
         (!c->scope || bitmap_empty(want, nr)) )
#else
    if ( t == st->tracer && bitmap_equal(want, dt_sites_traced(), nr) )
#endif
    {
#ifdef DYNTRACE_WITH_EVENTS
        /*
         * Events read the scope as they are recorded, patched entries or
         * not: install it while no event is being written (E2 of events.c).
         */
        if ( c->scope )
        {
            rc = dt_rings_run_held(install_scope, c->scope);
            if ( rc )
                goto unlock;
            st->scope_ver++;
        }
        if ( c->map )
            dt_state_commit_set(c->which, c->map, &c->text);
#else
        if ( c->map )
            dt_state_commit_set(c->which, c->map, &c->text);
#ifdef DYNTRACE_WITH_SCOPE
        if ( c->scope )
        {
            dt_scope_install(c->scope);
            st->scope_ver++;
        }
#endif
#endif
        rc = 0;
        goto unlock;
    }
    op_pending = true;
    req.switching = t != st->tracer;
    req.tracer = t;
    req.which = c->which;
    req.map = c->map;
    req.text = c->text;
#ifdef DYNTRACE_WITH_SCOPE
    req.scope = c->scope;
#endif
#ifdef DYNTRACE_WITH_PROFILER
    req.profile = profile;
    req.restart = profile && !st->profiling;
#endif
    req.want = want;
    req.orig = orig;
    req.tries = 0;
    dt_state_unlock();

    /*
     * On CPU 0, which never goes offline: a continuation queued on a CPU
     * that is taken down before it runs is moved to another CPU and not run
     * (the write would fail -EINVAL with the operation left pending).
     */
    rc = continue_hypercall_on_cpu(0, patch_continuation, NULL);
    if ( rc )
    {
        dt_state_lock();
        free_request();
        op_pending = false;
        dt_state_unlock();
    }

    return rc;

 unlock:
    dt_state_unlock();
 out:
    xfree(want);
    xfree(orig);
    xfree(c->map);
    xfree(c->text);
#ifdef DYNTRACE_WITH_SCOPE
    xfree(c->scope);
#endif

    return rc;
}

/*
 * The sites, before any other CPU is up: their table, then each made the
 * untraced instruction(s).  Nothing else at boot depends on it but
 * /tracing (hypfs.c), whose initcall runs after every presmp one.
 */
static int __init cf_check dyntrace_patch_sites_init(void)
{
    if ( !dt_sites_init() )
        arch_dyntrace_init_sites(dt_sites_table(), dt_sites_nr());

    return 0;
}
presmp_initcall(dyntrace_patch_sites_init);
