/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export -f trace.dat: trace-cmd's file, written by Debian's libtracecmd, so
 * that `trace-cmd report` and KernelShark open it.
 *
 * libtracecmd writes a trace.dat from a tracing directory (header_page,
 * header_event, the event formats, saved_cmdlines) and per-CPU files of
 * ring-buffer pages.  We make both: a directory describing the events we
 * emit, ftrace's `function` (ip, parent_ip) or, for a function_graph
 * capture, `funcgraph_entry` and `funcgraph_exit` (which trace-cmd prints in
 * the function_graph layout, a leaf's entry and exit on one line), with
 * each pCPU a CPU and each domain/vCPU a task ("d1v0", pid 4096 * domain + vCPU + 1; the idle vCPUs
 * are pid 0, "<idle>"), and the records encoded as the kernel's ring buffer
 * lays them out (a 16-byte page header; 4-byte event headers with a 27-bit
 * time delta; time-extend events for longer gaps; a loss marks the next page
 * "missed events" with the count stored, which trace-cmd reports as LOST).
 * kallsyms holds each traceable function at its patch site (the ip of our
 * records), plus the --symbols map when given.
 *
 * The output API is libtracecmd's exported ABI (libtracecmd.so.1) without a
 * public header in Debian 12's libtracecmd-dev 1.3 (trace-cmd.h has the
 * reading side): its prototypes are declared here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xen-dyntrace.h"

#ifdef XDT_NO_TRACECMD

int export_tracedat(const struct xdt_capture *c, const struct xdt_names *n,
                    const char *out)
{
    (void)c;
    (void)n;
    (void)out;
    xdt_err("export: this build has no libtracecmd: export -f trace.dat on a "
            "machine with Debian's libtracecmd (the capture file is portable)");

    return XDT_EXIT_FAIL;
}

#else

#include <trace-cmd.h>

struct tracecmd_output;
struct tracecmd_event_list;
struct tracecmd_output *tracecmd_output_create(const char *output_file);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle,
                                  const char *tracing_dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle,
                                 const char *kallsyms);
int tracecmd_output_set_version(struct tracecmd_output *handle,
                                int file_version);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
                                  struct tracecmd_event_list *list);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_append_cpu_data(struct tracecmd_output *handle, int cpus,
                             char * const *cpu_data_files);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
void tracecmd_output_close(struct tracecmd_output *handle);

#define FUNCTION_EVENT_ID 1
#define GRAPH_ENT_ID      2
#define GRAPH_EXIT_ID     3
/* Event sizes: the common fields (8), then the event's own. */
#define FUNCTION_SIZE     24            /* ip 8, parent_ip 8 */
#define GRAPH_ENT_SIZE    24            /* func 8, depth 4, padding 4 */
#define GRAPH_EXIT_SIZE   40            /* func, depth, overrun, calltime, rettime */
#define EVENT_MAX_SIZE    GRAPH_EXIT_SIZE
#define PAGE_HEADER_SIZE  16            /* u64 timestamp, local_t commit */
#define TYPE_TIME_EXTEND  30
#define DELTA_BITS        27
#define MISSED_EVENTS     (1ULL << 31)
#define MISSED_STORED     (1ULL << 30)
/* ftrace's common_flags. */
#define TRACE_FLAG_IRQS_OFF 0x01
#define TRACE_FLAG_HARDIRQ  0x08
#define TRACE_FLAG_NMI      0x40

static const char header_page_fmt[] =
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:16;\tsize:%u;\tsigned:1;\n";

static const char header_event[] =
    "# compressed entry header\n"
    "\ttype_len    :    5 bits\n"
    "\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n"
    "\n"
    "\tpadding     : type == 29\n"
    "\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n"
    "\tdata max type_len  == 28\n";

static const char function_format[] =
    "name: function\n"
    "ID: 1\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

#define COMMON_FIELDS \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

/* ftrace's function_graph events, with the kernel's field names. */
static const char graph_entry_format[] =
    "name: funcgraph_entry\n"
    "ID: 2\n"
    "format:\n"
    COMMON_FIELDS
    "\n"
    "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

static const char graph_exit_format[] =
    "name: funcgraph_exit\n"
    "ID: 3\n"
    "format:\n"
    COMMON_FIELDS
    "\n"
    "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int overrun;\toffset:20;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned long long calltime;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long long rettime;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", "
    "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, "
    "REC->overrun\n";

/* Tasks: pid 4096 * domain + vCPU + 1 (domains below 32768, vCPUs 4096). */
#define PID_LIMIT (32768 * 4096)

static int pid_of(const struct xen_dyntrace_record *r)
{
    return r->domid == XDT_DOMID_IDLE ? 0 : r->domid * 4096 + r->vcpu + 1;
}

static int put_file(const char *dir, const char *name, const char *text)
{
    char *path;
    FILE *f;
    int bad;

    if ( asprintf(&path, "%s/%s", dir, name) < 0 )
        return -1;
    f = fopen(path, "w");
    free(path);
    if ( !f )
        return -1;
    fputs(text, f);
    bad = ferror(f);
    bad |= fclose(f);

    return bad ? -1 : 0;
}

/* One CPU's pages, appended to a file. */
struct pager {
    FILE *f;
    uint8_t *page;
    unsigned int size, used;    /* page size; bytes of data used */
    uint64_t last_ts, missed;
    bool started;
};

static int page_flush(struct pager *p)
{
    uint64_t commit = p->used;

    if ( !p->started )
        return 0;
    if ( p->missed )
    {
        commit |= MISSED_EVENTS | MISSED_STORED;
        memcpy(p->page + PAGE_HEADER_SIZE + p->used, &p->missed, 8);
        p->missed = 0;
    }
    memcpy(p->page + 8, &commit, 8);
    if ( fwrite(p->page, p->size, 1, p->f) != 1 )
        return -1;
    p->started = false;

    return 0;
}

/* ftrace's common_flags of a record. */
static uint8_t common_flags(const struct xen_dyntrace_record *r)
{
    return ((r->flags & XEN_DYNTRACE_FLAG_IRQS_OFF) ? TRACE_FLAG_IRQS_OFF : 0) |
           ((r->flags & XEN_DYNTRACE_FLAG_IN_IRQ) ? TRACE_FLAG_HARDIRQ : 0) |
           ((r->flags & XEN_DYNTRACE_FLAG_IN_NMI) ? TRACE_FLAG_NMI : 0);
}

/*
 * One event of r's context at time ts: type, and size bytes of which the
 * first 8 (the common fields) are filled here, the rest from data.
 */
static int page_event(struct pager *p, const struct xen_dyntrace_record *r,
                      uint64_t ts, uint16_t type, const uint8_t *data,
                      unsigned int size)
{
    const unsigned int need = 8 + 4 + EVENT_MAX_SIZE;   /* extend + event */
    uint64_t delta;
    uint32_t hdr;
    int32_t pid = pid_of(r);
    uint8_t *d;

    /* Room for the largest event and a stored loss count. */
    if ( p->started && p->used + need + 8 > p->size - PAGE_HEADER_SIZE &&
         page_flush(p) )
        return -1;
    if ( !p->started )
    {
        memset(p->page, 0, p->size);
        memcpy(p->page, &ts, 8);
        p->used = 0;
        p->last_ts = ts;
        p->started = true;
    }
    d = p->page + PAGE_HEADER_SIZE + p->used;
    /* Per-CPU order is the ring's; a stamp earlier than its predecessor
     * (an NMI's) is shown at the predecessor's time. */
    delta = ts > p->last_ts ? ts - p->last_ts : 0;
    if ( delta >> DELTA_BITS )
    {
        uint32_t hi = (uint32_t)(delta >> DELTA_BITS);

        hdr = TYPE_TIME_EXTEND | (uint32_t)(delta & ((1u << DELTA_BITS) - 1))
                                 << 5;
        memcpy(d, &hdr, 4);
        memcpy(d + 4, &hi, 4);
        d += 8;
        p->used += 8;
        delta = 0;
    }
    hdr = (size / 4) | (uint32_t)delta << 5;
    memcpy(d, &hdr, 4);
    memcpy(d + 4, &type, 2);
    d[6] = common_flags(r);
    d[7] = 0;
    memcpy(d + 8, &pid, 4);
    memcpy(d + 12, data + 8, size - 8);
    p->used += 4 + size;
    if ( ts > p->last_ts )
        p->last_ts = ts;

    return 0;
}

/* A function tracer's record: a function event. */
static int page_function(struct pager *p, const struct xen_dyntrace_record *r)
{
    uint8_t data[FUNCTION_SIZE] = { 0 };

    memcpy(data + 8, &r->ip, 8);
    memcpy(data + 16, &r->parent_ip, 8);

    return page_event(p, r, r->ts, FUNCTION_EVENT_ID, data, FUNCTION_SIZE);
}

/*
 * A function_graph record (user guide, "Raw format"): an entry is a
 * funcgraph_entry; a return (or a call longer than tracing_thresh, whose
 * entry was not recorded) a funcgraph_exit; a leaf both, the entry at the
 * call's time, so that trace-cmd prints it on one line.  ftrace's depth
 * counts from 0, ours from 1.
 */
static int page_graph(struct pager *p, const struct xen_dyntrace_record *r)
{
    int32_t depth = r->depth ? r->depth - 1 : 0;     /* the last byte */
    uint8_t ent[GRAPH_ENT_SIZE] = { 0 }, ex[GRAPH_EXIT_SIZE] = { 0 };
    uint64_t calltime = r->parent_ip;

    memcpy(ent + 8, &r->ip, 8);
    memcpy(ent + 16, &depth, 4);
    if ( !(r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) )
        return page_event(p, r, r->ts, GRAPH_ENT_ID, ent, GRAPH_ENT_SIZE);
    if ( (r->flags & XEN_DYNTRACE_FLAG_GRAPH_ENT) &&
         page_event(p, r, calltime, GRAPH_ENT_ID, ent, GRAPH_ENT_SIZE) )
        return -1;
    memcpy(ex + 8, &r->ip, 8);
    memcpy(ex + 16, &depth, 4);
    memcpy(ex + 24, &calltime, 8);
    memcpy(ex + 32, &r->ts, 8);

    return page_event(p, r, r->ts, GRAPH_EXIT_ID, ex, GRAPH_EXIT_SIZE);
}

struct page_ctx {
    struct pager *pg;
    uint8_t *seen;
    int *pids;                  /* the pids seen, in the order first seen */
    size_t nr_pids, cap_pids;
    bool graph;
};

static int page_one(const struct xdt_event *e, void *arg)
{
    struct page_ctx *pc = arg;
    struct pager *p = &pc->pg[e->rec.cpu];
    int pid;

    if ( e->lost )
    {
        /* The next page carries it, as the kernel's would. */
        if ( page_flush(p) )
            return -1;
        p->missed += e->rec.ip;
        return 0;
    }
    pid = pid_of(&e->rec);
    if ( pid > 0 && pid < PID_LIMIT && e->rec.vcpu < 4096 &&
         !(pc->seen[pid / 8] & (1u << (pid % 8))) )
    {
        if ( pc->nr_pids == pc->cap_pids )
        {
            size_t cap = pc->cap_pids ? 2 * pc->cap_pids : 64;
            int *n = realloc(pc->pids, cap * sizeof(*n));

            if ( !n )
                return -1;
            pc->pids = n;
            pc->cap_pids = cap;
        }
        pc->pids[pc->nr_pids++] = pid;
        pc->seen[pid / 8] |= 1u << (pid % 8);
    }

    return pc->graph ? page_graph(p, &e->rec) : page_function(p, &e->rec);
}

/* The events written: function, or function_graph's two. */
static const struct {
    const char *name, *format;
    bool graph;
} events[] = {
    { "function", function_format, false },
    { "funcgraph_entry", graph_entry_format, true },
    { "funcgraph_exit", graph_exit_format, true },
};
#define NR_EVENTS (sizeof(events) / sizeof(events[0]))

static int write_dir(const char *dir, unsigned int page_size, bool graph)
{
    char buf[600];
    unsigned int i;
    int bad;

    snprintf(buf, sizeof(buf), "%s/events", dir);
    bad = mkdir(buf, 0700);
    snprintf(buf, sizeof(buf), "%s/events/ftrace", dir);
    bad |= mkdir(buf, 0700);
    for ( i = 0; i < NR_EVENTS; i++ )
    {
        if ( events[i].graph != graph )
            continue;
        snprintf(buf, sizeof(buf), "%s/events/ftrace/%s", dir, events[i].name);
        bad |= mkdir(buf, 0700);
        snprintf(buf, sizeof(buf), "events/ftrace/%s/format", events[i].name);
        bad |= put_file(dir, buf, events[i].format);
    }
    if ( bad )
        return -1;
    snprintf(buf, sizeof(buf), header_page_fmt, page_size - PAGE_HEADER_SIZE);
    if ( put_file(dir, "events/header_page", buf) ||
         put_file(dir, "events/header_event", header_event) ||
         put_file(dir, "printk_formats", "") )
        return -1;

    return 0;
}

static int by_pid(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/*
 * saved_cmdlines: one task per domain/vCPU seen, by pid (the list of those
 * seen, not every possible pid: there are 2^27).
 */
static int write_cmdlines(const char *dir, int *pids, size_t nr)
{
    char *path;
    FILE *f;
    size_t i;
    int bad;

    if ( asprintf(&path, "%s/saved_cmdlines", dir) < 0 )
        return -1;
    f = fopen(path, "w");
    free(path);
    if ( !f )
        return -1;
    if ( nr )
        qsort(pids, nr, sizeof(*pids), by_pid);
    for ( i = 0; i < nr; i++ )
        fprintf(f, "%d d%uv%u\n", pids[i], (pids[i] - 1) / 4096,
                (pids[i] - 1) % 4096);
    bad = ferror(f);
    bad |= fclose(f);

    return bad ? -1 : 0;
}

static int write_kallsyms(const char *path, const struct xdt_capture *c,
                          const struct xdt_names *n)
{
    FILE *f = fopen(path, "w");
    size_t i;
    int bad;

    if ( !f )
        return -1;
    for ( i = 0; i < c->funcs.nr; i++ )
        fprintf(f, "%016" PRIx64 " t %s\n", c->funcs.sym[i].addr,
                c->funcs.sym[i].name);
    for ( i = 0; i < n->map.nr; i++ )
        if ( !xdt_symtab_exact(&c->funcs, n->map.sym[i].addr) )
            fprintf(f, "%016" PRIx64 " t %s\n", n->map.sym[i].addr,
                    n->map.sym[i].name);
    bad = ferror(f);
    bad |= fclose(f);

    return bad ? -1 : 0;
}

static void remove_tree(const char *dir, unsigned int cpus)
{
    static const char *const files[] = {
        "events/ftrace", "events/header_page", "events/header_event",
        "events", "printk_formats", "saved_cmdlines", "kallsyms",
    };
    char buf[600];
    unsigned int i;

    for ( i = 0; i < cpus; i++ )
    {
        snprintf(buf, sizeof(buf), "%s/cpu%u", dir, i);
        unlink(buf);
    }
    for ( i = 0; i < NR_EVENTS; i++ )
    {
        snprintf(buf, sizeof(buf), "%s/events/ftrace/%s/format", dir,
                 events[i].name);
        unlink(buf);
        snprintf(buf, sizeof(buf), "%s/events/ftrace/%s", dir, events[i].name);
        rmdir(buf);
    }
    for ( i = 0; i < sizeof(files) / sizeof(files[0]); i++ )
    {
        snprintf(buf, sizeof(buf), "%s/%s", dir, files[i]);
        if ( unlink(buf) )
            rmdir(buf);
    }
    rmdir(dir);
}

int export_tracedat(const struct xdt_capture *c, const struct xdt_names *n,
                    const char *out)
{
    const char *tmpdir = getenv("TMPDIR");
    unsigned int page_size = sysconf(_SC_PAGESIZE), cpu, cpus = c->nr_cpus;
    struct pager *pg = calloc(cpus ? cpus : 1, sizeof(*pg));
    char dir[256], **files = calloc(cpus ? cpus : 1, sizeof(char *));
    char *tmp_out = NULL, *kallsyms = NULL;
    struct tracecmd_output *h = NULL;
    struct page_ctx pc = { .pg = NULL };
    int rc = XDT_EXIT_FAIL;

    snprintf(dir, sizeof(dir), "%s/xen-dyntrace.XXXXXX",
             tmpdir && *tmpdir ? tmpdir : "/tmp");
    if ( !pg || !files || !mkdtemp(dir) )
    {
        xdt_err("export: temporary directory: %s", strerror(errno));
        free(pg);
        free(files);
        return XDT_EXIT_FAIL;
    }
    pc.graph = xdt_capture_is_graph(c);
    if ( write_dir(dir, page_size, pc.graph) ||
         asprintf(&kallsyms, "%s/kallsyms", dir) < 0 ||
         write_kallsyms(kallsyms, c, n) )
    {
        xdt_err("export: writing the tracing files in %s: %s", dir,
                strerror(errno));
        goto out;
    }

    for ( cpu = 0; cpu < cpus; cpu++ )
    {
        if ( asprintf(&files[cpu], "%s/cpu%u", dir, cpu) < 0 )
            goto out;
        pg[cpu].size = page_size;
        pg[cpu].page = malloc(page_size);
        pg[cpu].f = fopen(files[cpu], "w");
        if ( !pg[cpu].page || !pg[cpu].f )
        {
            xdt_err("export: %s: %s", files[cpu], strerror(errno));
            goto out;
        }
    }
    pc.pg = pg;
    /* 16 MiB, of which only the pages of the pids seen are touched. */
    pc.seen = mmap(NULL, PID_LIMIT / 8, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if ( pc.seen == MAP_FAILED )
    {
        pc.seen = NULL;
        goto out;
    }
    if ( xdt_capture_iterate(c, page_one, &pc) )
        goto io;
    for ( cpu = 0; cpu < cpus; cpu++ )
    {
        int bad = page_flush(&pg[cpu]) | ferror(pg[cpu].f);

        bad |= fclose(pg[cpu].f);
        pg[cpu].f = NULL;
        if ( bad )
            goto io;
    }

    if ( write_cmdlines(dir, pc.pids, pc.nr_pids) )
        goto io;
    if ( asprintf(&tmp_out, "%s.tmp", out) < 0 )
        goto out;
    h = tracecmd_output_create(tmp_out);
    if ( !h )
    {
        xdt_err("export: %s: %s", tmp_out, strerror(errno));
        goto out;
    }
    tracecmd_set_quiet(h, true);
    /*
     * libtracecmd 1.3 warns "Cannot find description for buffer" while
     * writing a version 6 file's only (top) buffer, which it then writes
     * correctly: keep its errors, not its warnings.
     */
    tracecmd_set_loglevel(TEP_LOG_ERROR);
    if ( tracecmd_output_set_trace_dir(h, dir) ||
         tracecmd_output_set_kallsyms(h, kallsyms) ||
         tracecmd_output_set_version(h, 6) )
    {
        xdt_err("export: libtracecmd refused the output settings");
        goto out_close;
    }
    tracecmd_set_out_clock(h, "local");
    if ( tracecmd_output_write_headers(h, NULL) ||
         tracecmd_write_cmdlines(h) ||
         tracecmd_append_cpu_data(h, cpus, files) )
    {
        xdt_err("export: libtracecmd could not write %s: %s", tmp_out,
                strerror(errno));
        goto out_close;
    }
    tracecmd_output_close(h);
    h = NULL;
    if ( rename(tmp_out, out) )
    {
        xdt_err("export: %s: %s", out, strerror(errno));
        goto out;
    }
    rc = XDT_EXIT_OK;
    goto out;

 io:
    xdt_err("export: writing pages in %s: %s", dir, strerror(errno));
    goto out;
 out_close:
    tracecmd_output_close(h);
 out:
    if ( rc && tmp_out )
        unlink(tmp_out);
    for ( cpu = 0; cpu < cpus; cpu++ )
    {
        if ( pg[cpu].f )
            fclose(pg[cpu].f);
        free(pg[cpu].page);
        free(files[cpu]);
    }
    free(pg);
    if ( pc.seen )
        munmap(pc.seen, PID_LIMIT / 8);
    free(pc.pids);
    free(files);
    free(kallsyms);
    free(tmp_out);
    remove_tree(dir, cpus);

    return rc;
}

#endif /* XDT_NO_TRACECMD */
