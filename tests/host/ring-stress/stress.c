/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host stress test of xen/common/dyntrace/ring.c: the very file Xen builds,
 * compiled against the stub headers of include/ (Xen's tools/tests pattern).
 * tests/host/test-ring-stress builds it plain, with ThreadSanitizer and with
 * AddressSanitizer+UBSan, and runs each build.
 *
 * Threads
 *
 *   4 "CPUs" (CPU0..3; CPU3 is present but offline at boot, so its buffer is
 *     allocated at its first CPU_UP_PREPARE, which fails half the time by
 *     injection: the CPU then comes up untraced).  Each writes records in a
 *     loop as function.c's callback does (dt_ring_reserve(), fill the slot,
 *     dt_ring_commit()).  Writers nest the way IRQ/NMI/MCE writers do in Xen:
 *     - the stubs of what a write calls midway (smp_processor_id,
 *       in_irq, NOW, current, smp_wmb, smp_mb: enum stub_point) are
 *       interrupt points; an outer write arms one at random and the stub runs
 *       a nested writer right there, on the same thread, so every window of
 *       the write (before the cmpxchg, WRITING with the slot untouched,
 *       half-filled, filled but unpublished, published but still WRITING) is
 *       hit, up to three levels deep;
 *     - an "NMI source" thread sends SIGUSR1 to random CPU threads; the
 *       handler runs a writer wherever the thread was (asynchronous nesting).
 *   2 readers calling dt_rings_snapshot (sometimes with an allocation failure
 *     injected), checking every snapshot;
 *   2 consumers (trace_pipe's reads): capped snapshots of the oldest records
 *     not consumed, of every buffer or one, a random number of them taken
 *     and committed with dt_rings_consume(); their commits race each other
 *     (-EAGAIN), the writers (overwrite), clears, resizes and hotplug.  The
 *     harness follows each buffer's read position through the commits (made
 *     under its own mutex) and checks that each one starts where the last
 *     ended, or at 0 after a clear, and that its first record follows the
 *     last one consumed after exactly the records it reports overwritten;
 *   a clearer (dt_rings_clear), a toggler (dt_rings_set_on), and a hotplug
 *   thread taking CPU1..3 offline and online with Xen's sequence: maps held
 *   for writing (cpu_hotplug_begin), CPU_UP_PREPARE, CPU_STARTING on the CPU
 *   itself, CPU_ONLINE; CPU_DOWN_PREPARE, CPU_DYING on the CPU itself,
 *   CPU_DEAD.  A CPU also writes (untraced: not ready) between
 *   CPU_UP_PREPARE and CPU_STARTING and after CPU_DYING, as an AP running
 *   bring-up or play_dead code would.
 *
 * Records
 *
 *   Every call (outer or nested) on CPU c gets a unique attempt id
 *   a = n << 3 | f, where f is the flags byte the record must carry
 *   (XEN_DYNTRACE_FLAG_IRQS_OFF as passed, IN_IRQ when the outer caller is in IRQ
 *   context, IN_NMI when nested).  The caller passes ip = c << 56 | a and
 *   parent_ip = mix(ip); current returns a vcpu whose domain_id/vcpu_id are
 *   bits 0-15/16-31 of a; NOW() returns seq << 24 | (a & 0xffffff), where seq
 *   numbers the records accepted on c (NOW() is called exactly once per
 *   accepted record, inside WRITING).  So each record carries a checksum
 *   binding all its fields (a mix of two writes shows up) and its per-CPU
 *   sequence number.
 *
 * Accounting
 *
 *   acc[c] is the number of records ever accepted on c (= seq of the newest).
 *   A call is "ready" when its CPU owns a buffer and is between its
 *   CPU_STARTING and CPU_DYING (the CPU thread knows: it runs them itself,
 *   with the NMI signal blocked).  After each call the writer knows whether
 *   it was accepted (NOW() ran).  Clears and on/off switches bracket their
 *   ring.c call with seq_cst generation counters (odd while running), and the
 *   writer reads both before and after its call; so each call that was not
 *   accepted is, for the counts since the last successful clear:
 *     surely on   - toggle generation even and unchanged, recording on, and
 *                   clear generation even and unchanged: it must be in
 *                   "dropped" (READY/WRITING/HELD_ON all count it);
 *     surely off  - toggle generation even and unchanged, recording off: it
 *                   must not be counted anywhere (and had it been accepted,
 *                   that is an anomaly at once);
 *     ambiguous   - overlapped a switch or a clear: it may or may not count.
 *   The run is a sequence of ~150 ms rounds.  Between rounds every thread is
 *   parked at a quiescent point; the main thread then checks the round
 *   (snapshot of all buffers, nobody running), clears (dt_rings_clear or, as
 *   the livepatch rendezvous does, dt_rings_reset_quiesced), checks that
 *   every buffer - offline CPUs' included - is empty, sets recording on or
 *   off, and records acc0[c].  "Exact" rounds run writers, NMIs, readers and
 *   hotplug but no clearer or toggler: at their end, per CPU,
 *       written  = acc - acc0                         (accepted = written)
 *       dropped  = ready calls not accepted           (all surely on/off)
 *       ready calls while on = written + dropped
 *   and the header's entries-written, sum(written + dropped), equals all
 *   calls made while on.  "Chaos" rounds run everything; at their end,
 *   with [lo, hi] = acc read just before/after the round's last successful
 *   clear (acc0 if none) and G its generation:
 *       acc - hi <= written <= acc - lo
 *       sure-on calls with generation >= G  <=  dropped
 *       dropped  <=  not-surely-off calls whose after-generation >= G - 1
 *
 * Checks on every snapshot (readers, and main at round boundaries): every
 * record intact; per CPU gap-free strictly increasing seq; records =
 * min(written, size) and bytes = records * 32 (size from the snapshot's own
 * allocation); the newest record between acc before and after the snapshot;
 * newest seq - written (the clear's base) and every seq above the floor of the
 * last completed clear (acc read before that clear began: anything at or
 * below was accepted before the clear and must be gone, on any CPU, online or
 * not); the CPU list covers every CPU owning a buffer.  The toggler checks
 * that once dt_rings_set_on(false) returns, acc stops on every CPU.
 *
 * Output: diagnostics as "# " lines, TAP (one test per class of check), and
 * last the line "stress ring-host: ops=N anomalies=M seconds=S".  Exit 0 iff
 * no anomaly.  RING_STRESS_SECONDS (default 3) sets the duration,
 * RING_STRESS_SEED the random seed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xen/cpu.h>
#include <xen/cpumask.h>
#include <xen/sched.h>
#include <xen/vmap.h>

#include <xen/time.h>
#include <asm/hardirq.h>
#include <public/dyntrace.h>

#include "ring.h"

/*
 * The harness's record is the function tracer's (public/dyntrace.h), filled
 * the same way into a slot reserved from ring.c.
 */

#define NCPUS           4       /* present CPUs */
#define BOOT_CPUS       3       /* online at boot */
#define NREADERS        2
#define NCONSUMERS      2       /* consuming readers (trace_pipe) */
/* Readers, consumers, a clearer, a toggler, hotplug, NMIs. */
#define NWORKERS        (NREADERS + NCONSUMERS + 4)
#define MAX_DEPTH       4       /* an outer writer and up to 3 nested ones */
#define GENS            512     /* clear generations tracked per round */
#define ROUND_MS        150
#define BURST           64
#define STALL_SECONDS   60
#define REC_SIZE        32
#define ID_MASK         ((1ULL << 56) - 1)
#define SEQ_SHIFT       24

_Static_assert(sizeof(struct xen_dyntrace_record) == REC_SIZE,
               "32-byte records");
_Static_assert(NCPUS <= NR_CPUS, "NR_CPUS");

#define LOAD(p)         __atomic_load_n(p, __ATOMIC_SEQ_CST)
#define STORE(p, v)     __atomic_store_n(p, v, __ATOMIC_SEQ_CST)
#define LOAD_ACQ(p)     __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define STORE_REL(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define INC(p)          __atomic_fetch_add(p, 1, __ATOMIC_RELAXED)
#define READ(p)         __atomic_load_n(p, __ATOMIC_RELAXED)

enum check {
    CK_TORN,
    CK_ORDER,
    CK_COUNT,
    CK_CLEAR,
    CK_WRITTEN,
    CK_DROPPED,
    CK_OFF,
    CK_CPUS,
    CK_ASSERT,
    CK_PROGRESS,
    CK_PIPE,
    CK_ANCHOR,
    CK_NR
};

static const char *const check_name[CK_NR] = {
    [CK_TORN] = "no torn record; no nested writer gets a buffer being written",
    [CK_ORDER] = "records of each CPU in strictly increasing, gap-free sequence",
    [CK_COUNT] = "records = min(written - consumed, size) and bytes = "
                 "records * 32",
    [CK_CLEAR] = "no record from before the last completed clear; a clear "
                 "empties every buffer, offline CPUs' too",
    [CK_WRITTEN] = "accepted events = written (exact when quiescent, "
                   "bounded across clears)",
    [CK_DROPPED] = "calls while on = written + dropped (exact when "
                   "quiescent, bounded across clears and switches)",
    [CK_OFF] = "nothing accepted while off, before CPU_STARTING or after "
               "CPU_DYING, or after set_on(false) returned",
    [CK_CPUS] = "snapshot lists every CPU owning a buffer, online or not",
    [CK_ASSERT] = "ring.c assertions and return codes",
    [CK_PROGRESS] = "every operation completes (no deadlock, bounded holds)",
    [CK_ANCHOR] = "clock anchors copied whole and in order (held copies and "
                  "consuming reads), the first record's among a held "
                  "copy's (B14)",
    [CK_PIPE] = "consuming reads: each record consumed at most once, in "
                "sequence; a commit starts where the last one ended (or at 0 "
                "after a clear); losses cover every record skipped",
};

static unsigned long anomalies[CK_NR];
static unsigned long anomaly_lines;

enum { CMD_NONE, CMD_UP, CMD_DOWN };

struct cpu_state {
    unsigned int cpu;
    pthread_t thread;
    pthread_mutex_t m;
    pthread_cond_t cv;
    int cmd;                    /* under m */
    bool online, parked;        /* under m */
    bool has_ring;              /* set by hotplug, maps held for writing */
    /* Written by the CPU's thread (and its signal handler). */
    uint64_t next_id;
    uint64_t acc;               /* records accepted (release) */
    uint64_t calls, nested, nested_accepted, pairs;
    /* Per round; reset by main while everything is parked. */
    uint64_t r_ready;           /* ready calls */
    uint64_t r_acc;             /* ... accepted */
    uint64_t r_off;             /* ... not accepted, surely off */
    uint64_t r_sure[GENS];      /* ... not accepted, surely on: by clear gen */
    uint64_t r_maybe[GENS];     /* ... not accepted, not surely off: by gen
                                   after the call */
};

static struct cpu_state cpus[NCPUS];

/* Harness state shared between threads (seq_cst unless said otherwise). */
static uint64_t clear_gen, toggle_gen;
static bool harness_on;
static uint64_t round_base;             /* clear gen at the round's start */
static uint64_t floor_acc[NCPUS];       /* release/acquire */
static unsigned int nr_buffers;         /* release/acquire */
static int pause_workers, pause_cpus, stop_all;
static bool round_chaos;
static int main_phase;
static uint64_t main_progress;

static pthread_mutex_t park_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t park_cv = PTHREAD_COND_INITIALIZER;
static unsigned int nr_parked;

/* The round's last successful clear (clearer; main reads it parked). */
static uint64_t last_clear_gen, last_lo[NCPUS], last_hi[NCPUS];

static uint64_t n_snapshots, n_snap_busy, n_snap_nomem, n_clears, n_clear_busy;
/*
 * Resizes (dt_rings_resize: a clear with a new size), made by the clearer in
 * place of a clear one time in three.  resize_gen is odd while one runs; a
 * snapshot that overlaps one may hold fewer records than min(written, its
 * allocation), never more.
 */
static uint64_t n_resizes, n_resize_nomem, resize_gen;
#ifdef DYNTRACE_WITH_BUFFERS
/*
 * Consuming reads (consumer_thread): commits serialised by pipe_m, so that
 * the harness's view of each buffer's read position follows ring.c's.
 */
static pthread_mutex_t pipe_m = PTHREAD_MUTEX_INITIALIZER;
static unsigned int pipe_resets[NCPUS];
static uint64_t pipe_read[NCPUS], pipe_last_seq[NCPUS];
#endif
static uint64_t n_pipe_reads, n_pipe_again, n_pipe_busy, n_pipe_records;
static uint64_t n_pipe_lost;
static uint64_t n_toggles, n_toggle_busy, n_hotplug, n_nmis, n_rounds;
static uint64_t n_exact_rounds, n_nested_at[STUB_AT_NR], n_buffers_checked;
static uint64_t n_anchors_checked;
static uint64_t n_off_checks, n_alloc_fail_up;
static uint64_t worker_progress[NWORKERS];

static uint64_t seed;
static double t_start;

/* Per thread. */
static __thread uint64_t t_rng;
static __thread struct cpu_state *t_cs;
static __thread bool t_running, t_ready;
static __thread unsigned int t_depth;
static __thread uint64_t t_id[MAX_DEPTH];
static __thread bool t_accepted[MAX_DEPTH];
static __thread struct vcpu t_vcpu[MAX_DEPTH];
static __thread struct domain t_dom[MAX_DEPTH];

__thread unsigned int stub_cpu;
__thread int stub_inject_at;
__thread unsigned int stub_irq_count, stub_nmi_count, stub_mce_count;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd(void)
{
    uint64_t x = t_rng;

    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    t_rng = x;
    return x * 0x2545f4914f6cdd1dULL;
}

static void seed_thread(unsigned int n)
{
    t_rng = (seed + 1) * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)n << 32) ^ n;
    if ( !t_rng )
        t_rng = 1;
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void nap_us(unsigned int us)
{
    struct timespec ts = { .tv_sec = us / 1000000,
                           .tv_nsec = (us % 1000000) * 1000L };

    nanosleep(&ts, NULL);
}

/* Also called from the signal handler: snprintf + write only. */
static void __attribute__((format(printf, 2, 3)))
anomaly(enum check ck, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    int n;

    __atomic_fetch_add(&anomalies[ck], 1, __ATOMIC_RELAXED);
    if ( __atomic_fetch_add(&anomaly_lines, 1, __ATOMIC_RELAXED) >= 25 )
        return;
    n = snprintf(buf, sizeof(buf), "# ANOMALY (check %d): ", ck + 1);
    va_start(ap, fmt);
    n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
    va_end(ap);
    if ( n > (int)sizeof(buf) - 2 )
        n = sizeof(buf) - 2;
    buf[n++] = '\n';
    if ( write(STDOUT_FILENO, buf, n) < 0 )
        return;
}

void stub_assert_failed(const char *expr, const char *file, int line)
{
    anomaly(CK_ASSERT, "ASSERT(%s) failed at %s:%d", expr, file, line);
}

/* ---- The writer side: one record call, with its accounting. ---- */

static void write_one(void);

/*
 * Fill a reserved slot as function.c's callback does, for the call at
 * t_depth - 1.  in_irq(), NOW() and current are interrupt points of the
 * stubs, as smp_processor_id() (in dt_ring_reserve) and smp_wmb()/smp_mb()
 * (in dt_ring_commit and dt_ring_next) are.
 */
static void fill(struct dt_ring *r, struct xen_dyntrace_record *rec,
                 unsigned int cpu, unsigned long ip, unsigned long parent_ip,
                 unsigned int flags)
{
    const struct vcpu *v;

    if ( in_irq() )
        flags |= XEN_DYNTRACE_FLAG_IN_IRQ;
    if ( in_nmi_handler() || in_mce_handler() )
        flags |= XEN_DYNTRACE_FLAG_IN_NMI;

    rec->ts = NOW();
    rec->ip = ip;
    rec->parent_ip = parent_ip;
    v = current;
    rec->domid = v->domain->domain_id;
    rec->vcpu = v->vcpu_id;
    rec->cpu = cpu;
    rec->flags = flags;
    rec->depth = 0;
    /*
     * A clock anchor for this record's stamp, as function.c takes one for
     * sparse records (B14), so that the anchors wrap as fast as the
     * records; the stamps of this CPU's writers outside NMI grow.
     */
    if ( !(flags & XEN_DYNTRACE_FLAG_IN_NMI) )
        dt_ring_anchor(r, rec->ts);
}

#ifdef DYNTRACE_WITH_GRAPH
/*
 * A call of its own (for the accounting) that the call at depth d makes
 * inside its reservation, before its own record, as function_graph
 * writes a pending entry record before a return's (dt_ring_next()): one
 * more attempt id, with the flags of the same context (exp), accepted as
 * surely as the reservation was.
 */
static void first_of_pair(struct dt_ring *r, struct xen_dyntrace_record *rec,
                          unsigned int cpu, unsigned int d, unsigned int fl,
                          unsigned int exp)
{
    struct cpu_state *cs = t_cs;
    uint64_t id, ip;
    bool stamped;

    /* Its depth first: an NMI signal from now on nests above it. */
    t_depth = d + 2;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    id = (__atomic_fetch_add(&cs->next_id, 1, __ATOMIC_RELAXED) << 3 | exp) &
         ID_MASK;
    ip = (uint64_t)cs->cpu << 56 | id;
    t_id[d + 1] = id;
    t_accepted[d + 1] = false;
    t_dom[d + 1].domain_id = id & 0xffff;
    t_vcpu[d + 1].vcpu_id = (id >> 16) & 0xffff;
    t_vcpu[d + 1].domain = &t_dom[d + 1];
    INC(&cs->calls);
    INC(&cs->nested);
    INC(&cs->pairs);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);

    fill(r, rec, cpu, ip, mix(ip), fl);

    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    /* Before an NMI signal may reuse the slot. */
    stamped = t_accepted[d + 1];
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t_depth = d + 1;
    if ( !stamped )
        anomaly(CK_ASSERT, "the first record of a pair took no stamp");
    INC(&cs->nested_accepted);
    if ( t_ready )
    {
        INC(&cs->r_ready);
        INC(&cs->r_acc);
    }
}
#endif

/*
 * What function.c's callback does: reserve, fill, commit.  pair: as
 * function_graph's return may, first another call's record in the same
 * reservation (first_of_pair(), dt_ring_next()), then this one's.
 */
static void record(unsigned long ip, unsigned long parent_ip,
                   unsigned int flags, bool pair, unsigned int exp)
{
    struct xen_dyntrace_record *rec;
    struct dt_ring *r;
    unsigned int cpu;

    rec = dt_ring_reserve(&r, &cpu, sizeof(*rec));
    if ( !rec )
        return;
#ifdef DYNTRACE_WITH_GRAPH
    if ( pair )
    {
        first_of_pair(r, rec, cpu, t_depth - 1, flags, exp);
        rec = dt_ring_next(r, sizeof(*rec));
    }
#endif
    fill(r, rec, cpu, ip, parent_ip, flags);

    dt_ring_commit(r);
}

const struct vcpu *stub_current(void)
{
    return &t_vcpu[t_depth - 1];
}

int64_t stub_now(void)
{
    uint64_t seq;

    stub_point(STUB_AT_NOW);
    if ( !t_cs || !t_depth )
    {
        anomaly(CK_ASSERT, "NOW() outside a write");
        return 0;
    }
    seq = __atomic_add_fetch(&t_cs->acc, 1, __ATOMIC_RELEASE);
    if ( t_accepted[t_depth - 1] )
        anomaly(CK_ASSERT, "NOW() twice in one write");
    t_accepted[t_depth - 1] = true;

    return (int64_t)(seq << SEQ_SHIFT | (t_id[t_depth - 1] & 0xffffff));
}

/* An interrupt arriving at point 'at' of the write in progress. */
void stub_interrupt(enum stub_point at)
{
    bool nmi;

    stub_inject_at = STUB_AT_NONE;
    if ( !t_cs || !t_depth || t_depth >= MAX_DEPTH )
        return;
    INC(&n_nested_at[at]);
    nmi = rnd() & 1;
    if ( nmi )
        stub_nmi_count++;
    else
        stub_mce_count++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    write_one();
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if ( nmi )
        stub_nmi_count--;
    else
        stub_mce_count--;
}

static void write_one(void)
{
    struct cpu_state *cs = t_cs;
    unsigned int d = t_depth, fl, exp;
    uint64_t id, ip, cg1, cg2, tg1, tg2;
    bool on1, irq = false, counted, stable_t, pair;

    if ( d >= MAX_DEPTH )
        return;
    t_depth = d + 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);

    if ( d == 0 && rnd() % 8 == 0 )
    {
        irq = true;             /* called from an IRQ handler */
        stub_irq_count++;
    }
    fl = (rnd() & 1) ? XEN_DYNTRACE_FLAG_IRQS_OFF : 0;
    exp = fl | (stub_irq_count ? XEN_DYNTRACE_FLAG_IN_IRQ : 0) |
          (stub_nmi_count || stub_mce_count ? XEN_DYNTRACE_FLAG_IN_NMI : 0);
    id = (__atomic_fetch_add(&cs->next_id, 1, __ATOMIC_RELAXED) << 3 | exp) &
         ID_MASK;
    ip = (uint64_t)cs->cpu << 56 | id;
    t_id[d] = id;
    t_accepted[d] = false;
    t_dom[d].domain_id = id & 0xffff;
    t_vcpu[d].vcpu_id = (id >> 16) & 0xffff;
    t_vcpu[d].domain = &t_dom[d];
    INC(&cs->calls);
    if ( d )
        INC(&cs->nested);

    /* Arm an interrupt point for this write, or not. */
    stub_inject_at = STUB_AT_NONE;
    if ( d + 1 < MAX_DEPTH && rnd() % 100 < (d ? 10 : 30) )
        stub_inject_at = 1 + rnd() % (STUB_AT_NR - 1);

    cg1 = LOAD(&clear_gen);
    tg1 = LOAD(&toggle_gen);
    on1 = LOAD(&harness_on);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);

    /* Some outer calls write a pair (d + 2: room for the first's NMI). */
    pair = d + 2 < MAX_DEPTH && rnd() % 8 == 0;
    record(ip, mix(ip), fl, pair, exp);

    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    stub_inject_at = STUB_AT_NONE;
    tg2 = LOAD(&toggle_gen);
    cg2 = LOAD(&clear_gen);

    counted = t_ready;
    stable_t = tg1 == tg2 && !(tg1 & 1);
    if ( t_accepted[d] )
    {
        if ( !counted )
            anomaly(CK_OFF, "CPU%u accepted a record while not ready "
                    "(before CPU_STARTING/after CPU_DYING/no buffer)", cs->cpu);
        if ( stable_t && !on1 )
            anomaly(CK_OFF, "CPU%u accepted a record while recording was off",
                    cs->cpu);
        if ( d )
            INC(&cs->nested_accepted);
        if ( counted )
        {
            INC(&cs->r_ready);
            INC(&cs->r_acc);
        }
    }
    else if ( counted )
    {
        INC(&cs->r_ready);
        if ( stable_t && !on1 )
            INC(&cs->r_off);
        else
        {
            INC(&cs->r_maybe[cg2 - round_base]);
            if ( stable_t && cg1 == cg2 && !(cg1 & 1) )
                INC(&cs->r_sure[cg1 - round_base]);
        }
    }

    if ( irq )
        stub_irq_count--;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t_depth = d;
}

/* The NMI source's signal: a writer wherever this CPU's thread was. */
static void nmi_handler(int sig)
{
    int saved_errno = errno, saved_inject = stub_inject_at;

    (void)sig;
    if ( !t_running || !t_cs || t_depth >= MAX_DEPTH )
        return;
    stub_inject_at = STUB_AT_NONE;
    stub_nmi_count++;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    write_one();
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    stub_nmi_count--;
    stub_inject_at = saved_inject;
    errno = saved_errno;
}

static void block_nmi(sigset_t *old)
{
    sigset_t set;

    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

/* AP side of cpu_up(): runs after CPU_UP_PREPARE, on the CPU itself. */
static void cpu_boot(struct cpu_state *cs)
{
    sigset_t old;
    unsigned int i;

    t_ready = false;
    t_running = true;
    for ( i = 0; i < 8; i++ )
        write_one();            /* bring-up code, traced: must be ignored */
    block_nmi(&old);
    stub_cpu_notify(cs->cpu, CPU_STARTING);
    t_ready = LOAD(&cs->has_ring);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    for ( i = 0; i < 8; i++ )
        write_one();
    t_running = false;
}

/* Dying CPU's side of cpu_down() (take_cpu_down, then play_dead). */
static void cpu_die(struct cpu_state *cs)
{
    sigset_t old;
    unsigned int i;

    t_running = true;
    for ( i = 0; i < 8; i++ )
        write_one();
    block_nmi(&old);
    t_ready = false;
    stub_cpu_notify(cs->cpu, CPU_DYING);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    for ( i = 0; i < 8; i++ )
        write_one();            /* play_dead: must be ignored */
    t_running = false;
}

static void *cpu_thread(void *arg)
{
    struct cpu_state *cs = arg;
    unsigned int i;

    t_cs = cs;
    stub_cpu = cs->cpu;
    seed_thread(100 + cs->cpu);

    pthread_mutex_lock(&cs->m);
    /* Boot CPUs: dt_rings_init() marked their buffers ready. */
    t_ready = cs->online && LOAD(&cs->has_ring);
    for ( ;; )
    {
        if ( LOAD(&stop_all) )
            break;
        if ( cs->cmd == CMD_UP )
        {
            cs->cmd = CMD_NONE;
            pthread_mutex_unlock(&cs->m);
            cpu_boot(cs);
            pthread_mutex_lock(&cs->m);
            cs->online = true;
            pthread_cond_broadcast(&cs->cv);
            continue;
        }
        if ( cs->cmd == CMD_DOWN )
        {
            cs->cmd = CMD_NONE;
            pthread_mutex_unlock(&cs->m);
            cpu_die(cs);
            pthread_mutex_lock(&cs->m);
            cs->online = false;
            pthread_cond_broadcast(&cs->cv);
            continue;
        }
        if ( !cs->online || LOAD(&pause_cpus) )
        {
            cs->parked = true;
            pthread_cond_broadcast(&cs->cv);
            pthread_cond_wait(&cs->cv, &cs->m);
            cs->parked = false;
            continue;
        }
        pthread_mutex_unlock(&cs->m);

        t_running = true;
        for ( i = 0; i < BURST; i++ )
            write_one();
        t_running = false;
        sched_yield();

        pthread_mutex_lock(&cs->m);
    }
    cs->parked = true;
    pthread_cond_broadcast(&cs->cv);
    pthread_mutex_unlock(&cs->m);

    return NULL;
}

/* ---- Snapshot checks. ---- */

static bool cpu_online_now(unsigned int cpu)
{
    return (READ(&cpu_online_map.bits[0]) >> cpu) & 1;
}

static bool record_ok(const struct xen_dyntrace_record *r, unsigned int cpu)
{
    uint64_t ip = r->ip, id = ip & ID_MASK;

    return (ip >> 56) == cpu && r->cpu == cpu && r->parent_ip == mix(ip) &&
           r->domid == (id & 0xffff) && r->vcpu == ((id >> 16) & 0xffff) &&
           (r->ts & 0xffffff) == (id & 0xffffff) && r->flags == (id & 7) &&
           r->depth == 0 && (r->ts >> SEQ_SHIFT) != 0;
}

/*
 * A copy's anchors: each whole (ns = stamp * 3 + 1), stamps increasing; in a
 * held copy, the first record's own among them (every record outside NMI
 * takes one, and a buffer keeps as many anchors as records).  A consuming
 * read's copy may miss it when the writer is overwriting the oldest anchors
 * while the copy searches them (design.md B14).
 */
static void check_anchors(const struct dt_ring_copy *c, const char *who,
                          bool held)
{
    const struct xen_dyntrace_record *first = c->recs;
    unsigned int j;
    bool found = false;

    for ( j = 0; j < c->nr_anchors; j++ )
        found |= c->anchors[j].stamp == first->ts;
    if ( held && c->nr && record_ok(first, c->cpu) &&
         !(first->flags & XEN_DYNTRACE_FLAG_IN_NMI) && !found )
        anomaly(CK_ANCHOR, "%s: CPU%u: the anchor of the first record (stamp %"
                PRIu64 ") is not in the copy (%u anchors)", who, c->cpu,
                first->ts, c->nr_anchors);

    /* At most as many as the copy was allocated for. */
    if ( c->nr_anchors > stub_alloc_size(c->anchors) / sizeof(*c->anchors) )
        anomaly(CK_ANCHOR, "%s: CPU%u %u anchors", who, c->cpu, c->nr_anchors);
    for ( j = 0; j < c->nr_anchors; j++ )
        if ( c->anchors[j].ns != (s_time_t)(c->anchors[j].stamp * 3 + 1) ||
             (j && c->anchors[j].stamp <= c->anchors[j - 1].stamp) )
        {
            anomaly(CK_ANCHOR, "%s: CPU%u anchor %u/%u torn or out of order: "
                    "stamp %" PRIu64 " ns %" PRId64, who, c->cpu, j,
                    c->nr_anchors, c->anchors[j].stamp, c->anchors[j].ns);
            break;
        }
    INC(&n_anchors_checked);
}

static void check_snapshot(const struct dt_ring_snapshot *s, const char *who,
                           const uint64_t *acc_before, const uint64_t *acc_after,
                           const uint64_t *floor, unsigned int nb_lo,
                           unsigned int nb_hi, bool resized)
{
    unsigned int i, j;
    int prev = -1;

    if ( s->nr_present != NCPUS )
        anomaly(CK_CPUS, "%s: nr_present %u, want %u", who, s->nr_present,
                NCPUS);
    if ( s->nr_cpus < nb_lo || s->nr_cpus > nb_hi )
        anomaly(CK_CPUS, "%s: %u buffers listed, CPUs owning one: %u..%u",
                who, s->nr_cpus, nb_lo, nb_hi);

    for ( i = 0; i < s->nr_cpus; i++ )
    {
        const struct dt_ring_copy *c = &s->cpu[i];
        const struct xen_dyntrace_record *recs = c->recs;
        unsigned int k = c->cpu;
        size_t size_bytes = stub_alloc_size(c->recs);
        uint64_t size = size_bytes / REC_SIZE, bytes, first = 0, last = 0;
        uint64_t avail;
        bool intact = true, ordered = true;

        if ( k >= NCPUS || (int)k <= prev )
        {
            anomaly(CK_CPUS, "%s: bad CPU list entry %u", who, k);
            continue;
        }
        prev = k;
        check_anchors(c, who, true);

#ifdef DYNTRACE_WITH_BUFFERS
        /* What is not yet consumed: at most the buffer's size. */
        avail = c->written - c->read_at;
        bytes = (uint64_t)c->nr * s->rec_size;
        if ( !size || size_bytes % REC_SIZE || c->read_at > c->written ||
#else
        /* What was written: at most the buffer's size. */
        avail = c->written;
        bytes = (uint64_t)c->nr * s->rec_size;
        if ( !size || size_bytes % REC_SIZE ||
#endif
             (resized ? c->nr > (avail < size ? avail : size)
                      : c->nr != (avail < size ? avail : size)) ||
             bytes != (uint64_t)c->nr * REC_SIZE || bytes > size_bytes )
            anomaly(CK_COUNT, "%s: CPU%u nr %u written %" PRIu64 " size %"
                    PRIu64 " bytes %" PRIu64, who, k, c->nr, c->written, size,
                    bytes);

        for ( j = 0; j < c->nr; j++ )
        {
            const struct xen_dyntrace_record *r = &recs[j];
            uint64_t seq = r->ts >> SEQ_SHIFT;

            if ( !record_ok(r, k) )
            {
                if ( intact )
                    anomaly(CK_TORN, "%s: CPU%u record %u/%u torn: ts %#"
                            PRIx64 " ip %#lx parent %#lx dom %u vcpu %u cpu %u"
                            " flags %u", who, k, j, c->nr, r->ts, r->ip,
                            r->parent_ip, r->domid, r->vcpu, r->cpu, r->flags);
                intact = false;
                continue;
            }
            if ( j && seq != last + 1 && ordered )
            {
                anomaly(CK_ORDER, "%s: CPU%u record %u: seq %" PRIu64
                        " after %" PRIu64, who, k, j, seq, last);
                ordered = false;
            }
            if ( !j )
                first = seq;
            last = seq;
        }
        INC(&n_buffers_checked);

        if ( !c->nr || !intact )
            continue;
        if ( last < acc_before[k] || last > acc_after[k] )
            anomaly(CK_WRITTEN, "%s: CPU%u newest seq %" PRIu64
                    " outside accepted [%" PRIu64 ", %" PRIu64 "]", who, k,
                    last, acc_before[k], acc_after[k]);
        if ( c->written > last )
            anomaly(CK_WRITTEN, "%s: CPU%u written %" PRIu64
                    " > records ever accepted %" PRIu64, who, k, c->written,
                    last);
        else if ( first <= floor[k] || last - c->written < floor[k] )
            anomaly(CK_CLEAR, "%s: CPU%u (%s) holds seq %" PRIu64 "..%" PRIu64
                    " written %" PRIu64 ", but the last clear dropped all "
                    "up to %" PRIu64, who, k,
                    cpu_online_now(k) ? "online" : "offline",
                    first, last, c->written, floor[k]);
    }
}

static void read_accs(uint64_t *acc)
{
    unsigned int k;

    for ( k = 0; k < NCPUS; k++ )
        acc[k] = LOAD_ACQ(&cpus[k].acc);
}

/*
 * Snapshot and check it.  Returns ring.c's rc; *out gets the snapshot (to
 * free) if out is not NULL.
 */
static int checked_snapshot(const char *who, bool inject,
                            struct dt_ring_snapshot **out)
{
    uint64_t before[NCPUS], after[NCPUS], floor[NCPUS], rg;
    struct dt_ring_snapshot *s = NULL;
    unsigned int k, nb_lo, nb_hi;
    bool hit;
    int rc;

    rg = LOAD(&resize_gen);
    nb_lo = LOAD_ACQ(&nr_buffers);
    for ( k = 0; k < NCPUS; k++ )
        floor[k] = LOAD_ACQ(&floor_acc[k]);
    read_accs(before);

    if ( inject )
        stub_alloc_fail_in = 1 + rnd() % (NCPUS + 1);
#ifdef DYNTRACE_WITH_BUFFERS
    rc = dt_rings_snapshot(&s, -1, 0);
#else
    rc = dt_rings_snapshot(&s);
#endif
    hit = inject && !stub_alloc_fail_in;
    stub_alloc_fail_in = 0;

    if ( rc == -EBUSY )
        INC(&n_snap_busy);
    else if ( rc == -ENOMEM && hit )
        INC(&n_snap_nomem);
    else if ( rc )
        anomaly(CK_ASSERT, "%s: dt_rings_snapshot returned %d", who, rc);
    else
    {
        read_accs(after);
        nb_hi = LOAD_ACQ(&nr_buffers);
        INC(&n_snapshots);
        check_snapshot(s, who, before, after, floor, nb_lo, nb_hi,
                       (rg & 1) || LOAD(&resize_gen) != rg);
        if ( out )
        {
            *out = s;
            return 0;
        }
        dt_rings_free_snapshot(s);
    }

    return rc;
}

/* ---- Holders and hotplug. ---- */

/* Park at a quiescent point when asked; false when the run is over. */
static bool worker_continue(unsigned int w)
{
    INC(&worker_progress[w]);
    if ( !LOAD(&pause_workers) )
        return !LOAD(&stop_all);

    pthread_mutex_lock(&park_m);
    nr_parked++;
    pthread_cond_broadcast(&park_cv);
    while ( LOAD(&pause_workers) && !LOAD(&stop_all) )
        pthread_cond_wait(&park_cv, &park_m);
    nr_parked--;
    pthread_mutex_unlock(&park_m);

    return !LOAD(&stop_all);
}

static void *reader_thread(void *arg)
{
    unsigned int w = (unsigned long)arg;

    seed_thread(200 + w);
    while ( worker_continue(w) )
    {
        nap_us(rnd() % 400);
        checked_snapshot(w ? "reader1" : "reader0", rnd() % 20 == 0, NULL);
    }

    return NULL;
}

#ifdef DYNTRACE_WITH_BUFFERS
/*
 * A consuming read (trace_pipe, per_cpu/cpuN/trace_pipe_raw): a capped
 * snapshot of the oldest records not consumed, of every buffer or one;
 * a random number of them "returned", then committed.  Two consumers race,
 * so commits also fail (-EAGAIN) when the other consumed first.
 */
static void consume_one(void)
{
    int only = rnd() % 3 ? -1 : (int)(rnd() % NCPUS);
    struct dt_ring_snapshot *s = NULL;
    unsigned int i, j;
    int rc;

    rc = dt_rings_snapshot(&s, only, 1 + rnd() % 64);
    if ( rc == -EBUSY || (rc == -ENOENT && only >= 0) )
    {
        INC(&n_pipe_busy);
        return;
    }
    if ( rc )
    {
        anomaly(CK_ASSERT, "consumer: dt_rings_snapshot returned %d", rc);
        return;
    }

    for ( i = 0; i < s->nr_cpus; i++ )
    {
        struct dt_ring_copy *c = &s->cpu[i];
        const struct xen_dyntrace_record *recs = c->recs;

        check_anchors(c, "consumer", false);
        for ( j = 0; j < c->nr; j++ )
            if ( !record_ok(&recs[j], c->cpu) ||
                 (j && recs[j].ts >> SEQ_SHIFT !=
                       (recs[j - 1].ts >> SEQ_SHIFT) + 1) )
            {
                anomaly(CK_PIPE, "consumer: CPU%u record %u/%u torn or out "
                        "of sequence", c->cpu, j, c->nr);
                break;
            }
        if ( c->first < c->read_at || c->lost < c->first - c->read_at )
            anomaly(CK_PIPE, "consumer: CPU%u first %" PRIu64 " read %"
                    PRIu64 " lost %" PRIu64, c->cpu, c->first, c->read_at,
                    c->lost);
        c->take = c->nr ? rnd() % (c->nr + 1) : 0;
    }

    pthread_mutex_lock(&pipe_m);
    rc = dt_rings_consume(s, true);
    if ( rc == -EAGAIN )
        INC(&n_pipe_again);
    else if ( rc )
        anomaly(CK_ASSERT, "consumer: dt_rings_consume returned %d", rc);
    else
    {
        INC(&n_pipe_reads);
        for ( i = 0; i < s->nr_cpus; i++ )
        {
            const struct dt_ring_copy *c = &s->cpu[i];
            const struct xen_dyntrace_record *recs = c->recs;
            unsigned int k = c->cpu;

            if ( c->resets != pipe_resets[k] )
            {
                /* Cleared or resized since: consumption starts again. */
                if ( c->read_at )
                    anomaly(CK_PIPE, "consumer: CPU%u first commit after a "
                            "clear starts at %" PRIu64, k, c->read_at);
                pipe_resets[k] = c->resets;
                pipe_last_seq[k] = 0;
            }
            else if ( c->read_at != pipe_read[k] )
                anomaly(CK_PIPE, "consumer: CPU%u commit from %" PRIu64
                        ", the last one ended at %" PRIu64 " (records %s)",
                        k, c->read_at, pipe_read[k],
                        c->read_at < pipe_read[k] ? "consumed twice"
                                                  : "skipped");
            else if ( c->nr && pipe_last_seq[k] &&
                      recs[0].ts >> SEQ_SHIFT !=
                      pipe_last_seq[k] + c->first - c->read_at + 1 )
                anomaly(CK_PIPE, "consumer: CPU%u seq %" PRIu64 " after %"
                        PRIu64 " with %" PRIu64 " overwritten", k,
                        (uint64_t)(recs[0].ts >> SEQ_SHIFT), pipe_last_seq[k],
                        c->first - c->read_at);
            pipe_read[k] = c->first + c->take;
            pipe_last_seq[k] = c->take ? recs[c->take - 1].ts >> SEQ_SHIFT
                               : c->nr ? (recs[0].ts >> SEQ_SHIFT) - 1
                                       : 0;
            n_pipe_records += c->take;
            n_pipe_lost += c->lost;
        }
    }
    pthread_mutex_unlock(&pipe_m);

    dt_rings_free_snapshot(s);
}

static void *consumer_thread(void *arg)
{
    unsigned int w = (unsigned long)arg;

    seed_thread(250 + w);
    while ( worker_continue(w) )
    {
        nap_us(rnd() % 300);
        consume_one();
    }

    return NULL;
}
#endif

/* On/off, bracketed by the toggle generation (odd while switching). */
static int toggle(bool on)
{
    bool old = LOAD(&harness_on);
    int rc;

    __atomic_fetch_add(&toggle_gen, 1, __ATOMIC_SEQ_CST);
    rc = dt_rings_set_on(on, on);
    STORE(&harness_on, rc ? old : on);
    __atomic_fetch_add(&toggle_gen, 1, __ATOMIC_SEQ_CST);

    if ( rc == -EBUSY )
        INC(&n_toggle_busy);
    else if ( rc )
        anomaly(CK_ASSERT, "dt_rings_set_on returned %d", rc);
    else
        INC(&n_toggles);

    return rc;
}

static void *toggler_thread(void *arg)
{
    unsigned int w = (unsigned long)arg, k;
    uint64_t a1[NCPUS], a2[NCPUS];

    seed_thread(300);
    while ( worker_continue(w) )
    {
        bool on;

        nap_us(200 + rnd() % 2500);
        if ( !LOAD(&round_chaos) )
            continue;
        on = !LOAD(&harness_on);
        if ( toggle(on) || on )
            continue;

        /* tracing_on 0 returned: no write may be in progress or start. */
        read_accs(a1);
        nap_us(100 + rnd() % 400);
        read_accs(a2);
        INC(&n_off_checks);
        for ( k = 0; k < NCPUS; k++ )
            if ( a2[k] != a1[k] )
                anomaly(CK_OFF, "CPU%u accepted %" PRIu64 " records after "
                        "dt_rings_set_on(false) returned", k, a2[k] - a1[k]);
    }

    return NULL;
}

static void *clearer_thread(void *arg)
{
    unsigned int w = (unsigned long)arg, k;
    uint64_t pre[NCPUS], post[NCPUS], g;
    bool resize;
    int rc;

    seed_thread(400);
    while ( worker_continue(w) )
    {
        nap_us(200 + rnd() % 2500);
        if ( !LOAD(&round_chaos) || LOAD(&clear_gen) - round_base + 3 >= GENS )
            continue;

#ifdef DYNTRACE_WITH_BUFFERS
        resize = !(rnd() % 3);
#else
        resize = false;         /* The first series has no resize. */
#endif
        read_accs(pre);
        __atomic_fetch_add(&clear_gen, 1, __ATOMIC_SEQ_CST);
#ifdef DYNTRACE_WITH_BUFFERS
        if ( resize )
        {
            static const unsigned int kb[] = { 1, 4, 16, 64 };

            __atomic_fetch_add(&resize_gen, 1, __ATOMIC_SEQ_CST);
            rc = dt_rings_resize(kb[rnd() % 4]);
            __atomic_fetch_add(&resize_gen, 1, __ATOMIC_SEQ_CST);
        }
        else
#endif
            rc = dt_rings_clear();
        read_accs(post);
        g = __atomic_add_fetch(&clear_gen, 1, __ATOMIC_SEQ_CST);

        if ( rc == -EBUSY )
        {
            INC(&n_clear_busy);
            continue;
        }
        /* Allocation failures injected for others can hit a resize. */
        if ( rc == -ENOMEM && resize )
        {
            INC(&n_resize_nomem);
            continue;
        }
        if ( rc )
        {
            anomaly(CK_ASSERT, "dt_rings_%s returned %d",
                    resize ? "resize" : "clear", rc);
            continue;
        }
        INC(resize ? &n_resizes : &n_clears);
        last_clear_gen = g;
        for ( k = 0; k < NCPUS; k++ )
        {
            last_lo[k] = pre[k];
            last_hi[k] = post[k];
            STORE_REL(&floor_acc[k], pre[k]);
        }
    }

    return NULL;
}

static bool cpu_is_online(struct cpu_state *cs)
{
    bool on;

    pthread_mutex_lock(&cs->m);
    on = cs->online;
    pthread_mutex_unlock(&cs->m);

    return on;
}

/* cpu_up(): maps held for writing from CPU_UP_PREPARE to CPU_ONLINE. */
static void hotplug_up(struct cpu_state *cs)
{
    bool had = LOAD(&cs->has_ring), fail = !had && rnd() % 2;
    int rc;

    cpu_hotplug_begin();
    if ( fail )
        stub_alloc_fail_in = 1;
    rc = stub_cpu_notify(cs->cpu, CPU_UP_PREPARE);
    if ( fail && stub_alloc_fail_in )
        anomaly(CK_ASSERT, "CPU_UP_PREPARE allocated nothing");
    stub_alloc_fail_in = 0;
    if ( rc != NOTIFY_DONE )
        anomaly(CK_ASSERT, "CPU_UP_PREPARE vetoed (%d)", rc);
    if ( fail )
        INC(&n_alloc_fail_up);
    if ( !had && !fail )
    {
        STORE(&cs->has_ring, true);
        __atomic_fetch_add(&nr_buffers, 1, __ATOMIC_RELEASE);
    }

    pthread_mutex_lock(&cs->m);
    cs->cmd = CMD_UP;
    pthread_cond_broadcast(&cs->cv);
    while ( !cs->online )
        pthread_cond_wait(&cs->cv, &cs->m);
    pthread_mutex_unlock(&cs->m);

    cpumask_set_cpu(cs->cpu, &cpu_online_map);
    stub_cpu_notify(cs->cpu, CPU_ONLINE);
    cpu_hotplug_done();
}

/* cpu_down(): CPU_DOWN_PREPARE, CPU_DYING on the CPU, CPU_DEAD. */
static void hotplug_down(struct cpu_state *cs)
{
    cpu_hotplug_begin();
    stub_cpu_notify(cs->cpu, CPU_DOWN_PREPARE);

    pthread_mutex_lock(&cs->m);
    cs->cmd = CMD_DOWN;
    pthread_cond_broadcast(&cs->cv);
    while ( cs->online )
        pthread_cond_wait(&cs->cv, &cs->m);
    pthread_mutex_unlock(&cs->m);

    cpumask_clear_cpu(cs->cpu, &cpu_online_map);
    stub_cpu_notify(cs->cpu, CPU_DEAD);
    cpu_hotplug_done();
}

static void *hotplug_thread(void *arg)
{
    unsigned int w = (unsigned long)arg;

    seed_thread(500);
    while ( worker_continue(w) )
    {
        struct cpu_state *cs;

        nap_us(300 + rnd() % 3000);
        cs = &cpus[1 + rnd() % (NCPUS - 1)];       /* never CPU0 */
        if ( cpu_is_online(cs) )
            hotplug_down(cs);
        else
            hotplug_up(cs);
        INC(&n_hotplug);
    }

    return NULL;
}

static void *nmi_thread(void *arg)
{
    unsigned int w = (unsigned long)arg;

    seed_thread(600);
    while ( worker_continue(w) )
    {
        nap_us(20 + rnd() % 200);
        pthread_kill(cpus[rnd() % NCPUS].thread, SIGUSR1);
        INC(&n_nmis);
    }

    return NULL;
}

/* ---- Rounds. ---- */

static void pause_all(void)
{
    unsigned int k;

    STORE(&main_phase, 1);
    STORE(&pause_workers, 1);
    pthread_mutex_lock(&park_m);
    while ( nr_parked < NWORKERS )
        pthread_cond_wait(&park_cv, &park_m);
    pthread_mutex_unlock(&park_m);

    STORE(&main_phase, 2);
    STORE(&pause_cpus, 1);
    for ( k = 0; k < NCPUS; k++ )
    {
        pthread_mutex_lock(&cpus[k].m);
        while ( !cpus[k].parked )
            pthread_cond_wait(&cpus[k].cv, &cpus[k].m);
        pthread_mutex_unlock(&cpus[k].m);
    }
    STORE(&main_phase, 3);
    INC(&main_progress);
}

static void resume_all(void)
{
    unsigned int k;

    STORE(&pause_cpus, 0);
    for ( k = 0; k < NCPUS; k++ )
    {
        pthread_mutex_lock(&cpus[k].m);
        pthread_cond_broadcast(&cpus[k].cv);
        pthread_mutex_unlock(&cpus[k].m);
    }
    pthread_mutex_lock(&park_m);
    STORE(&pause_workers, 0);
    pthread_cond_broadcast(&park_cv);
    pthread_mutex_unlock(&park_m);
    STORE(&main_phase, 0);
}

enum round_type { EXACT_ON, EXACT_OFF, CHAOS };

static uint64_t acc0[NCPUS];

static void round_start(unsigned int r, enum round_type type)
{
    struct dt_ring_snapshot *s;
    unsigned int i, k;
    bool on;
    int rc = 0;

    /* The clear: as the user's, or as the tracer switch's (quiesced). */
    __atomic_fetch_add(&clear_gen, 1, __ATOMIC_SEQ_CST);
    if ( r % 3 == 1 )
    {
        if ( !get_cpu_maps() )
            anomaly(CK_ASSERT, "quiesced: CPU maps busy");
        else
        {
            dt_rings_reset_quiesced();
            put_cpu_maps();
        }
    }
    else
        rc = dt_rings_clear();
    round_base = __atomic_add_fetch(&clear_gen, 1, __ATOMIC_SEQ_CST);
    last_clear_gen = round_base;
    if ( rc )
        anomaly(CK_ASSERT, "quiescent dt_rings_clear returned %d", rc);

    on = type == EXACT_ON || (type == CHAOS && (rnd() & 1));
    if ( toggle(on) )
        anomaly(CK_ASSERT, "quiescent dt_rings_set_on failed");

    /* Every buffer, offline CPUs' included, is empty now. */
    for ( k = 0; k < NCPUS; k++ )
        acc0[k] = LOAD(&cpus[k].acc);
    if ( !checked_snapshot("round start", false, &s) )
    {
        if ( s->nr_cpus != LOAD(&nr_buffers) )
            anomaly(CK_CPUS, "round start: %u buffers listed, %u exist",
                    s->nr_cpus, LOAD(&nr_buffers));
        for ( i = 0; i < s->nr_cpus; i++ )
        {
            const struct dt_ring_copy *c = &s->cpu[i];

            if ( c->nr || c->written || c->dropped )
                anomaly(CK_CLEAR, "after a %s clear CPU%u (%s) holds %u "
                        "records, written %" PRIu64 " dropped %" PRIu64,
                        r % 3 == 1 ? "quiesced" : "", c->cpu,
                        cpu_online_now(c->cpu) ? "online" : "offline",
                        c->nr, c->written, c->dropped);
        }
        dt_rings_free_snapshot(s);
    }
    else
        anomaly(CK_ASSERT, "quiescent snapshot failed");

    for ( k = 0; k < NCPUS; k++ )
    {
        struct cpu_state *cs = &cpus[k];

        last_lo[k] = last_hi[k] = acc0[k];
        STORE_REL(&floor_acc[k], acc0[k]);
        cs->r_ready = cs->r_acc = cs->r_off = 0;
        memset(cs->r_sure, 0, sizeof(cs->r_sure));
        memset(cs->r_maybe, 0, sizeof(cs->r_maybe));
    }
    STORE(&round_chaos, type == CHAOS);
}

static void round_end(enum round_type type, uint64_t *tot_written,
                      uint64_t *tot_dropped)
{
    struct dt_ring_snapshot *s;
    uint64_t sum_on = 0, sum_wd = 0;
    unsigned int i;

    STORE(&round_chaos, false);
    if ( checked_snapshot("round end", false, &s) )
    {
        anomaly(CK_ASSERT, "quiescent snapshot failed");
        return;
    }

    for ( i = 0; i < s->nr_cpus; i++ )
    {
        const struct dt_ring_copy *c = &s->cpu[i];
        unsigned int k = c->cpu;
        struct cpu_state *cs = &cpus[k];
        uint64_t acc = LOAD(&cs->acc), lower = 0, upper = 0, g;
        uint64_t lo = last_lo[k], hi = last_hi[k], G = last_clear_gen;

        *tot_written += c->written;
        *tot_dropped += c->dropped;

        if ( cs->r_acc != acc - acc0[k] )
            anomaly(CK_WRITTEN, "CPU%u: %" PRIu64 " calls accepted, NOW() ran %"
                    PRIu64 " times", k, cs->r_acc, acc - acc0[k]);
        if ( c->written + hi < acc || c->written + lo > acc )
            anomaly(CK_WRITTEN, "CPU%u: written %" PRIu64 ", accepted since "
                    "the last clear %" PRIu64 "..%" PRIu64, k, c->written,
                    acc - hi, acc - lo);

        for ( g = G; g - round_base < GENS; g += 2 )
            lower += cs->r_sure[g - round_base];
        for ( g = G > round_base ? G - 1 : G; g - round_base < GENS; g++ )
            upper += cs->r_maybe[g - round_base];
        if ( c->dropped < lower || c->dropped > upper )
            anomaly(CK_DROPPED, "CPU%u: dropped %" PRIu64 ", calls refused "
                    "while on since the last clear %" PRIu64 "..%" PRIu64, k,
                    c->dropped, lower, upper);

        if ( type != CHAOS )
        {
            uint64_t on_calls = cs->r_ready - cs->r_off;

            if ( lower != upper )
                anomaly(CK_DROPPED, "CPU%u: ambiguous calls in a quiescent "
                        "round", k);
            if ( c->written != acc - acc0[k] )
                anomaly(CK_WRITTEN, "CPU%u: written %" PRIu64 " != accepted %"
                        PRIu64, k, c->written, acc - acc0[k]);
            if ( on_calls != c->written + c->dropped )
                anomaly(CK_DROPPED, "CPU%u: %" PRIu64 " calls while on, "
                        "written + dropped = %" PRIu64, k, on_calls,
                        c->written + c->dropped);
            if ( type == EXACT_OFF && (c->written || c->dropped) )
                anomaly(CK_OFF, "CPU%u: written %" PRIu64 " dropped %" PRIu64
                        " while off", k, c->written, c->dropped);
            sum_on += on_calls;
            sum_wd += c->written + c->dropped;
        }
    }
    /* The header: entries-written = sum(written + dropped). */
    if ( sum_on != sum_wd )
        anomaly(CK_DROPPED, "entries-written %" PRIu64 " != calls while on %"
                PRIu64, sum_wd, sum_on);
    dt_rings_free_snapshot(s);
}

static unsigned long total_anomalies(void)
{
    unsigned long n = 0;
    unsigned int i;

    for ( i = 0; i < CK_NR; i++ )
        n += READ(&anomalies[i]);

    return n;
}

static uint64_t total_ops(void)
{
    uint64_t ops = READ(&n_snapshots) + READ(&n_snap_busy) +
                   READ(&n_snap_nomem) + READ(&n_clears) +
                   READ(&n_resizes) + READ(&n_resize_nomem) +
                   READ(&n_clear_busy) + READ(&n_toggles) +
                   READ(&n_toggle_busy) + READ(&n_hotplug) +
                   READ(&n_pipe_reads) + READ(&n_pipe_again) +
                   READ(&n_pipe_busy);
    unsigned int k;

    for ( k = 0; k < NCPUS; k++ )
        ops += READ(&cpus[k].calls);

    return ops;
}

static void report(double secs)
{
    uint64_t calls = 0, nested = 0, nested_acc = 0, acc = 0, pairs = 0;
    unsigned int i;

    for ( i = 0; i < NCPUS; i++ )
    {
        calls += READ(&cpus[i].calls);
        pairs += READ(&cpus[i].pairs);
        nested += READ(&cpus[i].nested);
        nested_acc += READ(&cpus[i].nested_accepted);
        acc += READ(&cpus[i].acc);
    }
    printf("# seed %" PRIu64 ", %" PRIu64 " rounds (%" PRIu64 " quiescent-"
           "exact), %u CPUs, %u readers\n", seed, READ(&n_rounds),
#ifdef DYNTRACE_WITH_BUFFERS
           READ(&n_exact_rounds), NCPUS, NREADERS);
#else
           READ(&n_exact_rounds), NCPUS, NREADERS + NCONSUMERS);
#endif
    printf("# writes: %" PRIu64 " calls, %" PRIu64 " accepted, %" PRIu64
           " nested (%" PRIu64 " accepted), %" PRIu64 " NMI signals, %"
           PRIu64 " pairs in one reservation\n",
           calls, acc, nested, nested_acc, READ(&n_nmis), pairs);
    printf("# nested at: entry %" PRIu64 ", in_irq %" PRIu64 ", NOW %" PRIu64
           ", current %" PRIu64 ", smp_wmb %" PRIu64 ", smp_mb %" PRIu64 "\n",
           READ(&n_nested_at[STUB_AT_ENTRY]), READ(&n_nested_at[STUB_AT_IN_IRQ]),
           READ(&n_nested_at[STUB_AT_NOW]), READ(&n_nested_at[STUB_AT_CURRENT]),
           READ(&n_nested_at[STUB_AT_WMB]), READ(&n_nested_at[STUB_AT_MB]));
    printf("# holders: %" PRIu64 " snapshots checked (%" PRIu64 " busy, %"
           PRIu64 " ENOMEM injected), %" PRIu64 " buffers checked, %" PRIu64
           " clears (%" PRIu64 " busy), %" PRIu64 " resizes (%" PRIu64
           " ENOMEM), %" PRIu64 " on/off (%" PRIu64
           " busy, %" PRIu64 " off-checks), %" PRIu64 " hotplug ops (%" PRIu64
           " buffer allocations failed)\n", READ(&n_snapshots),
           READ(&n_snap_busy), READ(&n_snap_nomem), READ(&n_buffers_checked),
           READ(&n_clears), READ(&n_clear_busy), READ(&n_resizes),
           READ(&n_resize_nomem), READ(&n_toggles),
           READ(&n_toggle_busy), READ(&n_off_checks), READ(&n_hotplug),
           READ(&n_alloc_fail_up));
    printf("# anchors: %" PRIu64 " copies' anchors checked\n",
           READ(&n_anchors_checked));
    printf("# consumers: %" PRIu64 " reads committed (%" PRIu64 " records, "
           "%" PRIu64 " lost), %" PRIu64 " EAGAIN (the other consumed "
           "first), %" PRIu64 " busy\n", READ(&n_pipe_reads),
           READ(&n_pipe_records), READ(&n_pipe_lost), READ(&n_pipe_again),
           READ(&n_pipe_busy));
    printf("1..%d\n", CK_NR);
    for ( i = 0; i < CK_NR; i++ )
    {
        unsigned long n = READ(&anomalies[i]);

        if ( n )
            printf("not ok %u - %s (%lu anomalies)\n", i + 1, check_name[i], n);
#ifndef DYNTRACE_WITH_BUFFERS
        else if ( i == CK_PIPE )
            printf("ok %u - %s # SKIP the first series has no consuming "
                   "read\n", i + 1, check_name[i]);
#endif
        else
            printf("ok %u - %s\n", i + 1, check_name[i]);
    }
    printf("stress ring-host: ops=%" PRIu64 " anomalies=%lu seconds=%.1f\n",
           total_ops(), total_anomalies(), secs);
    fflush(stdout);
}

/* A stuck holder or hotplug operation stops the rounds: report and exit. */
static void *watchdog_thread(void *arg)
{
    uint64_t last = READ(&main_progress);
    double since = now_s();
    unsigned int w;

    (void)arg;
    while ( !LOAD(&stop_all) )
    {
        uint64_t p = READ(&main_progress);

        nap_us(200000);
        if ( p != last )
        {
            last = p;
            since = now_s();
            continue;
        }
        if ( now_s() - since < STALL_SECONDS )
            continue;

        anomaly(CK_PROGRESS, "no progress for %d s (main phase %d)",
                STALL_SECONDS, LOAD(&main_phase));
        for ( w = 0; w < NWORKERS; w++ )
            printf("# worker %u: %" PRIu64 " ops\n", w,
                   READ(&worker_progress[w]));
        report(now_s() - t_start);
        _exit(2);
    }

    return NULL;
}

int main(void)
{
    void *(*const workers[NWORKERS])(void *) = {
#ifdef DYNTRACE_WITH_BUFFERS
        reader_thread, reader_thread, consumer_thread, consumer_thread,
#else
        /* The first series has no consuming read: two more readers. */
        reader_thread, reader_thread, reader_thread, reader_thread,
#endif
        clearer_thread, toggler_thread,
        hotplug_thread, nmi_thread,
    };
    pthread_t wthread[NWORKERS], wd;
    const char *env = getenv("RING_STRESS_SECONDS");
    double seconds = env ? atof(env) : 3.0;
    uint64_t tot_written = 0, tot_dropped = 0;
    struct sigaction sa;
    unsigned int k, r;

    env = getenv("RING_STRESS_SEED");
    seed = env ? strtoull(env, NULL, 0) : (uint64_t)time(NULL) ^ getpid();
    seed_thread(0);
    setvbuf(stdout, NULL, _IOLBF, 0);
    t_start = now_s();

    stub_init();
    for ( k = 0; k < NCPUS; k++ )
    {
        struct cpu_state *cs = &cpus[k];

        cs->cpu = k;
        pthread_mutex_init(&cs->m, NULL);
        pthread_cond_init(&cs->cv, NULL);
        cs->online = cs->has_ring = k < BOOT_CPUS;
        cpumask_set_cpu(k, &cpu_present_map);
        if ( k < BOOT_CPUS )
            cpumask_set_cpu(k, &cpu_online_map);
    }
    nr_buffers = BOOT_CPUS;
    if ( dt_rings_init(sizeof(struct xen_dyntrace_record)) )
    {
        printf("# dt_rings_init failed\n");
        return 1;
    }

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = nmi_handler;
    sigfillset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);

    pause_cpus = pause_workers = 1;
    for ( k = 0; k < NCPUS; k++ )
        pthread_create(&cpus[k].thread, NULL, cpu_thread, &cpus[k]);
    for ( k = 0; k < NWORKERS; k++ )
        pthread_create(&wthread[k], NULL, workers[k], (void *)(unsigned long)k);
    pthread_create(&wd, NULL, watchdog_thread, NULL);
    pause_all();

    for ( r = 0; now_s() - t_start < seconds; r++ )
    {
        enum round_type type = r % 3 == 0 ? EXACT_ON
                               : r % 8 == 7 ? EXACT_OFF : CHAOS;
        double end;

        round_start(r, type);
        resume_all();
        end = now_s() + ROUND_MS / 1000.0;
        while ( now_s() < end )
            nap_us(10000);
        pause_all();
        round_end(type, &tot_written, &tot_dropped);
        INC(&n_rounds);
        if ( type != CHAOS )
            INC(&n_exact_rounds);
    }

    STORE(&stop_all, 1);
    resume_all();
    for ( k = 0; k < NWORKERS; k++ )
        pthread_join(wthread[k], NULL);
    for ( k = 0; k < NCPUS; k++ )
    {
        pthread_mutex_lock(&cpus[k].m);
        pthread_cond_broadcast(&cpus[k].cv);
        pthread_mutex_unlock(&cpus[k].m);
        pthread_join(cpus[k].thread, NULL);
    }
    pthread_join(wd, NULL);

    printf("# round ends: %" PRIu64 " written, %" PRIu64 " dropped\n",
           tot_written, tot_dropped);
    report(now_s() - t_start);

    return total_anomalies() ? 1 : 0;
}
