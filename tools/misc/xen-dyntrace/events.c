/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's trace points as the tracer records them (/tracing/events/): their
 * names and text from the hypervisor's own table and formatter,
 * <xen/dyntrace_events.h>, so that report prints what /tracing/trace does.
 */
#define XEN_DYNTRACE_EVENT_FORMATTER
#include "xen-dyntrace.h"

#include <string.h>

static const struct {
    const char *cls, *name, *fmt;
    uint32_t id, mask;
} rows[] = {
#define EVENT_ROW(cls, name, id, mask, fmt) { #cls, #name, fmt, id, mask },
    XEN_DYNTRACE_EVENTS(EVENT_ROW)
#undef EVENT_ROW
};

/* The first row an id matches, as the hypervisor looks it up; or -1. */
static int row_of(uint32_t id)
{
    unsigned int i;

    for ( i = 0; i < sizeof(rows) / sizeof(rows[0]); i++ )
        if ( (id & rows[i].mask) == rows[i].id )
            return i;

    return -1;
}

const char *xdt_event_name(uint32_t id, const char **cls)
{
    int i = row_of(id);

    if ( i < 0 )
        return NULL;
    if ( cls )
        *cls = rows[i].cls;

    return rows[i].name;
}

void xdt_event_text(const struct xdt_event *e, char *buf, size_t len)
{
    int i = row_of(e->id);
    int n = i < 0 ? snprintf(buf, len, "event_%#x: ", e->id)
                  : snprintf(buf, len, "%s: ", rows[i].name);

    if ( n >= 0 && (size_t)n < len )
        xen_dyntrace_event_format(buf + n, len - n, i < 0 ? "" : rows[i].fmt,
                                  e->id, e->word, e->nr_words);
}

bool xdt_event_is_switch(const struct xdt_event *e)
{
    const char *cls, *name = xdt_event_name(e->id, &cls);

    return name && !strcmp(cls, "sched") && !strcmp(name, "sched_switch") &&
           e->nr_words >= 4;
}
