/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export -f trace.dat: trace-cmd's file, version 6, written here from the
 * format's documentation (trace-cmd.dat.v6(5)), so that `trace-cmd report`
 * and KernelShark open it.  No library: what a trace.dat holds is a
 * description of the events (header_page, header_event, each event's
 * format), kallsyms, saved_cmdlines, and per-CPU ring-buffer pages.
 *
 * The events are ftrace's `function` (ip, parent_ip) or, for a
 * function_graph capture, `funcgraph_entry` and `funcgraph_exit` (which
 * trace-cmd prints in the function_graph layout, a leaf's entry and exit on
 * one line).  Each pCPU is a CPU and each domain/vCPU a task ("d1v0", pid
 * 4096 * domain + vCPU + 1; the idle vCPUs are pid 0, "<idle>").  Records
 * are encoded as the kernel's ring buffer lays them out (a 16-byte page
 * header; 4-byte event headers with a 27-bit time delta; time-extend events
 * for longer gaps; a loss marks the next page "missed events" with the count
 * stored, which trace-cmd reports as LOST).  kallsyms holds each traceable
 * function at its patch site (the ip of our records), plus the --symbols map
 * when given.  The file is little-endian with 8-byte longs, as the host is
 * (xen-dyntrace.h).
 *
 * Events of Xen's trace points (record -e) are written when the capture
 * has any: a vCPU switch as the kernel's sched/sched_switch, with the
 * tasks' names and pids above (so KernelShark draws each pCPU with the vCPUs
 * that ran on it, and each vCPU's task plot), and every other event as
 * xen/xen_event, its text ("NAME: FIELDS", as report prints it) in a string
 * field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xen-dyntrace.h"

#define FUNCTION_EVENT_ID 1
#define GRAPH_ENT_ID      2
#define GRAPH_EXIT_ID     3
#define SCHED_SWITCH_ID   4
#define XEN_EVENT_ID      5
/* Event sizes: the common fields (8), then the event's own. */
#define FUNCTION_SIZE     24            /* ip 8, parent_ip 8 */
#define GRAPH_ENT_SIZE    24            /* func 8, depth 4, padding 4 */
/* func, retval, depth, overrun, calltime, rettime */
#define GRAPH_EXIT_SIZE   48
/* prev_comm 16, prev_pid, prev_prio, prev_state 8, next_comm 16, ... */
#define SCHED_SWITCH_SIZE 64
/*
 * id 4, text's __data_loc 4, then the text: at most 96 bytes, so that the
 * event's length fits its header (type_len up to 28 words).
 */
#define XEN_EVENT_TEXT    96
#define XEN_EVENT_SIZE    (16 + XEN_EVENT_TEXT)
#define EVENT_MAX_SIZE    XEN_EVENT_SIZE
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
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;"
    "\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n";

#define COMMON_FIELDS \
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;" \
    "\tsigned:0;\n" \
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
    "\tfield:unsigned long retval;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:int depth;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned int overrun;\toffset:28;\tsize:4;\tsigned:0;\n"
    "\tfield:unsigned long long calltime;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:unsigned long long rettime;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d retval: "
    "%lx\", (void *)REC->func, REC->depth, REC->calltime, REC->rettime, "
    "REC->overrun, REC->retval\n";

/* The kernel's sched_switch (the fields KernelShark's sched plugin reads). */
static const char sched_switch_format[] =
    "name: sched_switch\n"
    "ID: 4\n"
    "format:\n"
    COMMON_FIELDS
    "\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
    "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> "
    "next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, "
    "REC->prev_pid, REC->prev_prio, REC->prev_state, REC->next_comm, "
    "REC->next_pid, REC->next_prio\n";

/* Every other event of Xen's trace points: its id and its text. */
static const char xen_event_format[] =
    "name: xen_event\n"
    "ID: 5\n"
    "format:\n"
    COMMON_FIELDS
    "\n"
    "\tfield:unsigned int id;\toffset:8;\tsize:4;\tsigned:0;\n"
    "\tfield:__data_loc char[] text;\toffset:12;\tsize:4;\tsigned:0;\n"
    "\n"
    "print fmt: \"%s\", __get_str(text)\n";

/* Tasks: pid 4096 * domain + vCPU + 1 (domains below 32768, vCPUs 4096). */
#define PID_LIMIT (32768 * 4096)

static int pid_of_vcpu(uint32_t domid, uint32_t vcpu)
{
    return domid == XDT_DOMID_IDLE ? 0
                                   : (domid & 0x7fff) * 4096 +
                                     (vcpu & 4095) + 1;
}

static int pid_of(const struct xen_dyntrace_record *r)
{
    return pid_of_vcpu(r->domid, r->vcpu);
}

/*
 * One CPU's pages: counted (fd < 0), or written to fd from base on.  The
 * pages come out the same both times: they depend on the records alone.
 */
struct pager {
    int fd;
    uint64_t base, pages;
    uint8_t *page;
    unsigned int size, used;    /* page size; bytes of data used */
    uint64_t last_ts, missed;
    bool started;
};

/* Write len bytes at off, all of them. */
static int write_at(int fd, const uint8_t *buf, size_t len, uint64_t off)
{
    while ( len )
    {
        ssize_t n = pwrite(fd, buf, len, off);

        if ( n < 0 && errno == EINTR )
            continue;
        if ( n <= 0 )
        {
            if ( !n )
                errno = EIO;
            return -1;
        }
        buf += n;
        len -= n;
        off += n;
    }

    return 0;
}

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
    if ( p->fd >= 0 &&
         write_at(p->fd, p->page, p->size, p->base + p->pages * p->size) )
        return -1;
    p->pages++;
    p->started = false;

    return 0;
}

/* ftrace's common_flags of a record. */
static uint8_t common_flags(const struct xen_dyntrace_record *r)
{
    uint8_t f = 0;

    if ( r->flags & XEN_DYNTRACE_FLAG_IRQS_OFF )
        f |= TRACE_FLAG_IRQS_OFF;
    if ( r->flags & XEN_DYNTRACE_FLAG_IN_IRQ )
        f |= TRACE_FLAG_HARDIRQ;
    if ( r->flags & XEN_DYNTRACE_FLAG_IN_NMI )
        f |= TRACE_FLAG_NMI;

    return f;
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
        /* A CPU's page buffer, at its first record (a capture may name
         * up to XDT_MAX_CPUS CPUs, most of them without records). */
        if ( !p->page && !(p->page = malloc(p->size)) )
            return -1;
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
static int page_graph(struct pager *p, const struct xdt_event *e)
{
    const struct xen_dyntrace_record *r = &e->rec;
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
    /* The kernel's layout with CONFIG_FUNCTION_GRAPH_RETVAL: 0 if none. */
    memcpy(ex + 8, &r->ip, 8);
    if ( e->has_retval )
        memcpy(ex + 16, &e->retval, 8);
    memcpy(ex + 24, &depth, 4);
    memcpy(ex + 32, &calltime, 8);
    memcpy(ex + 40, &r->ts, 8);

    return page_event(p, r, r->ts, GRAPH_EXIT_ID, ex, GRAPH_EXIT_SIZE);
}

/* A task's name, "d1v0" ("<idle>" for pid 0), in a 16-byte comm. */
static void comm_of(char comm[16], int pid)
{
    memset(comm, 0, 16);
    if ( pid )
        snprintf(comm, 16, "d%uv%u", (pid - 1) / 4096, (pid - 1) % 4096);
    else
        snprintf(comm, 16, "<idle>");
}

/* An event of Xen's trace points: sched_switch, or xen_event. */
static int page_xen_event(struct pager *p, const struct xdt_event *e)
{
    uint8_t data[EVENT_MAX_SIZE] = { 0 };
    char text[256];
    uint32_t loc;
    size_t len;

    if ( xdt_event_is_switch(e) )
    {
        int32_t prev = pid_of_vcpu(e->word[0], e->word[1]);
        int32_t next = pid_of_vcpu(e->word[2], e->word[3]), prio = 120;

        comm_of((char *)data + 8, prev);
        memcpy(data + 24, &prev, 4);
        memcpy(data + 28, &prio, 4);
        comm_of((char *)data + 40, next);
        memcpy(data + 56, &next, 4);
        memcpy(data + 60, &prio, 4);
        return page_event(p, &e->rec, e->rec.ts, SCHED_SWITCH_ID, data,
                          SCHED_SWITCH_SIZE);
    }
    xdt_event_text(e, text, sizeof(text));
    len = strnlen(text, XEN_EVENT_TEXT - 1);
    memcpy(data + 8, &e->id, 4);
    loc = (uint32_t)(len + 1) << 16 | 16;
    memcpy(data + 12, &loc, 4);
    memcpy(data + 16, text, len);

    return page_event(p, &e->rec, e->rec.ts, XEN_EVENT_ID, data,
                      16 + (len + 1 + 3) / 4 * 4);
}

struct page_ctx {
    struct pager *pg;
    uint8_t *seen;              /* NULL: the pids are known already */
    int *pids;                  /* the pids seen, in the order first seen */
    size_t nr_pids, cap_pids;
    bool graph;
    bool events;                /* the capture has events of trace points */
};

/* Note a task seen (while counting), for saved_cmdlines. */
static int see_pid(struct page_ctx *pc, int pid)
{
    if ( !pc->seen || pid <= 0 || pid >= PID_LIMIT ||
         (pc->seen[pid / 8] & (1u << (pid % 8))) )
        return 0;
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

    return 0;
}

static int page_one(const struct xdt_event *e, void *arg)
{
    struct page_ctx *pc = arg;
    struct pager *p = &pc->pg[e->rec.cpu];

    if ( e->lost )
    {
        /* The next page carries it, as the kernel's would. */
        if ( page_flush(p) )
            return -1;
        p->missed += e->rec.ip;
        return 0;
    }
    if ( (e->rec.vcpu < 4096 && see_pid(pc, pid_of(&e->rec))) ||
         (xdt_event_is_switch(e) &&
          (see_pid(pc, pid_of_vcpu(e->word[0], e->word[1])) ||
           see_pid(pc, pid_of_vcpu(e->word[2], e->word[3])))) )
        return -1;
    if ( xdt_is_event(&e->rec) )
    {
        pc->events = true;
        return page_xen_event(p, e);
    }

    return pc->graph ? page_graph(p, e) : page_function(p, &e->rec);
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

static int by_pid(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/*
 * saved_cmdlines: one task per domain/vCPU seen, by pid (the list of those
 * seen, not every possible pid: there are 2^27).
 */
static void put_cmdlines(FILE *f, int *pids, size_t nr)
{
    size_t i;

    if ( nr )
        qsort(pids, nr, sizeof(*pids), by_pid);
    for ( i = 0; i < nr; i++ )
        fprintf(f, "%d d%uv%u\n", pids[i], (pids[i] - 1) / 4096,
                (pids[i] - 1) % 4096);
}

static void put_kallsyms(FILE *f, const struct xdt_capture *c,
                         const struct xdt_names *n)
{
    size_t i;

    for ( i = 0; i < c->funcs.nr; i++ )
        fprintf(f, "%016" PRIx64 " t %s\n", c->funcs.sym[i].addr,
                c->funcs.sym[i].name);
    for ( i = 0; i < n->map.nr; i++ )
        if ( !xdt_symtab_exact(&c->funcs, n->map.sym[i].addr) )
            fprintf(f, "%016" PRIx64 " t %s\n", n->map.sym[i].addr,
                    n->map.sym[i].name);
}

/* A text built in memory, then written with its size. */
struct text {
    char *buf;
    size_t len;
    FILE *f;
};

static int text_open(struct text *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);

    return t->f ? 0 : -1;
}

static int text_close(struct text *t)
{
    int bad = !t->f || ferror(t->f);

    if ( t->f )
        bad |= fclose(t->f);
    t->f = NULL;

    return bad ? -1 : 0;
}

static void put_u16(FILE *f, uint16_t v) { fwrite(&v, 2, 1, f); }
static void put_u32(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }
static void put_u64(FILE *f, uint64_t v) { fwrite(&v, 8, 1, f); }

/* A size (4 or 8 bytes, as the field is) and the bytes it counts. */
static void put_sized(FILE *f, unsigned int width, const void *data,
                      size_t len)
{
    if ( width == 4 )
        put_u32(f, len);
    else
        put_u64(f, len);
    if ( len )
        fwrite(data, len, 1, f);
}

/*
 * The trace clock: Xen's NOW(), nanoseconds on one time base for every CPU,
 * is what ftrace calls "local".
 */
static const char trace_clock[] = "[local] global\n";

/* The header, up to the "flyrecord" section's table (trace-cmd.dat.v6). */
static void put_header(FILE *f, unsigned int page_size, bool graph,
                       bool xen_events, const struct text *kallsyms,
                       const struct text *cmdlines, unsigned int cpus)
{
    static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i',
                                  'n', 'g' };
    char page_fmt[sizeof(header_page_fmt) + 16];
    unsigned int i, nr = 0;

    fwrite(magic, sizeof(magic), 1, f);
    fwrite("6", 2, 1, f);                       /* version, NUL-terminated */
    fputc(0, f);                                /* little-endian */
    fputc(8, f);                                /* sizeof(long) */
    put_u32(f, page_size);

    snprintf(page_fmt, sizeof(page_fmt), header_page_fmt,
             page_size - PAGE_HEADER_SIZE);
    fwrite("header_page", 12, 1, f);
    put_sized(f, 8, page_fmt, strlen(page_fmt));
    fwrite("header_event", 13, 1, f);
    put_sized(f, 8, header_event, strlen(header_event));

    /* The ftrace events; then sched and xen, for events of trace points. */
    for ( i = 0; i < NR_EVENTS; i++ )
        nr += events[i].graph == graph;
    put_u32(f, nr);
    for ( i = 0; i < NR_EVENTS; i++ )
        if ( events[i].graph == graph )
            put_sized(f, 8, events[i].format, strlen(events[i].format));
    put_u32(f, xen_events ? 2 : 0);
    if ( xen_events )
    {
        fwrite("sched", 6, 1, f);
        put_u32(f, 1);
        put_sized(f, 8, sched_switch_format, strlen(sched_switch_format));
        fwrite("xen", 4, 1, f);
        put_u32(f, 1);
        put_sized(f, 8, xen_event_format, strlen(xen_event_format));
    }

    put_sized(f, 4, kallsyms->buf, kallsyms->len);
    put_sized(f, 4, "", 0);                     /* printk formats */
    put_sized(f, 8, cmdlines->buf, cmdlines->len);
    put_u32(f, cpus);
    fwrite("options  ", 10, 1, f);
    /*
     * TRACECLOCK (4, trace-cmd.dat.v7(5)): the trace_clock file's text,
     * NUL-terminated.  A version 6 reader that sees the option reads the
     * clock again after the table of CPUs (export_tracedat()).
     */
    put_u16(f, 4);
    put_sized(f, 4, trace_clock, sizeof(trace_clock));
    put_u16(f, 0);                              /* the last option */
    fwrite("flyrecord", 10, 1, f);
}

/*
 * Each CPU's pages, counted (fd < 0) or written at each pager's base: the
 * records once.
 */
static int page_all(const struct xdt_capture *c, struct page_ctx *pc, int fd)
{
    unsigned int cpu;

    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
    {
        struct pager *p = &pc->pg[cpu];

        p->fd = fd;
        p->pages = p->used = 0;
        p->last_ts = p->missed = 0;
        p->started = false;
    }
    if ( xdt_capture_iterate(c, page_one, pc) )
        return -1;
    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
        if ( page_flush(&pc->pg[cpu]) )
            return -1;

    return 0;
}

int export_tracedat(const struct xdt_capture *c, const struct xdt_names *n,
                    FILE *f)
{
    unsigned int page_size = sysconf(_SC_PAGESIZE), cpu, cpus = c->nr_cpus;
    struct pager *pg = calloc(cpus ? cpus : 1, sizeof(*pg));
    struct text kallsyms = { .f = NULL }, cmdlines = { .f = NULL };
    struct page_ctx pc = { .pg = pg };
    char *zeros = NULL;
    uint64_t off, data;
    long pos;
    int rc = XDT_EXIT_FAIL;

    errno = ENOMEM;
    if ( !pg )
        goto nomem;
    for ( cpu = 0; cpu < cpus; cpu++ )
        pg[cpu].size = page_size;
    pc.graph = xdt_capture_is_graph(c);
    /* 16 MiB, of which only the pages of the pids seen are touched. */
    pc.seen = mmap(NULL, PID_LIMIT / 8, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if ( pc.seen == MAP_FAILED )
    {
        pc.seen = NULL;
        goto nomem;
    }
    /* First the pages counted (and the pids seen), for the header. */
    if ( page_all(c, &pc, -1) )
        goto nomem;
    munmap(pc.seen, PID_LIMIT / 8);
    pc.seen = NULL;

    errno = ENOMEM;
    if ( text_open(&kallsyms) || text_open(&cmdlines) )
        goto nomem;
    put_kallsyms(kallsyms.f, c, n);
    put_cmdlines(cmdlines.f, pc.pids, pc.nr_pids);
    if ( text_close(&kallsyms) || text_close(&cmdlines) )
        goto nomem;

    put_header(f, page_size, pc.graph, pc.events, &kallsyms, &cmdlines,
               cpus);
    /*
     * The table of CPUs, then the trace clock's text (a size and the
     * trace_clock file's), then zeros up to the first CPU's data,
     * page-aligned.  Each CPU's pages follow the previous one's.
     */
    pos = ftell(f);
    if ( pos < 0 )
        goto wr;
    off = pos + 16ULL * cpus + 8 + strlen(trace_clock);
    off = data = (off + page_size - 1) / page_size * page_size;
    for ( cpu = 0; cpu < cpus; cpu++ )
    {
        pg[cpu].base = off;
        put_u64(f, off);
        put_u64(f, pg[cpu].pages * page_size);
        off += pg[cpu].pages * page_size;
    }
    put_sized(f, 8, trace_clock, strlen(trace_clock));
    pos = ftell(f);
    zeros = calloc(1, page_size);
    if ( pos < 0 || !zeros || data < (uint64_t)pos ||
         data - pos >= page_size ||
         (data > (uint64_t)pos && fwrite(zeros, data - pos, 1, f) != 1) ||
         fflush(f) || ferror(f) )
        goto wr;
    /* Then the pages, written where the table says. */
    if ( page_all(c, &pc, fileno(f)) )
        goto wr;
    rc = XDT_EXIT_OK;
    goto out;

 nomem:
    xdt_err("export: %s", strerror(errno));
    goto out;
 wr:
    xdt_err("export: writing trace.dat: %s", strerror(errno));
 out:
    for ( cpu = 0; pg && cpu < cpus; cpu++ )
        free(pg[cpu].page);
    text_close(&kallsyms);
    text_close(&cmdlines);
    free(kallsyms.buf);
    free(cmdlines.buf);
    free(pg);
    free(zeros);
    if ( pc.seen )
        munmap(pc.seen, PID_LIMIT / 8);
    free(pc.pids);

    return rc;
}
