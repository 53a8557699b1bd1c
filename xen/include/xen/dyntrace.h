/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: ftrace-style dynamic function tracing through Livepatch.
 *
 * Interfaces between the common tracer (common/dyntrace/), the tracers and
 * the architecture (arch/<arch>/dyntrace*.{c,S}, asm/dyntrace.h).  The
 * concurrency contract is described in docs/designs/dyntrace.md.
 */
#ifndef XEN_DYNTRACE_H
#define XEN_DYNTRACE_H

#include <xen/time.h>
#include <xen/types.h>

#ifdef CONFIG_LIVEPATCH_TRACER

#include <asm/dyntrace.h>

/* An owned, formatted output snapshot: what one HypFS read returns. */
struct dyntrace_text {
    char *buf;
    unsigned int len;           /* bytes, including the final NUL */
};

#ifdef DYNTRACE_WITH_BUFFERS
struct dt_ring_snapshot;

/* What one read of the output asks a tracer's print() for. */
struct dyntrace_read {
    int cpu;                    /* one CPU's buffer (per_cpu/), -1: all */
    /*
     * A consuming read (trace_pipe): the oldest records not yet consumed,
     * no header, losses in-band.  print() leaves in consume what the
     * caller commits with dt_rings_consume() once the text is returned,
     * and frees.
     */
    bool pipe;
    /* With pipe, for one CPU: the binary format (trace_pipe_raw). */
    bool raw;
    struct dt_ring_snapshot *consume;
};
#endif

/*
 * The function callback, run with IRQs disabled by the trampoline's
 * dispatcher; irqs_off tells whether IRQs were off at entry.  It may nest
 * only through NMI/MCE and must cope with that.  ret is where the traced
 * function's return address waits until it returns (x86: its stack slot),
 * for return hooking (dt_ret_push()), or NULL where the architecture has
 * none (!ARCH_DYNTRACE_RETURN).
 */
typedef void dyntrace_func_t(unsigned long ip, unsigned long parent_ip,
                             unsigned long *ret, bool irqs_off);

struct dyntrace_tracer {
    const char *name;
    /* Does the tracer attach a callback to the functions of the filter? */
    bool uses_filter;
    /* Recording on or off; returns only once no callback is still writing. */
    int (*set_on)(bool on);
    /* Drop every record of every CPU that owns a buffer. */
    int (*clear)(void);
    /* Format the output into one owned snapshot (size = text->len). */
#ifdef DYNTRACE_WITH_BUFFERS
    int (*print)(struct dyntrace_text *text, struct dyntrace_read *rd);
#else
    int (*print)(struct dyntrace_text *text);
#endif
    /* The callback attached to the traced functions, or NULL. */
    dyntrace_func_t *func;
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    /*
     * While func alone runs, what the trampoline calls instead of saving
     * registers and calling the dispatcher, or NULL: an entry of the
     * tracer's own that keeps every register itself
     * (ARCH_DYNTRACE_FAST_ENTRY) and finds the call's addresses in its
     * caller's frame (arch_dyntrace_fast_frame()).
     */
    const void *fast_entry;
#ifdef DYNTRACE_WITH_RETURN
    /* Likewise the return trampoline, instead of dyntrace_return(). */
    const void *fast_return;
#endif
#endif
    /*
     * Can the tracer run here (e.g. it needs return hooking)?  0, or an
     * error, with a reason for error_log.  NULL: always.
     */
    int (*usable)(const char **why);
};

void dyntrace_register_tracer(struct dyntrace_tracer *t);

/* Common helpers for tracers' print(). */
int dyntrace_text_alloc(struct dyntrace_text *t, unsigned long max);
void dyntrace_text_printf(struct dyntrace_text *t, unsigned long max,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void dyntrace_text_free(struct dyntrace_text *t);
const char *dyntrace_symbol(unsigned long addr, char *namebuf);

/* Called from the architecture's trampoline. */
void dyntrace_dispatch(unsigned long ip, unsigned long parent_ip,
                       unsigned long *ret);
#ifdef DYNTRACE_WITH_SCOPE
#ifdef ARCH_DYNTRACE_SCOPE_IN_ENTRY
/*
 * The trampoline's test of the scope, when one is set (dt_scope.active),
 * before it saves registers; if it passes, the trampoline calls
 * dyntrace_dispatch_scoped() (which also runs triggers), otherwise
 * dyntrace_dispatch().  Neither tests the scope again.
 */
bool ARCH_DYNTRACE_SCOPE_IN_ENTRY dyntrace_scope_entry(void);
void dyntrace_dispatch_scoped(unsigned long ip, unsigned long parent_ip,
                              unsigned long *ret);
#endif
#endif
#ifdef ARCH_DYNTRACE_FAST_ENTRY
#ifdef DYNTRACE_WITH_RETURN
/*
 * Make the trampoline call entry, the fast entry of the tracer whose
 * callback alone runs (NULL: the dispatcher's path), and the return
 * trampoline ret (NULL: dyntrace_return()).  In the rendezvous.
 */
void arch_dyntrace_set_fast(const void *entry, const void *ret);
#else
/*
 * Make the trampoline call entry, the fast entry of the tracer whose
 * callback alone runs (NULL: the dispatcher's path).  In the rendezvous.
 */
void arch_dyntrace_set_fast(const void *entry);
#endif
#endif

#ifdef DYNTRACE_WITH_RETURN
#ifdef ARCH_DYNTRACE_RETURN
/*
 * Return hooking (common/dyntrace/return.c, docs/designs/dyntrace-return.md):
 * a diverted return lands in the architecture's return
 * trampoline, which calls dyntrace_return() with the frame's identity
 * (ARCH_DYNTRACE_RETURN: the address of the slot the entry saw as ret) and
 * returns to the address it gives back.
 */
void dyntrace_return_trampoline(void);
unsigned long dyntrace_return(unsigned long frame);
/* 0 if returns can be hooked now, or an error and why. */
int arch_dyntrace_return_usable(const char **why);
/*
 * For backtraces: addr, a return address read from a stack at slot (x86:
 * the return slot; Arm: a frame record's x30), or, if it is the return
 * trampoline's, the original return address it stands for.
 */
unsigned long dyntrace_ret_addr(unsigned long addr, const void *slot);
#ifndef ARCH_DYNTRACE_RET_PER_VCPU
/*
 * Where a CPU's stack is saved and later copied back (x86's wait queues):
 * give every diverted return address on it back to its slot.
 */
void dyntrace_stack_unhook(void);
#endif
#ifdef ARCH_DYNTRACE_RET_PER_VCPU
/*
 * Where each vCPU keeps a stack of its own across context switches (Arm),
 * pending returns belong to the vCPU: its return stack is allocated and
 * freed with it (arch_vcpu_create(), arch_vcpu_destroy()).
 */
struct vcpu;
int dyntrace_vcpu_init(struct vcpu *v);
void dyntrace_vcpu_destroy(struct vcpu *v);
#endif
#endif
#endif

/*
 * Does [start, end) overlap a traced patch site?  For Livepatch's conflict
 * check.
 */
bool dyntrace_range_is_traced(unsigned long start, unsigned long end);

#ifdef DYNTRACE_WITH_EVENTS
/*
 * trace()'s call while an event of /tracing/events/ is on: record it if
 * that event is (any context).
 */
void dyntrace_trace_event(uint32_t event, unsigned int extra,
                          const void *data);
#endif

/*
 * Architecture interface.  arch_dyntrace_patch() runs quiesced (every other
 * CPU parked, text writable) and returns -EEXIST without writing when the
 * site does not hold the bytes expected for its current state (e.g. a
 * livepatch has rewritten it).  arch_dyntrace_site_bytes() gives, for a
 * report, the bytes a site should hold when traced / untraced and those it
 * holds.
 */
void arch_dyntrace_init_sites(const unsigned long *sites, unsigned int nr);
int arch_dyntrace_patch(unsigned long site, bool enable);
bool arch_dyntrace_site_is_clean(unsigned long site);
void arch_dyntrace_site_bytes(unsigned long site, bool traced,
                              uint8_t expect[DYNTRACE_SITE_SIZE],
                              uint8_t actual[DYNTRACE_SITE_SIZE]);
/*
 * asm/dyntrace.h also defines, inline, the clock records keep:
 * arch_dyntrace_stamp(), cheap and safe to read in NMI/MCE context, where
 * NOW() is not; arch_dyntrace_stamp_khz(), its nominal rate; and
 * arch_dyntrace_stamp_to_ns(), a stamp in NOW()'s nanoseconds with this
 * CPU's calibration in force (ordinary context only).
 */

#else /* !CONFIG_LIVEPATCH_TRACER */

static inline bool dyntrace_range_is_traced(unsigned long start,
                                            unsigned long end)
{
    return false;
}

#ifdef DYNTRACE_WITH_EVENTS
static inline void dyntrace_trace_event(uint32_t event, unsigned int extra,
                                        const void *data)
{
}
#endif

#ifdef DYNTRACE_WITH_RETURN
struct vcpu;
static inline int dyntrace_vcpu_init(struct vcpu *v)
{
    return 0;
}

static inline void dyntrace_vcpu_destroy(struct vcpu *v)
{
}

static inline unsigned long dyntrace_ret_addr(unsigned long addr,
                                              const void *slot)
{
    return addr;
}

static inline void dyntrace_stack_unhook(void)
{
}
#endif

#endif /* CONFIG_LIVEPATCH_TRACER */

#endif /* XEN_DYNTRACE_H */
