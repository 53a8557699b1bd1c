/* SPDX-License-Identifier: GPL-2.0-only */
#ifdef DYNTRACE_WITH_GRAPH
/*
 * dyntrace: /tracing's parts, shared by hypfs.c (the files and directories
 * and their content), hypfs_write.c (the writes and error_log) and
 * hypfs_snap.c (the snapshot of each HypFS operation and the retry cache),
 * and the files a tracer or the profiler adds (dt_fs_add_files()).
 */
#else
/*
 * dyntrace: /tracing's parts, shared by hypfs.c (the files and directories
 * and their content), hypfs_write.c (the writes and error_log) and
 * hypfs_snap.c (the snapshot of each HypFS operation and the retry cache).
 */
#endif
#ifndef DYNTRACE_HYPFS_FILES_H
#define DYNTRACE_HYPFS_FILES_H

#include <xen/dyntrace.h>
#include <xen/hypfs.h>

#include "patch.h"

/*
 * A set of functions (set_function_filter and the like) takes writes of at
 * least DT_SET_MAX_WRITE bytes, and at least the length of
 * available_functions (fits_names), so that whatever it reads back can be
 * written back (with '*' that is every name).
 */
#define DT_SET_MAX_WRITE 4096

typedef int dt_write_t(struct hypfs_entry_leaf *leaf,
                       XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                       unsigned int ulen);

struct dt_file {
    const char *name;
    unsigned int type;              /* XEN_HYPFS_TYPE_* */
    unsigned int max_write;         /* 0: read-only */
    /* Dynamic leaf: build the snapshot one operation reads. */
    int (*build)(struct dyntrace_text *t);
#if defined(DYNTRACE_WITH_GRAPH) || defined(DYNTRACE_WITH_BUFFERS)
    /* Dynamic leaf of one CPU: build that CPU's snapshot. */
    int (*cpu_build)(struct dyntrace_text *t, unsigned int cpu);
#endif
#ifdef DYNTRACE_WITH_BUFFERS
    /* Dynamic leaf: the tracer's output (consuming it, if pipe). */
    bool trace, pipe, raw;
#else
    /* Dynamic leaf: the tracer's output. */
    bool trace;
#endif
#ifdef DYNTRACE_WITH_EVENTS
    /* Dynamic leaf, one of dt_fs_add_leaves(): build leaf i's snapshot. */
    int (*index_build)(struct dyntrace_text *t, unsigned int i);
#endif
    /* Fixed content (when build is NULL): set it at boot. */
    int (*init)(struct hypfs_entry_leaf *leaf);
    dt_write_t *write;
    /* Keep an unread snapshot for the caller's retry (see snap_exit()). */
    bool retry;
    /* max_write grows to hold available_functions (names_len). */
    bool fits_names;
};

#ifdef DYNTRACE_WITH_GRAPH
/*
 * hypfs.c: files a tracer or the profiler adds to /tracing (dir NULL) or
 * to a directory of theirs under it (built with dt_fs_dir_funcs): named at
 * boot, in a presmp initcall, and built with /tracing in a later one.  A
 * row with cpu_build is one leaf per CPU Xen can have, its name followed
 * by the CPU's number ("function0").
 */
void dt_fs_add_files(struct hypfs_entry_dir *dir, const struct dt_file *f,
                     unsigned int nr);
#endif
#ifdef DYNTRACE_WITH_EVENTS
/* hypfs.c: add a directory of one's own to /tracing, once it is built. */
void dt_fs_add_dir(struct hypfs_entry_dir *dir);
/*
 * hypfs.c: leaves of one's own, l[0, nr), whose row is row: each reads
 * through row->index_build with its index (the snapshot funcs of
 * dt_fs_snap_funcs()); their writes are their own funcs'.  At boot.
 */
void dt_fs_add_leaves(const struct hypfs_entry_leaf *l, unsigned int nr,
                      const struct dt_file *row);
/* The index of a leaf of dt_fs_add_leaves(), or -1. */
int dt_fs_leaf_index(const struct hypfs_entry *e);
#endif
/* hypfs.c: the row of leaf e (a leaf of /tracing). */
const struct dt_file *dt_fs_file(const struct hypfs_entry *e);
#ifdef DYNTRACE_WITH_BUFFERS
/* Is e a leaf of per_cpu/cpuN/? */
bool dt_fs_cpu_leaf(const struct hypfs_entry *e);
#endif
#ifdef DYNTRACE_WITH_GRAPH
/* The CPU of a leaf dt_fs_add_files() made from a cpu_build row, or -1. */
int dt_fs_added_cpu(const struct hypfs_entry *e);
#endif

/*
 * hypfs_write.c: each row's write handler, and every write's entry, which
 * runs the row's handler and logs a failure in error_log.
 */
dt_write_t dt_fs_tracer_write, dt_fs_filter_write, dt_fs_notrace_write;
dt_write_t dt_fs_tracing_on_write, dt_fs_trace_write, dt_fs_errlog_write;
#ifdef DYNTRACE_WITH_BUFFERS
dt_write_t dt_fs_bufsize_write;
#endif
#ifdef DYNTRACE_WITH_SCOPE
dt_write_t dt_fs_domains_write, dt_fs_cpumask_write;
#endif
dt_write_t dt_fs_logged_write;
#ifdef DYNTRACE_WITH_EVENTS
/*
 * The same for a leaf of one's own (not a row of /tracing's tables): run
 * f->write, and log a failure in error_log under f->name.
 */
int dt_fs_row_write(const struct dt_file *f, struct hypfs_entry_leaf *leaf,
                    XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                    unsigned int ulen);
#endif
#ifdef DYNTRACE_WITH_GRAPH
/* For the files of tracers and the profiler (dt_fs_add_files()): */
/* The word error_log names as the cause of the current write's failure. */
void dt_fs_set_bad_word(const char *w);
/* Writes that patch text need the livepatch permission too. */
int dt_fs_may_patch(void);
/* A boolean, as HypFS writes it (one byte). */
int dt_fs_bool_write(bool *val, XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                     unsigned int ulen);
/* A set of functions, in the filter language (set_function_filter's). */
int dt_fs_set_write(enum dt_set which, struct hypfs_entry_leaf *leaf,
                    XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                    unsigned int ulen);
/* A 32-bit unsigned value from 0 to max, as HypFS writes it. */
int dt_fs_uint_write(uint32_t *var, uint32_t max,
                     XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                     unsigned int ulen);
#endif
#ifdef DYNTRACE_WITH_EVENTS
/*
 * A written string, NUL-terminated exactly at its end, of at most max
 * bytes, in a new allocation; NULL and *rc (-ENOSPC, -EINVAL, -ENOMEM,
 * -EFAULT) on failure.
 */
char *dt_fs_copy_string(XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                        unsigned int ulen, unsigned int max, int *rc);
#endif
/* error_log's content. */
int dt_fs_errlog_build(struct dyntrace_text *t);

/*
 * hypfs_snap.c: a dynamic leaf's funcs (one owned snapshot per operation),
 * the directories' (a listing builds no snapshot), and the retry cache's
 * timer (at boot).
 */
void dt_fs_snap_funcs(struct hypfs_funcs *fn);
extern const struct hypfs_funcs dt_fs_dir_funcs;
void dt_fs_snap_init(void);
#ifdef DYNTRACE_WITH_BUFFERS
/* hypfs_snap.c: per_cpu/ and its cpuN template. */
extern struct hypfs_entry_dir dt_fs_per_cpu_dir, dt_fs_cpu_template;
#endif

#endif /* DYNTRACE_HYPFS_FILES_H */
