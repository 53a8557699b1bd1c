/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the nop and function tracers: the callback that fills a
 * record into a reserved ring slot, and the lines of their text (the
 * output layer is output.c).
 */

#include <xen/bug.h>
#include <xen/dyntrace.h>
#include <xen/errno.h>
#include <xen/init.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/symbols.h>
#include <xen/time.h>

#include "output.h"
#include "ring.h"
#include "tracer.h"

static void cf_check print_header(struct dyntrace_text *t, unsigned long max,
                         const char *name, uint64_t entries, uint64_t written,
                         unsigned int nr_present)
{
    dyntrace_text_printf(t, max,
        "# tracer: %s\n"
        "#\n"
        "# entries-in-buffer/entries-written: %"PRIu64"/%"PRIu64"   #P:%u\n"
        "#\n"
        "#                    _---=> irqs-off\n"
        "#                   / _--=> hardirq\n"
        "#                  | / _-=> nmi\n"
        "#                  || /\n"
        "#   CONTEXT   CPU# |||  TIMESTAMP  FUNCTION\n"
        "#      |        |  |||      |         |\n",
        name, entries, written, nr_present);
}

static unsigned int cf_check print_record(
    struct dyntrace_text *t, unsigned long max, struct sym_caches *c,
    const struct xen_dyntrace_record *r, const struct xen_dyntrace_record *end)
{
    dt_print_context(t, max, r);
    dyntrace_text_printf(t, max, "%s <-%s\n",
                         dt_symbol_cached(&c->func, r->ip),
                         dt_symbol_cached(&c->caller, r->parent_ip));

    return 1;
}

static const struct dt_format nop_format = {
    .name = "nop", .header = print_header, .line = print_record,
};

static const struct dt_format function_format = {
    .name = "function", .header = print_header, .line = print_record,
};

#ifdef DYNTRACE_WITH_BUFFERS
static int cf_check nop_print(struct dyntrace_text *t,
                              struct dyntrace_read *rd)
{
    return rd->raw ? dt_print_raw(t, rd) : dt_print_rings(&nop_format, t, rd);
}

static int cf_check function_print(struct dyntrace_text *t,
                                   struct dyntrace_read *rd)
{
    return rd->raw ? dt_print_raw(t, rd)
                   : dt_print_rings(&function_format, t, rd);
}
#else
static int cf_check nop_print(struct dyntrace_text *t)
{
    return dt_print_rings(&nop_format, t);
}

static int cf_check function_print(struct dyntrace_text *t)
{
    return dt_print_rings(&function_format, t);
}
#endif

/*
 * Take one record, IRQs off, maybe nested through NMI/MCE.  Everything it
 * calls is inline or notrace.  The call's addresses are ip and parent_ip,
 * or, for the fast entry (fast), read from its frame only when they are
 * stored, so that no register holds them meanwhile (each register the fast
 * entry uses costs a save); it makes no call but through an arch thunk that
 * keeps every register (arch_dyntrace_fast_anchor()).
 */
static always_inline void function_record(unsigned long ip,
                                          unsigned long parent_ip,
                                          bool irqs_off, bool fast)
{
    struct xen_dyntrace_record *rec;
    struct dt_ring *r;
    const struct vcpu *v;
    unsigned int cpu, flags = irqs_off ? XEN_DYNTRACE_FLAG_IRQS_OFF : 0;
    uint64_t stamp;

    if ( unlikely(!ACCESS_ONCE(dt_recording)) )
        return;
    rec = dt_ring_reserve(&r, &cpu, sizeof(*rec));
    if ( !rec )
        return;
    /*
     * Turned off while we reserved: pairs with the smp_mb() between the
     * store and the drain in dt_state_set_on().  The reservation's cmpxchg
     * is the full barrier on this side.
     */
    if ( unlikely(!ACCESS_ONCE(dt_recording)) )
    {
        dt_ring_cancel(r);
        return;
    }

    rec->cpu = cpu;
    /* in_irq() on the CPU known: no second read of its number. */
    if ( local_irq_count(cpu) )
        flags |= XEN_DYNTRACE_FLAG_IN_IRQ;
    if ( arch_dyntrace_cpu_in_nmi(cpu) )
        flags |= XEN_DYNTRACE_FLAG_IN_NMI;
    stamp = arch_dyntrace_stamp();
    dt_ring_anchor_if_due(r, stamp, fast);

    rec->ts = stamp;
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    if ( fast )
    {
        const unsigned long *frame = arch_dyntrace_fast_frame();

        ip = frame[0] - DYNTRACE_RET_TO_SITE;
        parent_ip = frame[1];
    }
#endif
    rec->ip = ip;
    rec->parent_ip = parent_ip;
    v = current;
    rec->domid = v->domain->domain_id;
    rec->vcpu = v->vcpu_id;
    rec->flags = flags | XEN_DYNTRACE_FLAG_RAW_TS;
    rec->depth = 0;

    dt_ring_commit(r);
}

/* The callback, run by the dispatcher with IRQs off. */
static void cf_check function_call(unsigned long ip, unsigned long parent_ip,
                                   unsigned long *ret, bool irqs_off)
{
    function_record(ip, parent_ip, irqs_off, false);
}

#ifdef ARCH_DYNTRACE_FAST_ENTRY
/*
 * The trampoline's call while the function tracer alone is active (the
 * rendezvous that makes it so rewrites the call): the dispatcher's work and
 * the callback's in one frame that saves only the registers it uses.
 */
static void ARCH_DYNTRACE_FAST_ENTRY dyntrace_fast_entry(void)
{
    unsigned long flags;

    local_irq_save(flags);
    function_record(0, 0, arch_dyntrace_irqs_off(flags), true);
    arch_dyntrace_irq_restore(flags);
}
#endif

static struct dyntrace_tracer nop_tracer = {
    .name = "nop",
    .set_on = dt_rings_set_on_cb,
    .clear = dt_rings_clear_cb,
    .print = nop_print,
};

static struct dyntrace_tracer function_tracer = {
    .name = "function",
    .uses_filter = true,
    .set_on = dt_rings_set_on_cb,
    .clear = dt_rings_clear_cb,
    .print = function_print,
    .func = function_call,
#ifdef ARCH_DYNTRACE_FAST_ENTRY
    .fast_entry = dyntrace_fast_entry,
#endif
};

static int __init cf_check function_tracer_init(void)
{
    int rc;

    BUILD_BUG_ON(sizeof(struct xen_dyntrace_record) != 32);
    BUILD_BUG_ON(sizeof(struct xen_dyntrace_raw_header) != 32);

    rc = dt_rings_init(sizeof(struct xen_dyntrace_record));
    if ( rc )
        return rc;

    dyntrace_register_tracer(&nop_tracer);
    dyntrace_register_tracer(&function_tracer);

    return 0;
}
presmp_initcall(function_tracer_init);
