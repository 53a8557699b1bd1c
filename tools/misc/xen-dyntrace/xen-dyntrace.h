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
/* + N: record stopped by signal N in its set-up */
#define XDT_EXIT_SIGNAL    128

/*
 * per_cpu/cpuN/trace_pipe_raw: the hypervisor's public header (Xen's
 * xen/include/public/dyntrace.h, which Xen's tools see as <xen/dyntrace.h>).
 */
#include <xen/dyntrace.h>

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

/* Reading (report, export). */
struct xdt_event {
    bool lost;                  /* a loss marker: count in rec.ip */
    struct xen_dyntrace_record rec;
};

#define XDT_MAX_CPUS 65536

struct xdt_cpu_chunks {
    uint64_t *off;              /* each RAW chunk's payload, in file order */
    size_t nr, cap;
};

struct xdt_capture {
    const uint8_t *data;        /* the file, mapped (or the caller's bytes) */
    size_t len;
    bool mapped;                /* data is the file's mapping, ours to unmap */
    char *meta;                 /* META chunk text, NUL-terminated */
    char *end;                  /* END chunk text, or NULL if absent */
    struct xdt_symtab funcs;    /* from the FUNCS chunk */
    struct xdt_cpu_chunks *cpu; /* indexed by CPU */
    unsigned int nr_cpus;       /* highest CPU seen + 1 */
    uint64_t records, lost;
    bool truncated;
    uint64_t whole_bytes;       /* bytes of whole chunks */
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

/* Commands. */
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int xdt_report_print(const struct xdt_capture *c, const struct xdt_names *n,
                     bool ns);
int export_json(const struct xdt_capture *c, const struct xdt_names *n,
                const char *out);
int export_tracedat(const struct xdt_capture *c, const struct xdt_names *n,
                    const char *out);

void xdt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* XEN_DYNTRACE_H */
