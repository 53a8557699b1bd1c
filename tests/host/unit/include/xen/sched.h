/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Domains and vCPUs as far as the tracer sees them, current (the calling
 * thread's vCPU) and continue_hypercall_on_cpu() (queued as Xen's tasklet
 * does; the harness runs the queue, stub_run_tasklets()).
 */
#ifndef __XEN_SCHED_H__
#define __XEN_SCHED_H__

#include <xen/smp.h>
#include <xen/time.h>
#include <xen/types.h>
#include <xen/xmalloc.h>        /* Xen's sched.h has it through its own */
#include <asm/hardirq.h>

#define DOMID_FIRST_RESERVED 0x7FF0U
#define DOMID_IDLE 0x7FFFU

struct stub_hcall;

struct domain {
    domid_t domain_id;
};

struct vcpu {
    int vcpu_id;
    struct domain *domain;
    /* The harness's view of a hypercall continuation (stubs.c). */
    struct stub_hcall *hcall;
};

extern __thread struct vcpu *stub_current;

#define current (stub_current)

#define is_idle_domain(d) ((d)->domain_id == DOMID_IDLE)
#define is_idle_vcpu(v)   is_idle_domain((v)->domain)

int continue_hypercall_on_cpu(unsigned int cpu, long (*func)(void *data),
                              void *data);

#endif
