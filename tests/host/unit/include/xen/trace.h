/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/trace.h as the series' patch 0023 has it: the takers of trace
 * points' records (trace_users, defined in stubs.c), and trace(), which
 * the tests call as a trace point does (stubs.c: it hands the event to
 * the tracer while an event is on).
 */
#ifndef __XEN_TRACE_H__
#define __XEN_TRACE_H__

#include <xen/types.h>

union trace_users {
    uint16_t any;
    struct {
        bool tbuf;
        bool dyntrace;
    };
};
extern union trace_users trace_users;
#define tb_init_done (trace_users.any != 0)

void trace(uint32_t event, unsigned int extra, const void *extra_data);

#endif /* __XEN_TRACE_H__ */
