/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The harness's side of the stub "Xen" (stubs.c, hypfs-stub.c, image.c):
 * what the tests set and observe.  Nothing here is seen by the hypervisor
 * files except through the stub headers.
 *
 * Hypervisor code runs on one thread at a time.  The thread's simulated CPU
 * state (CPU number, current vCPU, interrupt flag, IRQ/NMI/MCE nesting) is
 * thread-local; per-CPU data is indexed by the simulated CPU.
 */
#ifndef UNIT_STUB_H
#define UNIT_STUB_H

#include <xen/types.h>

struct vcpu;

/* ---- The calling thread's CPU context ---- */
extern __thread unsigned int stub_cpu;
extern __thread struct vcpu *stub_current;
extern __thread bool stub_irqs_enabled;
extern __thread unsigned int stub_irq_count, stub_nmi_count, stub_mce_count;

struct stub_ctx {
    unsigned int cpu;
    struct vcpu *v;
    bool irqs;
};
/* Switch the calling thread to cpu/v/irqs; returns the previous context. */
struct stub_ctx stub_ctx_enter(unsigned int cpu, struct vcpu *v, bool irqs);
void stub_ctx_restore(struct stub_ctx old);
struct vcpu *stub_idle_vcpu(unsigned int cpu);
/* vCPU vcpu (< 8) of domain dom (< 4): dom 0 is the control domain. */
struct vcpu *stub_guest_vcpu(unsigned int dom, unsigned int vcpu);

/* ---- Anomalies: misuse of a stub seen by the stub itself ---- */
extern unsigned int stub_anomalies;
extern char stub_anomaly_first[256];
void stub_anomaly(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- printk ---- */
bool stub_log_has(const char *needle);
extern bool stub_log_echo;              /* also print to stderr */

/* ---- Memory (xmalloc family and vmalloc family together) ---- */
struct stub_mem_stats {
    size_t cur;                 /* bytes allocated now */
    size_t peak;                /* highest cur since stub_mem_mark() */
    size_t largest;             /* largest allocation since the mark */
    unsigned long allocs;       /* allocations since the mark */
    unsigned long live;         /* blocks allocated now */
};
extern struct stub_mem_stats stub_mem;
void stub_mem_mark(void);
/* Fail the Nth allocation from now (1: the next one); 0: none. */
extern unsigned int stub_alloc_fail_in;
extern bool stub_alloc_failed;          /* an injected failure happened */
/* vscnprintf() calls that truncated (an undersized text buffer). */
extern unsigned long stub_truncations;

/* ---- CPUs ---- */
/* CPUs 0..present-1 present, CPU 0 alone online (presmp time). */
void stub_cpus_reset(unsigned int present);
/* Bring a CPU up with Xen's notifier sequence, maps held for writing. */
void stub_cpu_up(unsigned int cpu);
/*
 * Take cpu down (CPU_DOWN_PREPARE, CPU_DYING on it, CPU_DEAD); then, if
 * set, run stub_cpu_dead_fn as that CPU, IRQs off, its current the idle
 * vCPU (x86: a parked CPU woken by an NMI keeps its stack and current).
 */
void stub_cpu_down(unsigned int cpu);
extern void (*stub_cpu_dead_fn)(unsigned int cpu);
/*
 * Run by stub_cpu_up() on the new CPU between CPU_UP_PREPARE and
 * CPU_STARTING, IRQs off, with current NULL: an AP's first C calls.
 */
extern void (*stub_cpu_early_fn)(unsigned int cpu);
extern unsigned int stub_cpu_maps_held; /* get_cpu_maps() not yet put */
extern bool stub_cpu_maps_busy;         /* make get_cpu_maps() fail */

/* ---- The fake clock and timers ---- */
extern s_time_t stub_now_ns;
/*
 * Move the clock forward to t, firing each due timer at its expiry time on
 * its CPU.  Returns the number of timers fired.
 */
unsigned int stub_advance_to(s_time_t t);

/* ---- Hypercall continuations (continue_hypercall_on_cpu) ---- */
struct stub_hcall {
    bool paused;                /* a continuation is outstanding */
    bool done;                  /* the last one finished */
    long result;                /* the last run's return value */
    unsigned int runs;          /* tasklet runs of the last hypercall */
};
struct stub_hcall *stub_hcall_of(struct vcpu *v);
unsigned int stub_tasklets_queued(void);
/* Run the next queued tasklet (one "tasklet run"); false if none. */
bool stub_run_tasklet(void);
/* The same, unless the next one is the continuation of busy's hypercall. */
bool stub_run_tasklet_except(const struct vcpu *busy);

/* ---- Livepatch ---- */
/* The next call of livepatch_run_quiesced() returns rc, fn not run. */
void stub_lp_script(int rc);
extern unsigned int stub_lp_calls;      /* livepatch_run_quiesced() calls */
extern uint32_t stub_lp_timeouts[16];   /* the timeout of each call */
extern int stub_lp_permission;          /* livepatch_check_permission() */
extern unsigned int stub_lp_permission_calls;
extern bool stub_in_quiesce;            /* inside the rendezvous' fn */
extern bool stub_text_writable;         /* arch_livepatch_quiesce()d */
/* arch_dyntrace_patch() calls; bit n of the mask fails call n (-EEXIST). */
extern unsigned int stub_patch_calls;
extern unsigned int stub_patch_fail_mask;
/*
 * arch_dyntrace_set_fast(): the fast entry and return the trampolines call
 * after the last call (NULL: the dispatcher's, dyntrace_return()).
 */
extern const void *stub_fast_entry, *stub_fast_return;
extern unsigned int stub_set_fast_calls;

/*
 * ---- Preemption points ----
 * copy_from_guest, every allocation, livepatch_check_permission and
 * spin_lock are points where, in Xen, another CPU could act meanwhile
 * (never while the caller holds a lock: the other CPU would wait for it).
 * With stub_preempt_at = N, the Nth point passed from now runs
 * stub_preempt_fn (once).  stub_preempt_seen counts the points passed
 * while armed.
 */
extern unsigned int stub_preempt_at, stub_preempt_seen;
extern void (*stub_preempt_fn)(void);
void stub_preempt_point(void);

/*
 * ---- A nested "NMI" writer ----
 * With stub_nested_writes = n, the next in_irq() (which function.c asks
 * between dt_ring_reserve() and dt_ring_commit()) runs n dispatches of
 * stub_nested_ip in NMI context first.
 */
extern unsigned int stub_nested_writes;
extern unsigned long stub_nested_ip, stub_nested_parent;

/*
 * ---- HypFS: one operation, through Xen's own do_hypfs_op() (hypfs-xen.c)
 * or, where its source is not at hand, in its order (hypfs-stub.c) ----
 */
int stub_hypfs_op(bool write, const char *path, void *buf, unsigned long ulen);
/* Does directory path (e.g. "/tracing") exist, and how many children? */
int stub_hypfs_children(const char *path);

/* ---- The fake hypervisor image (image.c) ---- */
#define IMG_MAX_FUNCS 128
/* nfuncs functions, each with a patch site unless no_sites. */
void img_setup(unsigned int nfuncs, bool no_sites);
unsigned int img_nfuncs(void);
const char *img_name(unsigned int i);           /* as symbols_lookup() */
unsigned long img_addr(unsigned int i);         /* entry = patch site */
bool img_site_is_call(unsigned long site);      /* CALL to the trampoline */
bool img_site_is_nop(unsigned long site);       /* the untraced NOP */

/*
 * What the x86 trampoline does (xen/arch/x86/dyntrace-entry.S): test the
 * scope when one is set (its first word), then call the dispatcher.
 */
void stub_trampoline(unsigned long ip, unsigned long parent_ip);

#endif
