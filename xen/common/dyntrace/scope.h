/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the scope of tracing (scope.c): which calls reach the
 * tracer (set_domain_filter, tracing_cpumask) and the triggers that turn
 * recording off or on when a function runs.
 */
#ifndef DYNTRACE_SCOPE_H
#define DYNTRACE_SCOPE_H

#include <xen/bitmap.h>
#include <xen/dyntrace.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/smp.h>
#include <xen/types.h>

#include "ring.h"
#include "sites.h"

/* Words of set_domain_filter; triggers. */
#define DT_SCOPE_RULES    16
#define DT_SCOPE_TRIGGERS 8
/* A rule's vCPU when it names a whole domain. */
#define DT_SCOPE_ANY_VCPU 0xffffu

/* A running vCPU matches when (domid << 16 | vcpu_id) & mask == key. */
struct dt_scope_rule {
    uint32_t key;
    uint32_t mask;
};

enum dt_trigger_cmd {
    DT_TRIGGER_TRACEOFF,
    DT_TRIGGER_TRACEON,
};

struct dt_trigger {
    unsigned int site;          /* index in the sites table */
    unsigned long ip;           /* that site's address */
    enum dt_trigger_cmd cmd;
    /* Firings left; DT_TRIGGER_UNLIMITED: no count given. */
    int left;
#define DT_TRIGGER_UNLIMITED (-1)
};

/*
 * The scope, a value type: a write builds a new one from a copy of the
 * live one (dt_scope_copy()) and the patch operation installs it whole.
 * The live one (dt_scope) changes only while no callback can be running:
 * inside the livepatch rendezvous, or when no entry is patched.
 */
struct dt_scope {
    /* Non-zero when anything below narrows tracing: the fast path's test. */
    unsigned int active;
    unsigned int nr_in;         /* rule[0, nr_in): record only these */
    unsigned int nr_out;        /* rule[nr_in, nr_in + nr_out): never these */
    unsigned int nr_triggers;
    struct dt_scope_rule rule[DT_SCOPE_RULES];
    struct dt_trigger trigger[DT_SCOPE_TRIGGERS];
    bool all_cpus;              /* cpus has every CPU set */
    DECLARE_BITMAP(cpus, NR_CPUS);
    /*
     * When no rule names a vCPU: the rules' verdict for each domain id
     * (DOMID_IDLE included), precomputed, so the test is one bit.
     */
    bool by_domain;
    DECLARE_BITMAP(domains, DOMID_IDLE + 1);
    /* Rules on whole domains, every CPU: domains alone decides. */
    bool domains_only;
};

extern struct dt_scope dt_scope;
/*
 * 0 when the rules are on whole domains, every CPU, and every CPU that may
 * run traced code has its current (S0, scope.c); else SCOPE_SLOW_RULES
 * and SCOPE_SLOW_UNREADY for each CPU that may not.
 */
extern atomic_t dt_scope_slow;
#define SCOPE_SLOW_RULES   1
#define SCOPE_SLOW_UNREADY 2

/* The running vCPU as a rule key. */
static always_inline uint32_t dt_scope_key(const struct vcpu *v)
{
    return ((uint32_t)v->domain->domain_id << 16) | (uint16_t)v->vcpu_id;
}

static always_inline bool dt_scope_match(const struct dt_scope_rule *r,
                                         uint32_t key)
{
    return (key & r->mask) == r->key;
}

/*
 * Does the scope let this call reach the tracer?  Asked first, before any
 * buffer work (by the dispatcher, or by the trampoline with
 * ARCH_DYNTRACE_SCOPE_IN_ENTRY): with no scope set it costs one load and a
 * branch; with rules on whole domains only, one more bit test.
 */
static always_inline bool dt_scope_allows(void)
{
    const struct dt_scope *s = &dt_scope;
    unsigned int i, nr_in, end;
    uint32_t key;

    if ( likely(!ACCESS_ONCE(s->active)) )
        return true;

    if ( !s->all_cpus && !test_bit(smp_processor_id(), s->cpus) )
        return false;

#ifdef DYNTRACE_WITH_EVENTS
    /*
     * Read once, and bounded: an event's trigger (E6 of events.c) may read
     * a scope being installed, half old, half new.
     */
    nr_in = min_t(unsigned int, ACCESS_ONCE(s->nr_in), DT_SCOPE_RULES);
    end = min_t(unsigned int, nr_in + ACCESS_ONCE(s->nr_out), DT_SCOPE_RULES);
#else
    nr_in = s->nr_in;
    end = nr_in + s->nr_out;
#endif
    if ( !end )
        return true;
    /*
     * The rules read current, which a CPU not up for tracing may not have
     * (S0: an AP's first C calls, play_dead()); it records nothing anyway.
     */
    if ( unlikely(atomic_read(&dt_scope_slow) >= SCOPE_SLOW_UNREADY) &&
         !dt_ring_cpu_ready(smp_processor_id()) )
        return false;
    if ( s->by_domain )
        return test_bit(current->domain->domain_id, s->domains);
    key = dt_scope_key(current);
    for ( i = 0; i < nr_in; i++ )
        if ( dt_scope_match(&s->rule[i], key) )
            break;
    if ( nr_in && i == nr_in )
        return false;
    for ( i = nr_in; i < end; i++ )
        if ( dt_scope_match(&s->rule[i], key) )
            return false;

    return true;
}

/* The dispatcher, after the tracer's callback: run ip's triggers. */
void dt_scope_fire_triggers(unsigned long ip);
/*
 * Fire one trigger of command cmd, whose firings left are *left: only if
 * it changes tracing_on, using one of them.  Any context.
 */
void dt_trigger_fire(int *left, enum dt_trigger_cmd cmd);
/*
 * A trigger's "cmd[:count]" (count: N, count=N or unlimited) into *c and
 * *left; text is modified.  -EINVAL: an unknown command or a bad count;
 * -EOPNOTSUPP: a command Xen cannot run there (stacktrace).
 */
int dt_trigger_parse(char *text, enum dt_trigger_cmd *c, int *left);
#ifdef DYNTRACE_WITH_EVENTS
/* A command's name, as triggers read back. */
const char *dt_trigger_name(enum dt_trigger_cmd cmd);
#endif

/* Copy the live scope into s (the caller serialises with installs). */
void dt_scope_copy(struct dt_scope *s);
/* Make s the live scope: in the rendezvous, or with no entry patched. */
void dt_scope_install(const struct dt_scope *s);
/* Set in map the sites of s's triggers. */
void dt_scope_trigger_sites(const struct dt_scope *s, unsigned long *map);

/*
 * Parse a set_domain_filter text (replacing the rules) / a tracing_cpumask
 * text into s.  text is modified; on error *bad points into it.
 * -EINVAL: a malformed word or mask; -ENOSPC: more than DT_SCOPE_RULES.
 */
int dt_scope_parse_domains(struct dt_scope *s, char *text, const char **bad);
int dt_scope_parse_cpumask(struct dt_scope *s, char *text, const char **bad);
/*
 * Add ("name:cmd[:count]") or, with remove, take away ("!name:cmd") a
 * trigger in s.  -ENOENT/-EPERM/-EEXIST: as a function name of the filter;
 * -EINVAL: an unknown command or a bad count; -EOPNOTSUPP: a command Xen
 * cannot run from a callback (stacktrace); -ENOSPC: DT_SCOPE_TRIGGERS are
 * set.
 */
int dt_scope_parse_trigger(struct dt_scope *s, char *word, bool remove,
                           dt_site_pred_t *usable);
/* The length of the word at s: up to whitespace (Xen has no strcspn()). */
static inline size_t dt_word_len(const char *s)
{
    const char *end = strpbrk(s, " \t\n");

    return end ? (size_t)(end - s) : strlen(s);
}


/* The texts read back, into buffers of these sizes. */
#define DT_SCOPE_DOMAINS_TEXT (DT_SCOPE_RULES * 16 + 1)
#define DT_SCOPE_CPUMASK_TEXT (DIV_ROUND_UP(NR_CPUS, 32) * 9 + 1)
void dt_scope_domains_text(const struct dt_scope *s, char *buf);
void dt_scope_cpumask_text(const struct dt_scope *s, char *buf);
/* The triggers, one per line, as set_function_filter shows them. */
int dt_scope_triggers_text(const struct dt_scope *s, char **text);

#endif /* DYNTRACE_SCOPE_H */
