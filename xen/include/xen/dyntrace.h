/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: ftrace-style dynamic function tracing through Livepatch.
 *
 * Interfaces between the common tracer core (common/dyntrace/), the tracers
 * and the architecture (arch/<arch>/dyntrace*.{c,S}).  The concurrency
 * contract is described in docs/design.md of xen-dyntrace.
 */
#ifndef __XEN_DYNTRACE_H__
#define __XEN_DYNTRACE_H__

#include <xen/types.h>

#ifdef CONFIG_LIVEPATCH_TRACER

/* One binary record of the ring buffers: 32 bytes on 64-bit. */
struct dyntrace_record {
    uint64_t ts;                /* NOW(), ns */
    unsigned long ip;           /* traced function's patch site */
    unsigned long parent_ip;    /* its caller's return address */
    uint16_t domid;             /* domain running (DOMID_IDLE: idle) */
    uint16_t vcpu;
    uint16_t cpu;
    uint8_t flags;
#define DT_FLAG_IRQS_OFF  (1u << 0)
#define DT_FLAG_IN_IRQ    (1u << 1)
#define DT_FLAG_IN_NMI    (1u << 2)
    uint8_t pad;
};

/* An owned, formatted output snapshot: what one HypFS read returns. */
struct dyntrace_text {
    char *buf;
    unsigned int len;           /* bytes, including the final NUL */
};

struct tracer {
    const char *name;
    /* Does the tracer attach a callback to the functions of set_function_filter? */
    bool uses_filter;
    /* Called before the tracer's callback is attached / after it is drained. */
    int (*start)(void);
    void (*stop)(void);
    /* Recording on or off; returns only once no callback is still writing. */
    int (*set_on)(bool on);
    /* Drop every record of every CPU that owns a buffer. */
    int (*clear)(void);
    /* Format the output into one owned snapshot (size = text->len). */
    int (*print)(struct dyntrace_text *text);
    /*
     * The function callback, run with IRQs disabled by the trampoline's
     * dispatcher; flags holds DT_FLAG_IRQS_OFF when IRQs were off at entry.
     * It may nest only through NMI/MCE and must cope with that.
     */
    void (*func)(unsigned long ip, unsigned long parent_ip, unsigned int flags);
};

void dyntrace_register_tracer(struct tracer *t);

/* Common helpers for tracers' print(). */
int dyntrace_text_alloc(struct dyntrace_text *t, unsigned long max);
void dyntrace_text_printf(struct dyntrace_text *t, unsigned long max,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void dyntrace_text_free(struct dyntrace_text *t);
const char *dyntrace_symbol(unsigned long addr, char *namebuf);

/* Called from the architecture's trampoline. */
void dyntrace_dispatch(unsigned long ip, unsigned long parent_ip);

/* Does a patch site lie in [start, end)?  For Livepatch's conflict check. */
bool dyntrace_range_is_traced(unsigned long start, unsigned long end);

/*
 * Architecture interface.  arch_dyntrace_patch() runs quiesced (every other
 * CPU parked, text writable) and returns -EEXIST without writing when the
 * site does not hold the bytes expected for its current state (e.g. a
 * livepatch has rewritten it).
 */
void arch_dyntrace_init_sites(const unsigned long *sites, unsigned int nr);
int arch_dyntrace_patch(unsigned long site, bool enable);
bool arch_dyntrace_site_is_clean(unsigned long site);

#else /* !CONFIG_LIVEPATCH_TRACER */

static inline bool dyntrace_range_is_traced(unsigned long start,
                                            unsigned long end)
{
    return false;
}

#endif /* CONFIG_LIVEPATCH_TRACER */

#endif /* __XEN_DYNTRACE_H__ */
