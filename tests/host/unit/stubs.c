/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The out-of-line part of the stub "Xen" the tracer's files are built
 * against: CPU context, anomalies, printk, memory accounting, CPU maps and
 * hotplug, clock and timers, hypercall continuations, livepatch, guest
 * copies, spinlocks and preemption points.  See unit-stub.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/cpu.h>
#include <xen/cpumask.h>
#include <xen/dyntrace.h>
#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/livepatch.h>

#include "scope.h"
#include <xen/sched.h>
#include <xen/spinlock.h>
#include <xen/time.h>
#include <xen/timer.h>
#include <xen/trace.h>
#include <xen/vmap.h>
#include <xen/xmalloc.h>
#include <asm/system.h>

#include "unit-stub.h"

/* ---- CPU context ---- */

__thread unsigned int stub_cpu;
__thread struct vcpu *stub_current;
__thread bool stub_irqs_enabled = true;
__thread unsigned int stub_irq_count, stub_nmi_count, stub_mce_count;

static struct domain idle_domain = { .domain_id = DOMID_IDLE };
static struct vcpu idle_vcpus[NR_CPUS];
static struct domain guest_domains[4];
static struct vcpu guest_vcpus[4][8];
static struct stub_hcall guest_hcalls[4][8];

struct vcpu *stub_idle_vcpu(unsigned int cpu)
{
    struct vcpu *v = &idle_vcpus[cpu];

    ASSERT(cpu < NR_CPUS);
    v->vcpu_id = cpu;
    v->domain = &idle_domain;

    return v;
}

struct vcpu *stub_guest_vcpu(unsigned int dom, unsigned int vcpu)
{
    struct vcpu *v = &guest_vcpus[dom][vcpu];

    ASSERT(dom < 4 && vcpu < 8);
    guest_domains[dom].domain_id = dom;
    v->vcpu_id = vcpu;
    v->domain = &guest_domains[dom];
    v->hcall = &guest_hcalls[dom][vcpu];

    return v;
}

struct stub_ctx stub_ctx_enter(unsigned int cpu, struct vcpu *v, bool irqs)
{
    struct stub_ctx old = { stub_cpu, stub_current, stub_irqs_enabled };

    ASSERT(cpu < NR_CPUS);
    stub_cpu = cpu;
    stub_current = v;
    stub_irqs_enabled = irqs;

    return old;
}

void stub_ctx_restore(struct stub_ctx old)
{
    stub_cpu = old.cpu;
    stub_current = old.v;
    stub_irqs_enabled = old.irqs;
}

/* ---- Anomalies and assertions ---- */

unsigned int stub_anomalies;
char stub_anomaly_first[256];

void stub_anomaly(const char *fmt, ...)
{
    va_list ap;

    if ( stub_anomalies++ )
        return;
    va_start(ap, fmt);
    vsnprintf(stub_anomaly_first, sizeof(stub_anomaly_first), fmt, ap);
    va_end(ap);
}

void stub_assert_failed(const char *expr, const char *file, int line)
{
    fflush(stdout);
    fprintf(stderr, "ASSERTION FAILED: %s at %s:%d\n", expr, file, line);
    abort();
}

void panic(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fprintf(stderr, "PANIC: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    abort();
}

/* ---- printk and text helpers ---- */

#define LOG_LINES 256
#define LOG_LINE  256
static char log_buf[LOG_LINES][LOG_LINE];
static unsigned int log_next;
bool stub_log_echo;
unsigned long stub_truncations;

void printk(const char *fmt, ...)
{
    char line[LOG_LINE];
    const char *ph = strstr(fmt, "%*ph");
    va_list ap;

    va_start(ap, fmt);
    if ( ph )
    {
        /* Only "<literal>%*ph<literal>" is used; nothing else to format. */
        int n = va_arg(ap, int), i, len;
        const uint8_t *b = va_arg(ap, const uint8_t *);

        if ( memchr(fmt, '%', ph - fmt) || strchr(ph + 4, '%') )
            stub_anomaly("printk: unsupported format \"%s\"", fmt);
        len = snprintf(line, sizeof(line), "%.*s", (int)(ph - fmt), fmt);
        for ( i = 0; i < n && len < (int)sizeof(line) - 4; i++ )
            len += snprintf(line + len, sizeof(line) - len, "%s%02x",
                            i ? " " : "", b[i]);
        snprintf(line + len, sizeof(line) - len, "%s", ph + 4);
    }
    else
        vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);

    memcpy(log_buf[log_next++ % LOG_LINES], line, sizeof(line));
    if ( stub_log_echo )
        fprintf(stderr, "(XEN) %s", line);
}

bool stub_log_has(const char *needle)
{
    unsigned int i;

    for ( i = 0; i < LOG_LINES && i < log_next; i++ )
        if ( strstr(log_buf[i], needle) )
            return true;

    return false;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
    int n;

    if ( !size )
        return 0;
    n = vsnprintf(buf, size, fmt, args);
    if ( n < 0 )
        return 0;
    if ( (size_t)n >= size )
    {
        stub_truncations++;
        return size - 1;
    }

    return n;
}

size_t stub_strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if ( size )
    {
        size_t n = len >= size ? size - 1 : len;

        memcpy(dst, src, n);
        dst[n] = '\0';
    }

    return len;
}

/* ---- Preemption points ---- */

unsigned int stub_preempt_at, stub_preempt_seen;
void (*stub_preempt_fn)(void);
static bool in_preempt;
static __thread unsigned int locks_held;

void stub_preempt_point(void)
{
    /* Not while a lock is held: the other CPU would wait for it. */
    if ( !stub_preempt_at || in_preempt || locks_held )
        return;
    if ( ++stub_preempt_seen != stub_preempt_at )
        return;
    stub_preempt_at = 0;
    in_preempt = true;
    stub_preempt_fn();
    in_preempt = false;
}

/* ---- Memory ---- */

#define MAGIC_X     0x786d616cU     /* from xmalloc */
#define MAGIC_V     0x766d616cU     /* from vmalloc */
#define MAGIC_FREED 0x66726565U

/* In front of each block: 32 bytes, so blocks stay 16-byte aligned. */
struct alloc_hdr {
    size_t size;
    uint32_t magic;
    uint32_t pad;
    uint64_t pad2[2];
};

struct stub_mem_stats stub_mem;
unsigned int stub_alloc_fail_in;
bool stub_alloc_failed;

void stub_mem_mark(void)
{
    stub_mem.peak = stub_mem.cur;
    stub_mem.largest = 0;
    stub_mem.allocs = 0;
}

static void *alloc(size_t size, bool zero, uint32_t magic)
{
    struct alloc_hdr *h;

    stub_preempt_point();
    if ( stub_alloc_fail_in && --stub_alloc_fail_in == 0 )
    {
        stub_alloc_failed = true;
        return NULL;
    }
    h = malloc(sizeof(*h) + size);
    if ( !h )
    {
        stub_anomaly("host out of memory (%zu bytes)", size);
        return NULL;
    }
    /* Not zeroed: poisoned, so that a missing initialisation shows. */
    memset(h + 1, zero ? 0 : 0xa5, size);
    h->size = size;
    h->magic = magic;

    stub_mem.cur += size;
    stub_mem.live++;
    stub_mem.allocs++;
    if ( stub_mem.cur > stub_mem.peak )
        stub_mem.peak = stub_mem.cur;
    if ( size > stub_mem.largest )
        stub_mem.largest = size;

    return h + 1;
}

static void release(void *p, uint32_t magic, const char *who)
{
    struct alloc_hdr *h;

    if ( !p )
        return;
    h = (struct alloc_hdr *)p - 1;
    if ( h->magic != magic )
    {
        stub_anomaly("%s of a block %s", who,
                     h->magic == MAGIC_X ? "from xmalloc" :
                     h->magic == MAGIC_V ? "from vmalloc" :
                     "not allocated (or freed twice)");
        return;
    }
    h->magic = MAGIC_FREED;
    stub_mem.cur -= h->size;
    stub_mem.live--;
    free(h);
}

void *stub_xmalloc(size_t size, bool zero)
{
    return alloc(size, zero, MAGIC_X);
}

void *stub_xmalloc_array(size_t size, size_t num, bool zero)
{
    if ( num && size > SIZE_MAX / num )
        return NULL;

    return alloc(size * num, zero, MAGIC_X);
}

void xfree(void *p)
{
    release(p, MAGIC_X, "xfree");
}

void *vmalloc(size_t size)
{
    return alloc(size, false, MAGIC_V);
}

void *vzalloc(size_t size)
{
    return alloc(size, true, MAGIC_V);
}

void vfree(void *va)
{
    release(va, MAGIC_V, "vfree");
}

/* ---- CPUs ---- */

unsigned int nr_cpu_ids = NR_CPUS;
cpumask_t cpu_online_map, cpu_present_map;
unsigned int stub_cpu_maps_held;
bool stub_cpu_maps_busy;
static bool hotplug_running;
static struct notifier_block *cpu_chain;

bool get_cpu_maps(void)
{
    if ( stub_cpu_maps_busy || hotplug_running )
        return false;
    stub_cpu_maps_held++;

    return true;
}

void put_cpu_maps(void)
{
    if ( !stub_cpu_maps_held )
    {
        stub_anomaly("put_cpu_maps() without get_cpu_maps()");
        return;
    }
    stub_cpu_maps_held--;
}

/*
 * As Xen's notifier_chain_register(): after every block of the same or a
 * higher priority.  cpu_notify() calls the chain in that order, or in the
 * reverse one for the actions flagged NOTIFY_REVERSE (CPU_UP_CANCELED,
 * CPU_DOWN_PREPARE, CPU_DYING, CPU_DEAD), as notifier_call_chain() does.
 */
void register_cpu_notifier(struct notifier_block *nb)
{
    struct notifier_block **p = &cpu_chain;

    while ( *p && (*p)->priority >= nb->priority )
        p = &(*p)->next;
    nb->next = *p;
    *p = nb;
}

static void cpu_notify(unsigned int cpu, unsigned long action)
{
    struct notifier_block *nb, *chain[16];
    unsigned int n = 0, i;

    for ( nb = cpu_chain; nb; nb = nb->next )
    {
        ASSERT(n < ARRAY_SIZE(chain));
        chain[n++] = nb;
    }
    for ( i = 0; i < n; i++ )
    {
        nb = chain[action & NOTIFY_REVERSE ? n - 1 - i : i];
        if ( nb->notifier_call(nb, action, (void *)(unsigned long)cpu) !=
             NOTIFY_DONE )
            stub_anomaly("CPU notifier refused action %#lx", action);
    }
}

void stub_cpus_reset(unsigned int present)
{
    unsigned int cpu;

    ASSERT(present >= 1 && present <= NR_CPUS);
    memset(&cpu_online_map, 0, sizeof(cpu_online_map));
    memset(&cpu_present_map, 0, sizeof(cpu_present_map));
    for ( cpu = 0; cpu < present; cpu++ )
        cpumask_set_cpu(cpu, &cpu_present_map);
    cpumask_set_cpu(0, &cpu_online_map);
}

void (*stub_cpu_early_fn)(unsigned int cpu);

void stub_cpu_up(unsigned int cpu)
{
    struct stub_ctx ctx = stub_ctx_enter(0, stub_idle_vcpu(0), true);

    ASSERT(cpu_present(cpu) && !cpu_online(cpu));
    hotplug_running = true;
    cpu_notify(cpu, CPU_UP_PREPARE);
    /* The AP's first C calls: no current yet (x86's __high_start). */
    if ( stub_cpu_early_fn )
    {
        stub_ctx_enter(cpu, NULL, false);
        stub_cpu_early_fn(cpu);
    }
    /* On the new CPU, IRQs off, before it is marked online. */
    stub_ctx_enter(cpu, stub_idle_vcpu(cpu), false);
    cpu_notify(cpu, CPU_STARTING);
    cpumask_set_cpu(cpu, &cpu_online_map);
    stub_ctx_enter(0, stub_idle_vcpu(0), true);
    cpu_notify(cpu, CPU_ONLINE);
    hotplug_running = false;
    stub_ctx_restore(ctx);
}

void (*stub_cpu_dead_fn)(unsigned int cpu);

void stub_cpu_down(unsigned int cpu)
{
    struct stub_ctx ctx = stub_ctx_enter(0, stub_idle_vcpu(0), true);

    ASSERT(cpu && cpu_online(cpu));
    hotplug_running = true;
    cpu_notify(cpu, CPU_DOWN_PREPARE);
    /* On the CPU, IRQs off, in stop_machine. */
    stub_ctx_enter(cpu, stub_idle_vcpu(cpu), false);
    cpu_notify(cpu, CPU_DYING);
    cpumask_clear_cpu(cpu, &cpu_online_map);
    stub_ctx_enter(0, stub_idle_vcpu(0), true);
    cpu_notify(cpu, CPU_DEAD);
    hotplug_running = false;
    /* Parked: woken by an NMI, it runs traced code, as its idle vCPU. */
    if ( stub_cpu_dead_fn )
    {
        stub_ctx_enter(cpu, stub_idle_vcpu(cpu), false);
        stub_cpu_dead_fn(cpu);
    }
    stub_ctx_restore(ctx);
}

/* ---- Clock and timers ---- */

s_time_t stub_now_ns;
static struct timer *timers;

/* trace.c, as the series has it: xentrace's buffers are never set up here. */
union trace_users trace_users;

void trace(uint32_t event, unsigned int extra, const void *extra_data)
{
    if ( trace_users.dyntrace )
        dyntrace_trace_event(event, extra, extra_data);
}

s_time_t stub_NOW(void)
{
    if ( stub_nmi_count || stub_mce_count )
        stub_anomaly("NOW() called in NMI/MCE context");

    return stub_now_ns;
}

void init_timer(struct timer *timer, void (*function)(void *data), void *data,
                unsigned int cpu)
{
    struct timer *t;

    for ( t = timers; t && t != timer; t = t->next )
        ;
    memset(timer, 0, sizeof(*timer));
    timer->function = function;
    timer->data = data;
    timer->cpu = cpu;
    timer->initialised = true;
    if ( !t )
    {
        timer->next = timers;
        timers = timer;
    }
    else
        stub_anomaly("init_timer() of an initialised timer");
}

void set_timer(struct timer *timer, s_time_t expires)
{
    if ( !timer->initialised || timer->killed )
        stub_anomaly("set_timer() of a timer not initialised or killed");
    timer->expires = expires;
    timer->active = true;
}

void stop_timer(struct timer *timer)
{
    timer->active = false;
}

void kill_timer(struct timer *timer)
{
    timer->active = false;
    timer->killed = true;
}

unsigned int stub_advance_to(s_time_t when)
{
    unsigned int fired = 0;

    for ( ;; )
    {
        struct timer *t, *due = NULL;
        struct stub_ctx ctx;

        for ( t = timers; t; t = t->next )
            if ( t->active && t->expires <= when &&
                 (!due || t->expires < due->expires) )
                due = t;
        if ( !due )
            break;
        if ( due->expires > stub_now_ns )
            stub_now_ns = due->expires;
        due->active = false;
        /* Timer softirq: the timer's CPU, its idle vCPU, IRQs on. */
        ctx = stub_ctx_enter(due->cpu, stub_idle_vcpu(due->cpu), true);
        due->function(due->data);
        stub_ctx_restore(ctx);
        fired++;
    }
    if ( when > stub_now_ns )
        stub_now_ns = when;

    return fired;
}

/* ---- Hypercall continuations, as common/domain.c queues them ---- */

struct migrate_info {
    long (*func)(void *data);
    void *data;
    struct vcpu *vcpu;
    unsigned int cpu;
    unsigned int nest;
};

static struct migrate_info *continue_info[NR_CPUS];
#define TASKLET_QUEUE 64
static struct migrate_info *tasklet_queue[TASKLET_QUEUE];
static unsigned int tq_head, tq_tail;

struct stub_hcall *stub_hcall_of(struct vcpu *v)
{
    return v->hcall;
}

static void tasklet_schedule(struct migrate_info *info)
{
    unsigned int i;

    for ( i = tq_head; i != tq_tail; i++ )
        if ( tasklet_queue[i % TASKLET_QUEUE] == info )
            return;             /* Already scheduled. */
    ASSERT(tq_tail - tq_head < TASKLET_QUEUE);
    tasklet_queue[tq_tail++ % TASKLET_QUEUE] = info;
}

int continue_hypercall_on_cpu(unsigned int cpu, long (*func)(void *data),
                              void *data)
{
    struct migrate_info *info;

    if ( cpu >= nr_cpu_ids || !cpu_online(cpu) )
        return -EINVAL;

    info = continue_info[smp_processor_id()];
    if ( !info )
    {
        struct vcpu *curr = current;

        if ( !curr->hcall )
        {
            stub_anomaly("continue_hypercall_on_cpu() outside a hypercall");
            return -EINVAL;
        }
        info = xmalloc(struct migrate_info);
        if ( !info )
            return -ENOMEM;
        info->vcpu = curr;
        info->nest = 0;
        /* The vCPU is paused until the last run; its result is that run's. */
        curr->hcall->paused = true;
        curr->hcall->done = false;
        curr->hcall->runs = 0;
    }
    else
    {
        BUG_ON(info->nest != 0);
        info->nest++;
    }

    info->func = func;
    info->data = data;
    info->cpu = cpu;
    tasklet_schedule(info);

    return 0;
}

unsigned int stub_tasklets_queued(void)
{
    return tq_tail - tq_head;
}

bool stub_run_tasklet_except(const struct vcpu *busy)
{
    struct migrate_info *info;
    struct stub_hcall *h;
    struct stub_ctx ctx;
    unsigned int cpu;
    long res = -EINVAL;

    if ( tq_head == tq_tail )
        return false;
    info = tasklet_queue[tq_head % TASKLET_QUEUE];
    /*
     * Xen's handler first waits for the vCPU to be descheduled
     * (vcpu_sleep_sync()): not while its hypercall is still running.
     */
    if ( info->vcpu == busy )
        return false;
    tq_head++;
    cpu = info->cpu;
    h = info->vcpu->hcall;

    /* A tasklet runs in the idle vCPU of its CPU, IRQs on. */
    ctx = stub_ctx_enter(cpu, stub_idle_vcpu(cpu), true);
    continue_info[cpu] = info;
    if ( info->cpu == smp_processor_id() )
        res = info->func(info->data);
    h->result = res;
    h->runs++;
    continue_info[cpu] = NULL;
    if ( info->nest-- == 0 )
    {
        xfree(info);
        h->paused = false;
        h->done = true;
    }
    if ( !stub_irqs_enabled )
        stub_anomaly("a tasklet returned with IRQs off");
    stub_ctx_restore(ctx);

    return true;
}

bool stub_run_tasklet(void)
{
    return stub_run_tasklet_except(NULL);
}

/* ---- Livepatch ---- */

static int lp_script[32];
static unsigned int lp_scripted, lp_used;
unsigned int stub_lp_calls;
uint32_t stub_lp_timeouts[16];
int stub_lp_permission;
unsigned int stub_lp_permission_calls;
bool stub_in_quiesce;
bool stub_text_writable;

void stub_lp_script(int rc)
{
    ASSERT(lp_scripted < ARRAY_SIZE(lp_script));
    lp_script[lp_scripted++] = rc;
}

int livepatch_run_quiesced(const char *name, int (*fn)(void *arg), void *arg,
                           uint32_t timeout)
{
    bool irqs = stub_irqs_enabled;
    int rc;

    (void)name;
    /* What the real one asserts (patches/0003). */
    if ( !is_idle_vcpu(current) || !local_irq_is_enabled() )
        stub_anomaly("livepatch_run_quiesced() not from an idle vCPU with "
                     "IRQs on");
    if ( stub_lp_calls < ARRAY_SIZE(stub_lp_timeouts) )
        stub_lp_timeouts[stub_lp_calls] = timeout;
    stub_lp_calls++;

    if ( lp_used < lp_scripted )
        return lp_script[lp_used++];

    /* The master runs fn with IRQs off, every other CPU parked. */
    stub_irqs_enabled = false;
    stub_in_quiesce = true;
    rc = fn(arg);
    stub_in_quiesce = false;
    stub_irqs_enabled = irqs;
    if ( stub_text_writable )
        stub_anomaly("text left writable (no arch_livepatch_revive())");

    return rc;
}

int livepatch_check_permission(void)
{
    stub_preempt_point();
    stub_lp_permission_calls++;

    return stub_lp_permission;
}

int arch_livepatch_quiesce(void)
{
    if ( !stub_in_quiesce )
        stub_anomaly("arch_livepatch_quiesce() outside the rendezvous");
    stub_text_writable = true;

    return 0;
}

void arch_livepatch_revive(void)
{
    stub_text_writable = false;
}

/* ---- Guest copies ---- */

unsigned long stub_copy_to_guest(void *to, const void *from, size_t n)
{
    memcpy(to, from, n);

    return 0;
}

unsigned long stub_copy_from_guest(void *to, const void *from, size_t n)
{
    stub_preempt_point();
    memcpy(to, from, n);

    return 0;
}

/* ---- Spinlocks ---- */

void spin_lock(spinlock_t *l)
{
    stub_preempt_point();
    if ( l->locked )
        stub_assert_failed("spin_lock() of a lock already held", __FILE__,
                           __LINE__);
    l->locked = true;
    locks_held++;
}

void spin_unlock(spinlock_t *l)
{
    if ( !l->locked )
        stub_anomaly("spin_unlock() of a free lock");
    l->locked = false;
    locks_held--;
}

/* ---- Interrupt context and the nested writer ---- */

unsigned int stub_nested_writes;
unsigned long stub_nested_ip, stub_nested_parent;

bool stub_in_irq(void)
{
    if ( stub_nested_writes )
    {
        unsigned int i, n = stub_nested_writes;

        stub_nested_writes = 0;
        stub_nmi_count++;
        for ( i = 0; i < n; i++ )
            stub_trampoline(stub_nested_ip, stub_nested_parent);
        stub_nmi_count--;
    }

    return stub_irq_count != 0;
}

void stub_trampoline(unsigned long ip, unsigned long parent_ip)
{
    if ( !*(volatile unsigned int *)&dt_scope )
        dyntrace_dispatch(ip, parent_ip, NULL);
    else if ( dyntrace_scope_entry() )
        dyntrace_dispatch_scoped(ip, parent_ip, NULL);
}

/*
 * function_graph's fast entry and return are assembly (dyntrace-graph.S),
 * not built here: the harness names them (fast-targets), never runs them
 * (a trampoline's call is not executed; calls come through
 * dyntrace_dispatch() and dyntrace_return()).  Assembly here too: a C body
 * could not have the entry's attribute without -mgeneral-regs-only.
 */
asm ( ".text\n"
      ".globl dyntrace_fast_graph_entry\n"
      "dyntrace_fast_graph_entry:\n\tret\n"
      ".globl dyntrace_fast_graph_return\n"
      "dyntrace_fast_graph_return:\n\tmov %rdi, %rax\n\tret\n" );
