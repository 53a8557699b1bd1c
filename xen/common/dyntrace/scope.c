/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the scope of tracing.
 *
 * - set_domain_filter: words "dN" (domain N), "dNvM" (its vCPU M), "idle"
 *   (the idle vCPUs), each optionally preceded by '!'.  Calls are recorded
 *   while the running vCPU matches one word without '!' (or there is none)
 *   and no word with '!'.  Empty: every domain.
 * - tracing_cpumask: the physical CPUs calls are recorded on, in hex (the
 *   format of Linux's tracing_cpumask: 32-bit groups separated by commas).
 * - Triggers ("name:traceoff[:count]", "name:traceon[:count]"): when name
 *   runs, turn recording (tracing_on) off or on, up to count times.
 *
 * The dispatcher reads the live scope (dt_scope) without a lock: a write
 * builds a new value and the patch operation installs it while no callback
 * can be running (see scope.h).  Only the triggers' counts and the recording
 * switch (dt_recording) change under running callbacks, each with single
 * atomic accesses.
 */

#include <xen/bitmap.h>
#include <xen/bug.h>
#include <xen/cpu.h>
#include <xen/cpumask.h>
#include <xen/ctype.h>
#include <xen/errno.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/notifier.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>
#include <asm/atomic.h>
#include <asm/system.h>

#include "scope.h"
#include "sites.h"
#include "tracer.h"

/* Bits of dt_scope.active. */
#define ACTIVE_DOMAINS  (1u << 0)
#define ACTIVE_CPUS     (1u << 1)
#define ACTIVE_TRIGGERS (1u << 2)

/* Room for one rule's word: "!d32752v65534", a space and a NUL. */
#define RULE_TEXT_MAX 16

struct dt_scope dt_scope = {
    .all_cpus = true,
    .cpus = { [0 ... BITS_TO_LONGS(NR_CPUS) - 1] = ~0UL },
};

/*
 * S0, and dyntrace_scope_entry()'s one-bit path, in one word changed only
 * by atomic operations (no lock: an install in the rendezvous must call
 * nothing traceable).  SCOPE_SLOW_RULES: the live rules are not all on
 * whole domains and every CPU (domains_only); above it, SCOPE_SLOW_UNREADY
 * for each CPU that may run traced code while not up for tracing, counted
 * from CPU_UP_PREPARE, and from CPU_DYING, to its CPU_STARTING or
 * CPU_DEAD.  0: current may be read at once and one bit decides.
 */
atomic_t dt_scope_slow = ATOMIC_INIT(SCOPE_SLOW_RULES);
/* The CPUs counted in dt_scope_slow (changed by CPU hotplug only). */
static cpumask_t unready_cpus;

/* Count cpu in dt_scope_slow or not. */
static void set_unready(unsigned int cpu, bool unready)
{
    if ( unready ? cpumask_test_and_set_cpu(cpu, &unready_cpus)
                 : !cpumask_test_and_clear_cpu(cpu, &unready_cpus) )
        return;
    if ( unready )
        atomic_add(SCOPE_SLOW_UNREADY, &dt_scope_slow);
    else
        atomic_sub(SCOPE_SLOW_UNREADY, &dt_scope_slow);
}

static int cf_check cpu_callback(struct notifier_block *nfb,
                                 unsigned long action, void *hcpu)
{
    unsigned int cpu = (unsigned long)hcpu;

    switch ( action )
    {
    case CPU_UP_PREPARE:
        /*
         * Before the CPU runs anything.  The full barrier orders the count
         * before the CPU's start: its first traced calls see it.
         */
        set_unready(cpu, true);
        smp_mb();
        break;

    case CPU_STARTING:
        /* On the CPU, its current set. */
        set_unready(cpu, false);
        break;

    case CPU_DYING:
        /* On the CPU, before it stops being up for tracing (B3). */
        set_unready(cpu, true);
        break;

    case CPU_DEAD:
        /*
         * Parked, it keeps its stack and current (the idle vCPU); else it
         * runs nothing more.  Not at CPU_UP_CANCELED: the CPU may have
         * started and stopped before its current was set.
         */
        set_unready(cpu, false);
        break;

    default:
        break;
    }

    return NOTIFY_DONE;
}

static struct notifier_block cpu_nfb = {
    .notifier_call = cpu_callback,
};

static int __init cf_check scope_init(void)
{
    /* Before any AP is brought up: each is counted from its start. */
    register_cpu_notifier(&cpu_nfb);

    return 0;
}
presmp_initcall(scope_init);

static const char *const trigger_cmds[] = {
    [DT_TRIGGER_TRACEOFF] = "traceoff",
    [DT_TRIGGER_TRACEON] = "traceon",
};

/*
 * A trigger fires (ftrace's traceoff/traceon probes), and uses one of its
 * count, only if it changes the recording state.  Any context.  Callbacks
 * on other CPUs may record a few more calls after a traceoff (they passed
 * the test already).
 */
void dt_trigger_fire(int *left, enum dt_trigger_cmd cmd)
{
    bool on = cmd == DT_TRIGGER_TRACEON;
    int l;

    if ( ACCESS_ONCE(dt_recording) == on )
        return;
    do {
        l = ACCESS_ONCE(*left);
        if ( !l )
            return;
    } while ( l != DT_TRIGGER_UNLIMITED && cmpxchg(left, l, l - 1) != l );
    write_atomic(&dt_recording, on);
}

/* The dispatcher, IRQs off, after the tracer's callback. */
void dt_scope_fire_triggers(unsigned long ip)
{
    unsigned int i, nr = dt_scope.nr_triggers;

    for ( i = 0; i < nr; i++ )
        if ( dt_scope.trigger[i].ip == ip )
            dt_trigger_fire(&dt_scope.trigger[i].left,
                            dt_scope.trigger[i].cmd);
}

#ifdef ARCH_DYNTRACE_SCOPE_IN_ENTRY
static noinline bool ARCH_DYNTRACE_SCOPE_IN_ENTRY scope_entry_slow(void)
{
    return dt_scope_allows();
}

/*
 * The common case (rules on whole domains, every CPU) in a few registers;
 * the rest in a function of its own, which keeps every register too.
 */
bool ARCH_DYNTRACE_SCOPE_IN_ENTRY dyntrace_scope_entry(void)
{
    /* The trampoline tests active at offset 0 itself. */
    BUILD_BUG_ON(offsetof(struct dt_scope, active));

    /* Else as dt_scope_allows(): a CPU may not be up for tracing (S0). */
    if ( likely(!atomic_read(&dt_scope_slow)) )
        return test_bit(current->domain->domain_id, dt_scope.domains);

    return scope_entry_slow();
}
#endif

void dt_scope_copy(struct dt_scope *s)
{
    unsigned int i;

    *s = dt_scope;
    for ( i = 0; i < s->nr_triggers; i++ )
        s->trigger[i].left = ACCESS_ONCE(dt_scope.trigger[i].left);
}

static unsigned int active_bits(const struct dt_scope *s)
{
    return (s->nr_in + s->nr_out ? ACTIVE_DOMAINS : 0) |
           (s->all_cpus ? 0 : ACTIVE_CPUS) |
           (s->nr_triggers ? ACTIVE_TRIGGERS : 0);
}

void dt_scope_install(const struct dt_scope *s)
{
    int old, new;

    dt_scope = *s;
    dt_scope.active = active_bits(s);
    dt_scope.domains_only = s->all_cpus && s->by_domain &&
                            s->nr_in + s->nr_out;
    /* The rules' bit; the count may change meanwhile (no entry patched). */
    do {
        old = atomic_read(&dt_scope_slow);
        new = (old & ~SCOPE_SLOW_RULES) |
              (dt_scope.domains_only ? 0 : SCOPE_SLOW_RULES);
    } while ( atomic_cmpxchg(&dt_scope_slow, old, new) != old );
}

void dt_scope_trigger_sites(const struct dt_scope *s, unsigned long *map)
{
    unsigned int i;

    for ( i = 0; i < s->nr_triggers; i++ )
        __set_bit(s->trigger[i].site, map);
}

/* A decimal number of at most max, ending at *end. */
static bool parse_num(const char *p, const char **end, unsigned long max,
                      unsigned long *val)
{
    const char *q = p;

    *val = 0;
    while ( isdigit((unsigned char)*q) )
    {
        *val = *val * 10 + (*q - '0');
        if ( *val > max )
            return false;
        q++;
    }
    *end = q;

    return q != p && (q - p == 1 || *p != '0');
}

int dt_trigger_parse(char *cmd, enum dt_trigger_cmd *c, int *left)
{
    char *count = strchr(cmd, ':');
    unsigned int i;

    if ( count )
        *count++ = '\0';
    if ( !strcmp(cmd, "stacktrace") )
        return -EOPNOTSUPP;
    for ( i = 0; i < ARRAY_SIZE(trigger_cmds); i++ )
        if ( !strcmp(cmd, trigger_cmds[i]) )
            break;
    if ( i == ARRAY_SIZE(trigger_cmds) )
        return -EINVAL;
    *c = i;
    *left = DT_TRIGGER_UNLIMITED;

    /* ":N", or as read back: ":count=N" / ":unlimited". */
    if ( count && strcmp(count, "unlimited") )
    {
        unsigned long n;
        const char *end;

        if ( !strncmp(count, "count=", 6) )
            count += 6;
        if ( !parse_num(count, &end, INT_MAX, &n) || *end )
            return -EINVAL;
        *left = n;
    }

    return 0;
}

#ifdef DYNTRACE_WITH_EVENTS
const char *dt_trigger_name(enum dt_trigger_cmd cmd)
{
    return trigger_cmds[cmd];
}
#endif

/* One word of set_domain_filter, without its '!'. */
static bool parse_rule(const char *w, struct dt_scope_rule *r)
{
    unsigned long dom, vcpu = DT_SCOPE_ANY_VCPU;
    const char *p;

    if ( !strcmp(w, "idle") )
        dom = DOMID_IDLE;
    else if ( *w != 'd' ||
              !parse_num(w + 1, &p, DOMID_FIRST_RESERVED - 1, &dom) )
        return false;
    else if ( *p == 'v' )
    {
        if ( !parse_num(p + 1, &p, DT_SCOPE_ANY_VCPU - 1, &vcpu) || *p )
            return false;
    }
    else if ( *p )
        return false;

    r->key = (dom << 16) | (vcpu == DT_SCOPE_ANY_VCPU ? 0 : vcpu);
    r->mask = vcpu == DT_SCOPE_ANY_VCPU ? 0xffff0000u : 0xffffffffu;

    return true;
}

static bool has_rule(const struct dt_scope_rule *rules, unsigned int nr,
                     const struct dt_scope_rule *r)
{
    unsigned int i;

    for ( i = 0; i < nr; i++ )
        if ( rules[i].key == r->key && rules[i].mask == r->mask )
            return true;

    return false;
}

/* The rules' verdict for a whole domain, when no rule names a vCPU. */
static void precompute_domains(struct dt_scope *s)
{
    unsigned int i, end = s->nr_in + s->nr_out;

    s->by_domain = true;
    for ( i = 0; i < end; i++ )
        if ( s->rule[i].mask != 0xffff0000u )
            s->by_domain = false;
    /* No word without '!': every domain, minus those with '!'. */
    memset(s->domains, s->nr_in ? 0 : 0xff, sizeof(s->domains));
    if ( !s->by_domain )
        return;
    for ( i = 0; i < end; i++ )
        if ( i < s->nr_in )
            __set_bit(s->rule[i].key >> 16, s->domains);
        else
            __clear_bit(s->rule[i].key >> 16, s->domains);
}

int dt_scope_parse_domains(struct dt_scope *s, char *text, const char **bad)
{
    struct dt_scope_rule in[DT_SCOPE_RULES], out[DT_SCOPE_RULES];
    unsigned int nr_in = 0, nr_out = 0;
    char *p = text, *word;

    while ( (word = strsep(&p, " \t\n")) != NULL )
    {
        bool excl = *word == '!';
        struct dt_scope_rule r;

        if ( !*word )
            continue;
        *bad = word;
        if ( !parse_rule(word + excl, &r) )
            return -EINVAL;
        if ( has_rule(excl ? out : in, excl ? nr_out : nr_in, &r) )
            continue;
        if ( nr_in + nr_out == DT_SCOPE_RULES )
            return -ENOSPC;
        if ( excl )
            out[nr_out++] = r;
        else
            in[nr_in++] = r;
    }

    memcpy(s->rule, in, nr_in * sizeof(*in));
    memcpy(s->rule + nr_in, out, nr_out * sizeof(*out));
    s->nr_in = nr_in;
    s->nr_out = nr_out;
    precompute_domains(s);

    return 0;
}

int dt_scope_parse_cpumask(struct dt_scope *s, char *text, const char **bad)
{
    unsigned int bit = 0, digits = 0, nr = nr_cpu_ids, set = 0;
    const char *p, *start = text + strspn(text, " \t\n"), *end;
    DECLARE_BITMAP(cpus, NR_CPUS);

    *bad = start;
    end = start + dt_word_len(start);
    if ( end == start || end[strspn(end, " \t\n")] )
        return -EINVAL;

    bitmap_zero(cpus, NR_CPUS);
    /* From the last digit (CPUs 0-3) backwards; commas only separate. */
    for ( p = end; p-- > start; )
    {
        unsigned int v, b;

        if ( *p == ',' )
        {
            if ( p == start || p[-1] == ',' || p + 1 == end )
                return -EINVAL;
            continue;
        }
        if ( !isxdigit((unsigned char)*p) )
            return -EINVAL;
        v = isdigit((unsigned char)*p) ? *p - '0'
                                       : tolower((unsigned char)*p) - 'a' + 10;
        for ( b = 0; b < 4; b++, bit++ )
        {
            if ( !(v & (1u << b)) )
                continue;
            /* A CPU this machine cannot have. */
            if ( bit >= nr )
                return -EINVAL;
            __set_bit(bit, cpus);
            set++;
        }
        digits++;
    }
    if ( !digits )
        return -EINVAL;

    s->all_cpus = set == nr;
    if ( s->all_cpus )
        memset(s->cpus, 0xff, sizeof(s->cpus));
    else
        bitmap_copy(s->cpus, cpus, NR_CPUS);

    return 0;
}

/* Removing a trigger: any site may be named. */
static bool cf_check any_site(unsigned int i)
{
    return true;
}

static int find_site(const char *name, dt_site_pred_t *usable)
{
    unsigned int nr = dt_sites_nr(), i;
    unsigned long *map = xzalloc_array(unsigned long, BITS_TO_LONGS(nr));
    int rc;

    if ( !map )
        return -ENOMEM;
    rc = strpbrk(name, "*?") ? -EINVAL
                             : dt_sites_select(name, map, usable, true);
    for ( i = 0; !rc && i < nr; i++ )
        if ( test_bit(i, map) )
            rc = i;
    /* One site: "file.c#name" tells static functions of that name apart. */
    for ( ; rc >= 0 && i < nr; i++ )
        if ( test_bit(i, map) )
            rc = -EINVAL;
    xfree(map);

    return rc;
}

int dt_scope_parse_trigger(struct dt_scope *s, char *word, bool remove,
                           dt_site_pred_t *usable)
{
    char *name = word, *cmd;
    struct dt_trigger t;
    unsigned int i;
    int site;

    int rc;

    cmd = strchr(word, ':');
    *cmd++ = '\0';
    rc = dt_trigger_parse(cmd, &t.cmd, &t.left);
    if ( rc )
        return rc;

    site = find_site(name, remove ? any_site : usable);
    if ( site < 0 )
        return site;
    t.site = site;
    t.ip = dt_site_addr(site);

    /* One trigger per function and command: a new one replaces it. */
    for ( i = 0; i < s->nr_triggers; i++ )
        if ( s->trigger[i].site == t.site && s->trigger[i].cmd == t.cmd )
            break;
    if ( remove )
    {
        if ( i == s->nr_triggers )
            return -ENOENT;
        s->trigger[i] = s->trigger[--s->nr_triggers];
        return 0;
    }
    if ( i == DT_SCOPE_TRIGGERS )
        return -ENOSPC;
    if ( i == s->nr_triggers )
        s->nr_triggers++;
    s->trigger[i] = t;

    return 0;
}

static void rule_text(const struct dt_scope_rule *r, bool excl, char *buf)
{
    unsigned int dom = r->key >> 16, vcpu = r->key & 0xffff;
    const char *bang = excl ? "!" : "";

    if ( dom == DOMID_IDLE && r->mask == 0xffff0000u )
        snprintf(buf, RULE_TEXT_MAX, "%sidle", bang);
    else if ( r->mask == 0xffff0000u )
        snprintf(buf, RULE_TEXT_MAX, "%sd%u", bang, dom);
    else
        snprintf(buf, RULE_TEXT_MAX, "%sd%uv%u", bang, dom, vcpu);
}

void dt_scope_domains_text(const struct dt_scope *s, char *buf)
{
    unsigned int i, nr = s->nr_in + s->nr_out;
    size_t len = 0;

    buf[0] = '\0';
    for ( i = 0; i < nr; i++ )
    {
        char w[RULE_TEXT_MAX];

        rule_text(&s->rule[i], i >= s->nr_in, w);
        len += snprintf(buf + len, DT_SCOPE_DOMAINS_TEXT - len, "%s%s",
                        i ? " " : "", w);
    }
}

void dt_scope_cpumask_text(const struct dt_scope *s, char *buf)
{
    unsigned int nr = nr_cpu_ids, groups = DIV_ROUND_UP(nr, 32), g;
    size_t len = 0;

    /* Linux's format: the highest group first, 32 bits per group. */
    for ( g = groups; g-- > 0; )
    {
        uint32_t v = 0;
        unsigned int b;

        for ( b = 0; b < 32 && g * 32 + b < nr; b++ )
            if ( test_bit(g * 32 + b, s->cpus) )
                v |= 1u << b;
        len += snprintf(buf + len, DT_SCOPE_CPUMASK_TEXT - len,
                        g == groups - 1 ? "%x" : ",%08x", v);
    }
}

int dt_scope_triggers_text(const struct dt_scope *s, char **text)
{
    unsigned int i;
    unsigned long len = 1;
    char *out;

    for ( i = 0; i < s->nr_triggers; i++ )
        len += strlen(dt_site_name(s->trigger[i].site)) + 32;
    out = xzalloc_array(char, len);
    if ( !out )
        return -ENOMEM;
    for ( i = 0; i < s->nr_triggers; i++ )
    {
        const struct dt_trigger *t = &s->trigger[i];
        size_t n = strlen(out);
        int left = ACCESS_ONCE(t->left);

        if ( left == DT_TRIGGER_UNLIMITED )
            snprintf(out + n, len - n, "%s%s:%s:unlimited", n ? "\n" : "",
                     dt_site_name(t->site), trigger_cmds[t->cmd]);
        else
            snprintf(out + n, len - n, "%s%s:%s:count=%d", n ? "\n" : "",
                     dt_site_name(t->site), trigger_cmds[t->cmd], left);
    }
    *text = out;

    return 0;
}
