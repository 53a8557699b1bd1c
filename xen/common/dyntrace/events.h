/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: Xen's trace points recorded as events in the tracer's buffers
 * (events.c): what the output layer needs to show them.
 */
#ifndef DYNTRACE_EVENTS_H
#define DYNTRACE_EVENTS_H

#include <xen/dyntrace.h>

#include <public/dyntrace.h>
#include <public/dyntrace_events.h>

#include "output.h"

static inline bool dt_record_is_event(const struct xen_dyntrace_record *r)
{
    return r->flags & XEN_DYNTRACE_FLAG_EVENT;
}

/* Room for an event's text, "NAME: FIELDS". */
#define DT_EVENT_TEXT_MAX 224

/*
 * The text of the event record r of one CPU (end: the end of that CPU's
 * records) into buf: returns the records it used, its continuation's too
 * (at least 1; a continuation alone leaves buf empty).
 */
unsigned int dt_event_text(char *buf, size_t len,
                           const struct xen_dyntrace_record *r,
                           const struct xen_dyntrace_record *end);

/*
 * A consuming read must not return an event's head without its
 * continuation (which its writer stores just after): how many of the nr
 * records at recs it may return.
 */
unsigned int dt_events_whole(const struct xen_dyntrace_record *recs,
                             unsigned int nr);

/*
 * How many of the nr records at recs are continuations: the lines of a
 * text are the records less these (ftrace's entries count events).
 */
unsigned int dt_events_more(const struct xen_dyntrace_record *recs,
                            unsigned int nr);

/*
 * graph.c, for E5 of events.c: under function_graph, write the entry
 * records pending on this CPU's return stack (IRQs off, outside NMI/MCE
 * context: none are written there).
 */
void dt_graph_flush_for_event(unsigned int cpu);

#endif /* DYNTRACE_EVENTS_H */
