/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: the committed state (tracer, filter, recording) and the
 * patch operations that change it (patch.c).
 */
#ifndef DYNTRACE_PATCH_H
#define DYNTRACE_PATCH_H

#include <xen/dyntrace.h>

/* Once the tracers are registered: -ENODEV if the tracer is absent. */
int dt_state_init(void);

/* May site i be traced (traced already, or holding the untraced bytes)? */
bool dt_site_usable(unsigned int i);

/* The committed tracer (it may change as soon as this returns). */
struct tracer *dt_state_tracer(void);
/* Owned copies of the committed tracer's name / filter text. */
int dt_state_tracer_name(struct dyntrace_text *t);
int dt_state_filter_text(struct dyntrace_text *t);
/* Where the committed tracing_on value is kept (for HypFS to read). */
const bool *dt_state_on(void);
/*
 * Bumped by every change a reader of trace could see: a clear, a tracer
 * switch, tracing_on.
 */
unsigned int dt_state_gen(void);

/* The committed tracer's set_on()/clear(), then the generation bumped. */
int dt_state_set_on(bool on);
int dt_state_clear(void);

/*
 * Ask for a patch operation towards tracer t (NULL: the committed one) with
 * filter f and its text ftext (NULL: the committed ones; ownership of both
 * passes here).  Called under the HypFS write lock; the operation itself
 * runs in a continuation on CPU 0 after the lock is dropped.
 */
int dt_request(struct tracer *t, unsigned long *f, char *ftext);

#endif /* DYNTRACE_PATCH_H */
