/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the committed state's storage, shared by state.c (its readers,
 * and the changes that need no patching) and patch.c (the operation that
 * commits what it patched).  Everything else goes through patch.h.
 */
#ifndef DYNTRACE_STATE_H
#define DYNTRACE_STATE_H

#include "patch.h"

struct dt_committed {
    struct dyntrace_tracer *tracer;
    /*
     * The function sets (enum dt_set): the sites selected, their names as
     * read back, and a version bumped on each change (an in-place edit is
     * refused if its set changed since it was read).
     */
    struct {
        unsigned long *map;
        char *text;
        unsigned int ver;
    } sets[DT_NR_SETS];
#ifdef DYNTRACE_WITH_SCOPE
    /* The scope's version (dt_state_scope_copy()); dt_scope is the value. */
    unsigned int scope_ver;
#endif
    /* dt_state_gen(). */
    unsigned int trace_gen;
#ifdef DYNTRACE_WITH_PROFILER
    /* function_profile_enabled. */
    bool profiling;
#endif
};

/*
 * Take the lock of the committed state and return it (patch.c: a request
 * is checked against it and claims the operation, and the operation
 * commits into it, each in one critical section).
 */
struct dt_committed *dt_state_lock(void);
void dt_state_unlock(void);
/* Commit a set change (lock held); map and *text become the old ones. */
void dt_state_commit_set(enum dt_set which, unsigned long *map, char **text);

#endif /* DYNTRACE_STATE_H */
