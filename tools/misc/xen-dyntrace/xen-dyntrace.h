/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: the dom0 side of Xen's dynamic function tracer.  Shared
 * declarations: the capture file (capture.c), symbol names (symbols.c) and
 * the commands (record.c, report.c, export-json.c, export-tracedat.c).
 */
#ifndef XEN_DYNTRACE_H
#define XEN_DYNTRACE_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the records are little-endian: build for a little-endian host"
#endif

/* Exit statuses (the man page's EXIT STATUS). */
#define XDT_EXIT_OK        0
#define XDT_EXIT_FAIL      1   /* Xen refused, I/O error, full disk */
#define XDT_EXIT_USAGE     2
#define XDT_EXIT_BADFILE   3   /* not a capture, or a version we cannot read */
#define XDT_EXIT_TRUNCATED 4   /* records up to the truncation were used */
#define XDT_EXIT_NOSUMMARY 5   /* whole, but no summary: the recorder died */
/* + N: record stopped by signal N in its set-up */
#define XDT_EXIT_SIGNAL    128

/*
 * per_cpu/cpuN/trace_pipe_raw: the hypervisor's public header (Xen's
 * xen/include/public/dyntrace.h, which Xen's tools see as <xen/dyntrace.h>).
 */
#include <xen/dyntrace.h>
/* Xen's trace points as events: their records, names and formats. */
#include <xen/dyntrace_events.h>

#define XDT_RAW_HEADER_SIZE sizeof(struct xen_dyntrace_raw_header)
#define XDT_RAW_RECORD_SIZE sizeof(struct xen_dyntrace_record)

/* DOMID_IDLE of Xen's public/xen.h: a record of the idle vCPU. */
#define XDT_DOMID_IDLE 0x7FFF

/*
 * The capture file (xen-dyntrace.1, CAPTURE FILE): a 32-byte file header,
 * then chunks, each a 16-byte chunk header and its payload.  Written
 * append-only, so a file cut anywhere keeps every whole chunk before the cut.
 */
#define XDT_CAP_MAGIC       "XDTCAPT\n"
#define XDT_CAP_VERSION     1
#define XDT_CAP_HEADER_SIZE 32
#define XDT_CHUNK_HEADER_SIZE 16
/*
 * No chunk is longer: record's largest is one raw read (HypFS hands out at
 * most a few MiB).  A longer length is corruption, not a cut.
 */
#define XDT_CHUNK_MAX       (1ULL << 30)

enum xdt_chunk_type {
    XDT_CHUNK_META = 1,         /* text: key=value lines */
    XDT_CHUNK_FUNCS = 2,        /* text: available_functions_addrs */
    XDT_CHUNK_RAW = 3,          /* one trace_pipe_raw read, as returned */
    XDT_CHUNK_END = 4,          /* text: key=value lines of the summary */
};

struct xdt_file_header {
    char magic[8];
    uint32_t version, header_size, chunk_header_size, reserved0;
    uint64_t reserved1;
};

struct xdt_chunk_header {
    uint32_t type, cpu;
    uint64_t len;
};

/* Writing (record). */
struct xdt_writer {
    int fd;
    const char *path;
    uint64_t size;              /* bytes of whole chunks written */
    int err;                    /* errno of the first failed write, 0 */
};

int xdt_writer_open(struct xdt_writer *w, const char *path);
int xdt_write_chunk(struct xdt_writer *w, uint32_t type, uint32_t cpu,
                    const void *data, size_t len);
int xdt_writer_close(struct xdt_writer *w);

/* A function name at an address. */
struct xdt_sym {
    uint64_t addr;
    char *name;
};

struct xdt_symtab {
    struct xdt_sym *sym;
    size_t nr;
};

int xdt_symtab_parse(struct xdt_symtab *t, const char *text, size_t len,
                     bool nm_format);
int xdt_symtab_load(struct xdt_symtab *t, const char *path);
const char *xdt_symtab_exact(const struct xdt_symtab *t, uint64_t addr);
const char *xdt_symtab_lookup(const struct xdt_symtab *t, uint64_t addr,
                              uint64_t *off);
void xdt_symtab_free(struct xdt_symtab *t);

/* Which records report and export show (filter.c). */
struct xdt_dom_word {
    uint16_t domid;
    int vcpu;                   /* -1: every vCPU */
    bool neg;
};

struct xdt_filter {
    uint8_t *cpus;              /* a bit per CPU, or NULL: every CPU */
    struct xdt_dom_word *doms;
    size_t nr_doms, dom_pos;    /* words, of which without '!' */
    char **funcs;
    size_t nr_funcs, func_pos;
    uint64_t from, to;
    bool has_from, has_to;
};

/* A filter and a bound on the records shown; iterate counts them. */
struct xdt_view {
    const struct xdt_filter *filter;
    uint64_t max_records;       /* 0: no bound */
    uint64_t shown;             /* records the last iterate handed on */
    bool capped;                /* it stopped at max_records */
};

struct xdt_capture;
struct xdt_event;
int xdt_filter_cpus(struct xdt_filter *f, const char *list);
int xdt_filter_domains(struct xdt_filter *f, const char *words);
int xdt_filter_funcs(struct xdt_filter *f, const char *patterns);
int xdt_parse_time(const char *s, uint64_t *ns);
/* -t SECONDS of record and profile: more than 0, at most 10^7. */
int xdt_parse_seconds(const char *s, double *seconds);
bool xdt_filter_active(const struct xdt_filter *f);
bool xdt_filter_pass(const struct xdt_filter *f, const struct xdt_capture *c,
                     const struct xdt_event *e);
void xdt_filter_free(struct xdt_filter *f);

/* Reading (report, export). */
struct xdt_event {
    bool lost;                  /* a loss marker: count in rec.ip */
    struct xen_dyntrace_record rec;
    /*
     * An event of Xen's trace points (rec.flags has XEN_DYNTRACE_FLAG_EVENT):
     * its id and the words read, its continuation's too (nr_words: those
     * present; fewer than rec.depth says if the continuation was lost).
     */
    uint32_t id;
    unsigned int nr_words;
    uint32_t word[XEN_DYNTRACE_EVENT_WORDS];
    /*
     * A function_graph return recorded with options/funcgraph-retval: the
     * value returned.  Its record is unpacked as any other return's (ip the
     * function, parent_ip the entry's time, depth the nesting).
     */
    bool has_retval;
    uint64_t retval;
};

static inline bool xdt_is_event(const struct xen_dyntrace_record *r)
{
    return r->flags & XEN_DYNTRACE_FLAG_EVENT;
}

/*
 * events.c: an event's class and name from the shared table (NULL for an id
 * it does not know), and its text, "NAME: FIELDS", as the hypervisor's
 * trace prints it.
 */
const char *xdt_event_name(uint32_t id, const char **cls);
void xdt_event_text(const struct xdt_event *e, char *buf, size_t len);
/* Is e a vCPU switch (sched_switch)? Then its words 0-3: prev, next. */
bool xdt_event_is_switch(const struct xdt_event *e);

#define XDT_MAX_CPUS 65536

struct xdt_cpu_chunks {
    uint64_t *off;              /* each RAW chunk's payload, in file order */
    size_t nr, cap;
};

struct xdt_capture {
    const uint8_t *data;        /* the file, mapped (or the caller's bytes) */
    size_t len;
    bool mapped;                /* data is the file's mapping, ours to unmap */
    bool allocated;             /* data was read (a pipe), ours to free */
    char *meta;                 /* META chunk text, NUL-terminated */
    char *end;                  /* END chunk text, or NULL if absent */
    struct xdt_symtab funcs;    /* from the FUNCS chunk */
    uint64_t text_high;         /* their addresses' high half */
    struct xdt_cpu_chunks *cpu; /* indexed by CPU */
    unsigned int nr_cpus;       /* highest CPU seen + 1 */
    uint64_t records, lost;
    uint64_t more;              /* of records: events' continuations */
    bool truncated;
    bool header_cut;            /* cut inside the file header: nothing */
    uint64_t whole_bytes;       /* bytes of whole chunks */
    struct xdt_view *view;      /* what iterate hands on, or NULL: all */
};

/*
 * Load a capture, every field checked; returns an exit status: OK, TRUNCATED
 * (the whole chunks before the cut are used), BADFILE (not a capture, or a
 * corrupt one: the error says which chunk and field) or FAIL.  _mem reads
 * len bytes at data, which must outlive c; path names them in errors.
 */
int xdt_capture_load(struct xdt_capture *c, const char *path);
int xdt_capture_load_mem(struct xdt_capture *c, const void *data, size_t len,
                         const char *path);
int xdt_capture_iterate(const struct xdt_capture *c,
                        int (*fn)(const struct xdt_event *e, void *arg),
                        void *arg);
const char *xdt_capture_meta(const struct xdt_capture *c, const char *key,
                             char *buf, size_t len);
/* Was the capture taken under function_graph (its settings' tracer=)? */
bool xdt_capture_is_graph(const struct xdt_capture *c);
bool xdt_capture_first_ts(const struct xdt_capture *c, uint64_t *ts);
void xdt_capture_free(struct xdt_capture *c);

/* Naming for output. */
struct xdt_names {
    const struct xdt_capture *cap;
    struct xdt_symtab map;      /* --symbols, may be empty */
};

void xdt_name_ip(const struct xdt_names *n, uint64_t ip, char *buf,
                 size_t len);
void xdt_name_parent(const struct xdt_names *n, uint64_t ip, char *buf,
                     size_t len);
void xdt_context(const struct xen_dyntrace_record *r, char *buf, size_t len);
/*
 * A value a function returned, as ftrace's funcgraph-retval prints it, the
 * error's name added: "-22 (EINVAL)" for -1 to -4095 (as a long, or as an
 * int with the upper half 0), "0x..." otherwise.
 */
void xdt_retval_text(uint64_t v, char *buf, size_t len);
/* Is v, so read, an error code (-1 to -4095)?  Its value in *err. */
bool xdt_retval_error(uint64_t v, long *err);

/*
 * /tracing (tracing.c; commands that talk to Xen).  Built without
 * libxenhypfs (make NO_HYPFS=1), the tool has report and export only.
 */
#define XDT_TRACING "/tracing/"
#ifndef XDT_NO_HYPFS
#include <stdlib.h>
#include <xenhypfs.h>

/* Opened, and /tracing there; NULL after saying why (cmd: who asks). */
xenhypfs_handle *xdt_tracing_open(const char *cmd);
/* A file's text (free() it), NULL with errno (ENOENT: no such file). */
char *xdt_tracing_read(xenhypfs_handle *fs, const char *file);
/* 0, or -1 with errno (not reported). */
int xdt_tracing_write(xenhypfs_handle *fs, const char *file, const char *val);
/*
 * The CPUs of per_cpu/ (a cpuN directory each), ascending, *nr of them:
 * free() it; NULL with errno (ENOENT: a Xen without per_cpu/).
 */
unsigned int *xdt_tracing_cpus(xenhypfs_handle *fs, unsigned int *nr);
#endif

/* The command traced for its lifetime (command.c). */
#include <sched.h>
#include <signal.h>
#include <sys/types.h>

struct xdt_command {
    pid_t pid;
    int go;                     /* the pipe that lets it run */
    int status;                 /* waitpid()'s, once done */
    bool done;
    sig_atomic_t forwarded;     /* stop signals passed on to it */
};

/*
 * Forked, held until xdt_command_go(); cpus: its affinity, or NULL;
 * stdout_is_ours: standard output is the capture (the command's goes to
 * standard error).
 */
#include <signal.h>
int xdt_command_start(struct xdt_command *cmd, char **argv,
                      const cpu_set_t *cpus, bool stdout_is_ours);
int xdt_command_go(struct xdt_command *cmd);
bool xdt_command_wait(struct xdt_command *cmd, bool wait,
                      const volatile sig_atomic_t *count,
                      const volatile sig_atomic_t *last);
void xdt_command_forward(struct xdt_command *cmd,
                         const volatile sig_atomic_t *count,
                         const volatile sig_atomic_t *last);
#define xdt_command_ended(cmd, wait) xdt_command_wait(cmd, wait, NULL, NULL)
/* Does path name the file behind standard output ("-" too)? */
bool xdt_is_stdout(const char *path);
void xdt_command_cancel(struct xdt_command *cmd);
void xdt_command_signal(struct xdt_command *cmd, int sig);
/* As a shell's $?: its status, 128 + N for signal N. */
int xdt_command_exit_status(const struct xdt_command *cmd);

/* Commands. */
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_why(int argc, char **argv);
int xdt_report_print(const struct xdt_capture *c, const struct xdt_names *n,
                     bool ns);
/* Write the whole export to f (trace.dat: a seekable file at offset 0). */
int export_json(const struct xdt_capture *c, const struct xdt_names *n,
                FILE *f);
int export_tracedat(const struct xdt_capture *c, const struct xdt_names *n,
                    FILE *f);

void xdt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* XEN_DYNTRACE_H */
