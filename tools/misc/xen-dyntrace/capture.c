/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The capture file (xen-dyntrace.1, CAPTURE FILE).  The writer appends
 * whole chunks only: a chunk that cannot be written completely is cut off
 * again, so the file always ends on a chunk boundary when record stops on an
 * error.
 * The loader checks every header and every record (a file may come from
 * anywhere: what the readers index by is checked once, here), uses every
 * whole chunk before a truncation and merges the CPUs' records by time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xen-dyntrace.h"

int xdt_writer_open(struct xdt_writer *w, const char *path)
{
    struct xdt_file_header h = { .version = XDT_CAP_VERSION,
                                 .header_size = XDT_CAP_HEADER_SIZE,
                                 .chunk_header_size = XDT_CHUNK_HEADER_SIZE };

    _Static_assert(sizeof(h) == XDT_CAP_HEADER_SIZE, "file header size");
    _Static_assert(sizeof(struct xdt_chunk_header) == XDT_CHUNK_HEADER_SIZE,
                   "chunk header size");
    memcpy(h.magic, XDT_CAP_MAGIC, sizeof(h.magic));
    w->path = path;
    w->size = 0;
    w->err = 0;
    /* "-" or its file: standard output (record refuses a terminal). */
    w->fd = xdt_is_stdout(path) ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
            : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if ( w->fd < 0 )
    {
        w->err = errno;
        return -1;
    }

    return xdt_write_chunk(w, 0, 0, &h, sizeof(h));
}

bool xdt_is_stdout(const char *path)
{
    struct stat a, b;

    if ( !strcmp(path, "-") )
        return true;

    /* Not a device (/dev/null, a terminal): those are opened as they are. */
    return !stat(path, &a) && !fstat(STDOUT_FILENO, &b) &&
           a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
           !S_ISCHR(a.st_mode);
}

static int write_all(int fd, const void *data, size_t len)
{
    const char *p = data;

    while ( len )
    {
        ssize_t n = write(fd, p, len);

        if ( n < 0 )
        {
            if ( errno == EINTR )
                continue;
            return -1;
        }
        p += n;
        len -= n;
    }

    return 0;
}

/* type 0: the file header itself (no chunk header). */
int xdt_write_chunk(struct xdt_writer *w, uint32_t type, uint32_t cpu,
                    const void *data, size_t len)
{
    struct xdt_chunk_header ch = { .type = type, .cpu = cpu, .len = len };

    if ( w->err )
        return -1;
    if ( (type && write_all(w->fd, &ch, sizeof(ch))) ||
         write_all(w->fd, data, len) )
    {
        w->err = errno;
        /* Cut the partial chunk off: the file stays a valid capture. */
        if ( ftruncate(w->fd, w->size) == 0 )
            lseek(w->fd, w->size, SEEK_SET);
        return -1;
    }
    w->size += (type ? sizeof(ch) : 0) + len;

    return 0;
}

int xdt_writer_close(struct xdt_writer *w)
{
    int rc = 0;

    if ( w->fd < 0 )
        return -1;
    /* Delayed allocation may only fail now: ENOSPC must not go unnoticed. */
    if ( fsync(w->fd) && errno != EINVAL && !w->err )
        w->err = errno;
    if ( close(w->fd) && !w->err )
        w->err = errno;
    w->fd = -1;
    if ( w->err )
        rc = -1;

    return rc;
}

/* ---- loading ---- */

/* A pipe or standard input ("-"): read whole into memory. */
static int read_stream(int fd, const char *path, const uint8_t **data,
                       size_t *len)
{
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;

    for ( ;; )
    {
        ssize_t r;

        if ( cap - n < 65536 )
        {
            uint8_t *b = realloc(buf, cap ? 2 * cap : 1 << 20);

            if ( !b )
            {
                free(buf);
                xdt_err("%s: out of memory", path);
                return -1;
            }
            buf = b;
            cap = cap ? 2 * cap : 1 << 20;
        }
        r = read(fd, buf + n, cap - n);
        if ( r < 0 && errno == EINTR )
            continue;
        if ( r < 0 )
        {
            xdt_err("%s: %s", path, strerror(errno));
            free(buf);
            return -1;
        }
        if ( !r )
            break;
        n += r;
    }
    *data = buf;
    *len = n;

    return 0;
}

/* Returns 1 if the bytes were read into memory, 0 if mapped, -1. */
static int map_file(const char *path, const uint8_t **data, size_t *len)
{
    bool in = !strcmp(path, "-");
    int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    void *p;

    if ( fd < 0 || fstat(fd, &st) )
    {
        xdt_err("%s: %s", path, strerror(errno));
        if ( fd >= 0 && !in )
            close(fd);
        return -1;
    }
    if ( S_ISDIR(st.st_mode) )
    {
        xdt_err("%s: a directory, not a capture", path);
        close(fd);
        return -1;
    }
    if ( !S_ISREG(st.st_mode) )
    {
        int rc = read_stream(fd, in ? "standard input" : path, data, len);

        if ( !in )
            close(fd);
        return rc ? -1 : 1;
    }
    *len = st.st_size;
    p = *len ? mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    if ( !in )
        close(fd);
    if ( p == MAP_FAILED )
    {
        xdt_err("%s: %s", path, strerror(errno));
        return -1;
    }
    *data = p;

    return 0;
}

static char *dup_text(const uint8_t *p, size_t len)
{
    char *s = malloc(len + 1);

    if ( s )
    {
        memcpy(s, p, len);
        s[len] = '\0';
    }

    return s;
}

/* A record of a raw read (unaligned in the chunk). */
static void raw_record(struct xen_dyntrace_record *r, const uint8_t *p)
{
    memcpy(r, p, sizeof(*r));
}

/*
 * The flags a raw record of version 1 may carry (public/dyntrace.h;
 * XEN_DYNTRACE_FLAG_RAW_TS is never in a read).
 */
#define XDT_FLAGS_GRAPH \
    (XEN_DYNTRACE_FLAG_GRAPH_ENT | XEN_DYNTRACE_FLAG_GRAPH_RET)
#define XDT_FLAGS_KNOWN \
    (XEN_DYNTRACE_FLAG_IRQS_OFF | XEN_DYNTRACE_FLAG_IN_IRQ | \
     XEN_DYNTRACE_FLAG_IN_NMI | XDT_FLAGS_GRAPH | \
     XEN_DYNTRACE_FLAG_GRAPH_TAIL | XEN_DYNTRACE_FLAG_EVENT)

/*
 * A record's checks: what the readers index or trust.  Its CPU is the
 * buffer's, so the chunk's (the exports index their per-CPU state by it);
 * only the flags of the format; a function record's last byte 0, a
 * function_graph record's depth from 1; a tail (a return whose entry was not
 * recorded) is a return; an event (public/dyntrace_events.h) has no
 * function_graph flag, and at most 7 words or is a continuation.  Returns a
 * reason (in why) or NULL.
 */
static const char *check_record(const struct xen_dyntrace_record *r,
                                uint32_t cpu,
                                uint32_t i, char *why, size_t len)
{
    bool graph = r->flags & XDT_FLAGS_GRAPH;

    if ( r->cpu != cpu )
        snprintf(why, len, "record %" PRIu32 ": CPU %u, not the chunk's", i,
                 r->cpu);
    else if ( r->flags & ~XDT_FLAGS_KNOWN )
        snprintf(why, len, "record %" PRIu32 ": unknown flags 0x%02x", i,
                 r->flags);
    else if ( xdt_is_event(r) )
    {
        if ( r->flags & (XDT_FLAGS_GRAPH | XEN_DYNTRACE_FLAG_GRAPH_TAIL) )
            snprintf(why, len, "record %" PRIu32 ": an event with flags "
                     "0x%02x", i, r->flags);
        else if ( r->depth > XEN_DYNTRACE_EVENT_WORDS &&
                  r->depth != XEN_DYNTRACE_EVENT_MORE )
            snprintf(why, len, "record %" PRIu32 ": an event of %u words", i,
                     r->depth);
        else
            return NULL;
    }
    else if ( (r->flags & XEN_DYNTRACE_FLAG_GRAPH_TAIL) &&
              !(r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) )
        snprintf(why, len, "record %" PRIu32 ": flags 0x%02x: a tail that is "
                 "not a return", i, r->flags);
    else if ( !graph && r->depth )
        snprintf(why, len, "record %" PRIu32 ": a function record with "
                 "depth %u", i, r->depth);
    else if ( graph && !(r->depth & XEN_DYNTRACE_GRAPH_DEPTH) )
        snprintf(why, len, "record %" PRIu32 ": a function_graph record with "
                 "depth 0", i);
    else if ( (r->depth & XEN_DYNTRACE_GRAPH_RETVAL) &&
              !(r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) )
        snprintf(why, len, "record %" PRIu32 ": a return value in a record "
                 "that is not a return", i);
    else
        return NULL;

    return why;
}

/*
 * A RAW chunk's checks, its header's and every record's; returns a reason
 * (in why, or a constant) or NULL.
 */
static const char *check_raw(const uint8_t *p, uint64_t len, uint32_t cpu,
                             struct xen_dyntrace_raw_header *h, char *why,
                             size_t wlen, uint64_t *more)
{
    uint32_t i;

    if ( len < XDT_RAW_HEADER_SIZE )
        return "shorter than a raw header";
    memcpy(h, p, sizeof(*h));
    if ( h->magic != XEN_DYNTRACE_RAW_MAGIC )
        return "bad raw magic";
    if ( h->version != XEN_DYNTRACE_RAW_VERSION )
        return "raw version this tool cannot read";
    if ( h->header_size != XDT_RAW_HEADER_SIZE ||
         h->record_size != XDT_RAW_RECORD_SIZE )
        return "raw header or record size this tool cannot read";
    if ( h->cpu != cpu )
        return "raw header's CPU differs from the chunk's";
    if ( len != XDT_RAW_HEADER_SIZE + (uint64_t)h->nr * XDT_RAW_RECORD_SIZE )
        return "raw length disagrees with its record count";
    for ( i = 0; i < h->nr; i++ )
    {
        struct xen_dyntrace_record r;

        raw_record(&r, p + XDT_RAW_HEADER_SIZE +
                       (size_t)i * XDT_RAW_RECORD_SIZE);
        if ( check_record(&r, cpu, i, why, wlen) )
            return why;
        *more += xdt_is_event(&r) && r.depth == XEN_DYNTRACE_EVENT_MORE;
    }

    return NULL;
}

static int add_chunk(struct xdt_cpu_chunks *cc, uint64_t off)
{
    if ( cc->nr == cc->cap )
    {
        size_t cap = cc->cap ? cc->cap * 2 : 256;
        uint64_t *n = realloc(cc->off, cap * sizeof(*n));

        if ( !n )
            return -1;
        cc->off = n;
        cc->cap = cap;
    }
    cc->off[cc->nr++] = off;

    return 0;
}

/*
 * Check the whole capture and index each CPU's RAW chunks; the records stay
 * in data (not copied: it must outlive c) and xdt_capture_iterate() merges
 * them.  Every field the readers use is checked here, once: a chunk that
 * breaks the format makes the whole capture unreadable (XDT_EXIT_BADFILE).
 */
int xdt_capture_load_mem(struct xdt_capture *c, const void *data, size_t len,
                         const char *path)
{
    struct xdt_file_header fh;
    size_t off;
    int rc = XDT_EXIT_BADFILE;

    memset(c, 0, sizeof(*c));
    c->data = data;
    c->len = len;
    if ( !len )
    {
        xdt_err("%s: empty: not an xen-dyntrace capture", path);
        return rc;
    }
    if ( memcmp(c->data, XDT_CAP_MAGIC, len < 8 ? len : 8) )
    {
        xdt_err("%s: not an xen-dyntrace capture (no \"XDTCAPT\" magic "
                "at byte 0)", path);
        return rc;
    }
    if ( len < sizeof(fh) )
    {
        /* The start of a capture: cut before its first chunk. */
        xdt_err("%s: truncated at byte %zu, inside its %u-byte file header: "
                "no records", path, len, XDT_CAP_HEADER_SIZE);
        c->truncated = c->header_cut = true;
        return XDT_EXIT_TRUNCATED;
    }
    memcpy(&fh, c->data, sizeof(fh));
    if ( fh.version != XDT_CAP_VERSION )
    {
        xdt_err("%s: capture format version %u; this tool reads version %u",
                path, fh.version, XDT_CAP_VERSION);
        return rc;
    }
    if ( fh.header_size != XDT_CAP_HEADER_SIZE ||
         fh.chunk_header_size != XDT_CHUNK_HEADER_SIZE )
    {
        xdt_err("%s: malformed file header (sizes %u/%u)", path,
                fh.header_size, fh.chunk_header_size);
        return rc;
    }

    c->whole_bytes = fh.header_size;
    for ( off = fh.header_size; off < len; )
    {
        struct xdt_chunk_header ch;
        const uint8_t *p;
        struct xen_dyntrace_raw_header rh;
        const char *why;
        char buf[128];

        if ( len - off < sizeof(ch) )
        {
            c->truncated = true;
            break;
        }
        memcpy(&ch, c->data + off, sizeof(ch));
        if ( ch.len > XDT_CHUNK_MAX )
        {
            xdt_err("%s: chunk at byte %zu: length %" PRIu64 ", beyond any "
                    "chunk's (at most %llu): a corrupt capture", path, off,
                    (uint64_t)ch.len, XDT_CHUNK_MAX);
            return rc;
        }
        if ( ch.len > len - off - sizeof(ch) )
        {
            c->truncated = true;
            break;
        }
        p = c->data + off + sizeof(ch);
        switch ( ch.type )
        {
        case XDT_CHUNK_META:
        case XDT_CHUNK_END:
        {
            char **dst = ch.type == XDT_CHUNK_META ? &c->meta : &c->end;

            free(*dst);
            *dst = dup_text(p, ch.len);
            if ( !*dst )
                goto nomem;
            break;
        }
        case XDT_CHUNK_FUNCS:
            xdt_symtab_free(&c->funcs);
            if ( xdt_symtab_parse(&c->funcs, (const char *)p, ch.len, false) )
            {
                xdt_err("%s: chunk at byte %zu: malformed function list",
                        path, off);
                return rc;
            }
            /* Where every traceable function lies (public/dyntrace.h). */
            c->text_high = c->funcs.nr ? c->funcs.sym[0].addr &
                                         ~(uint64_t)UINT32_MAX : 0;
            break;
        case XDT_CHUNK_RAW:
            why = ch.cpu >= XDT_MAX_CPUS ? "CPU number out of range"
                  : check_raw(p, ch.len, ch.cpu, &rh, buf, sizeof(buf),
                              &c->more);
            if ( !why && rh.lost > UINT64_MAX - c->lost )
                why = "lost events beyond 2^64 in all";
            if ( why )
            {
                xdt_err("%s: chunk at byte %zu (CPU %u): %s", path, off,
                        ch.cpu, why);
                return rc;
            }
            if ( ch.cpu >= c->nr_cpus )
            {
                size_t more = ch.cpu + 1 - c->nr_cpus;
                struct xdt_cpu_chunks *n = realloc(c->cpu,
                                                   (ch.cpu + 1) * sizeof(*n));

                if ( !n )
                    goto nomem;
                memset(n + c->nr_cpus, 0, more * sizeof(*n));
                c->cpu = n;
                c->nr_cpus = ch.cpu + 1;
            }
            if ( add_chunk(&c->cpu[ch.cpu], off + sizeof(ch)) )
                goto nomem;
            c->records += rh.nr;
            c->lost += rh.lost;
            break;
        default:
            /* Unknown chunk types are skipped: later versions may add some. */
            break;
        }
        off += sizeof(ch) + ch.len;
        c->whole_bytes = off;
    }
    if ( !c->truncated )
        c->whole_bytes = len;
    if ( c->truncated )
    {
        xdt_err("%s: truncated at byte %zu of %zu (a chunk is cut short); "
                "using the %" PRIu64 " records before it",
                path, (size_t)c->whole_bytes, len, c->records);
        return XDT_EXIT_TRUNCATED;
    }
    if ( !c->end )
    {
        xdt_err("%s: no summary chunk at its end (its recorder was killed "
                "or could not write it, or the file was cut at a chunk's "
                "end); using the %" PRIu64 " records it holds", path,
                c->records);
        return XDT_EXIT_NOSUMMARY;
    }

    return XDT_EXIT_OK;

 nomem:
    xdt_err("%s: out of memory", path);

    return XDT_EXIT_FAIL;
}

int xdt_capture_load(struct xdt_capture *c, const char *path)
{
    const uint8_t *data = NULL;
    size_t len = 0;
    int rc;
    bool in_memory;

    memset(c, 0, sizeof(*c));
    rc = map_file(path, &data, &len);
    if ( rc < 0 )
        return XDT_EXIT_FAIL;
    in_memory = rc;
    rc = xdt_capture_load_mem(c, data, len,
                              strcmp(path, "-") ? path : "standard input");
    c->allocated = in_memory;
    c->mapped = !in_memory;

    return rc;
}

/* A CPU's position: chunk k, record i of it; a loss not yet shown. */
struct cursor {
    const struct xdt_capture *c;
    unsigned int cpu;
    size_t k;
    uint32_t i, nr;
    uint64_t lost;              /* shown before record i */
    struct xdt_event ev;        /* the event at the position */
};

/*
 * The id and words of the event head at the cursor (record i of the chunk
 * at p), its continuation's too when it is the next record of the chunk
 * with the same time (the hypervisor's reads never split the pair), which
 * the cursor then steps over.
 */
static void event_words(struct cursor *u, const uint8_t *p)
{
    const struct xen_dyntrace_record *r = &u->ev.rec;
    struct xen_dyntrace_record m;

    u->ev.id = (uint32_t)r->ip;
    u->ev.word[0] = r->ip >> 32;
    u->ev.word[1] = (uint32_t)r->parent_ip;
    u->ev.word[2] = r->parent_ip >> 32;
    u->ev.nr_words = r->depth < XEN_DYNTRACE_EVENT_HEAD_WORDS
                     ? r->depth : XEN_DYNTRACE_EVENT_HEAD_WORDS;
    if ( r->depth <= XEN_DYNTRACE_EVENT_HEAD_WORDS || u->i + 1 >= u->nr )
        return;
    raw_record(&m, p + XDT_RAW_HEADER_SIZE +
                   (size_t)(u->i + 1) * XDT_RAW_RECORD_SIZE);
    if ( !xdt_is_event(&m) || m.depth != XEN_DYNTRACE_EVENT_MORE ||
         m.ts != r->ts )
        return;
    u->ev.word[3] = (uint32_t)m.ip;
    u->ev.word[4] = m.ip >> 32;
    u->ev.word[5] = (uint32_t)m.parent_ip;
    u->ev.word[6] = m.parent_ip >> 32;
    u->ev.nr_words = r->depth;
    u->i++;
}

/*
 * A return recorded with its value (public/dyntrace.h): unpacked as any
 * other return (the function from the low half of its address and the
 * capture's functions' high half, the entry's time from the duration), the
 * value set apart.
 */
static void retval_unpack(struct cursor *u)
{
    struct xen_dyntrace_record *r = &u->ev.rec;
    uint64_t ns = XEN_DYNTRACE_RETVAL_CALL(r->ip);

    u->ev.has_retval = true;
    u->ev.retval = r->parent_ip;
    r->ip = u->c->text_high | XEN_DYNTRACE_RETVAL_FUNC(r->ip);
    r->parent_ip = r->ts > ns ? r->ts - ns : 0;
    r->depth &= XEN_DYNTRACE_GRAPH_DEPTH;
}

/* Load the event at the cursor; false at the CPU's end. */
static bool cursor_load(struct cursor *u)
{
    const struct xdt_cpu_chunks *cc = &u->c->cpu[u->cpu];
    uint64_t prev_ts = u->ev.rec.ts;

    for ( ;; )
    {
        const uint8_t *p;
        struct xen_dyntrace_raw_header h;

        if ( u->k >= cc->nr )
        {
            if ( !u->lost )
                return false;
            /* A loss after the CPU's last record. */
            u->ev = (struct xdt_event){ .lost = true,
                                        .rec = { .ts = prev_ts, .ip = u->lost,
                                                 .cpu = u->cpu } };
            u->lost = 0;
            return true;
        }
        p = u->c->data + cc->off[u->k];
        if ( u->i == 0 && u->nr == 0 )
        {
            memcpy(&h, p, sizeof(h));
            u->nr = h.nr;
            u->lost += h.lost;
        }
        if ( u->i < u->nr )
        {
            raw_record(&u->ev.rec, p + XDT_RAW_HEADER_SIZE +
                                   (size_t)u->i * XDT_RAW_RECORD_SIZE);
            if ( xdt_is_event(&u->ev.rec) &&
                 u->ev.rec.depth == XEN_DYNTRACE_EVENT_MORE )
            {
                /* A continuation whose head was lost (E3): skipped. */
                u->i++;
                continue;
            }
            u->ev.lost = false;
            if ( u->lost )
            {
                /* The loss first, at the time of the record after it. */
                u->ev.lost = true;
                u->ev.rec.ip = u->lost;
                u->ev.rec.cpu = u->cpu;
                u->lost = 0;
                return true;
            }
            u->ev.has_retval = false;
            if ( xdt_is_event(&u->ev.rec) )
                event_words(u, p);
            else if ( u->ev.rec.depth & XEN_DYNTRACE_GRAPH_RETVAL )
                retval_unpack(u);
            u->i++;
            return true;
        }
        u->k++;
        u->i = u->nr = 0;
    }
}

static bool before(const struct cursor *a, const struct cursor *b)
{
    if ( a->ev.rec.ts != b->ev.rec.ts )
        return a->ev.rec.ts < b->ev.rec.ts;

    return a->cpu < b->cpu;
}

static void sift_down(struct cursor **h, size_t n, size_t i)
{
    for ( ;; )
    {
        size_t l = 2 * i + 1, m = i;
        struct cursor *t;

        if ( l < n && before(h[l], h[m]) )
            m = l;
        if ( l + 1 < n && before(h[l + 1], h[m]) )
            m = l + 1;
        if ( m == i )
            return;
        t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/*
 * Every event, merged across CPUs by time (ties: lower CPU first), each
 * CPU's in the order read; a loss comes before its CPU's next record.  With
 * a view, only the events its filter passes, and at most its max_records
 * records (capped then says some were left).
 * Stops early when fn returns non-zero, and returns that.
 */
int xdt_capture_iterate(const struct xdt_capture *c,
                        int (*fn)(const struct xdt_event *e, void *arg),
                        void *arg)
{
    struct cursor *cur = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*cur));
    struct cursor **heap = calloc(c->nr_cpus ? c->nr_cpus : 1, sizeof(*heap));
    size_t n = 0, i;
    int rc = 0;

    if ( !cur || !heap )
    {
        free(cur);
        free(heap);
        xdt_err("out of memory");
        return -1;
    }
    for ( i = 0; i < c->nr_cpus; i++ )
    {
        cur[i] = (struct cursor){ .c = c, .cpu = i };
        if ( cursor_load(&cur[i]) )
            heap[n++] = &cur[i];
    }
    for ( i = n; i-- > 0; )
        sift_down(heap, n, i);
    if ( c->view )
        c->view->shown = 0, c->view->capped = false;
    while ( n && !rc )
    {
        const struct xdt_event *e = &heap[0]->ev;

        if ( !c->view || xdt_filter_pass(c->view->filter, c, e) )
        {
            if ( c->view && c->view->max_records && !e->lost &&
                 c->view->shown == c->view->max_records )
            {
                c->view->capped = true;
                break;
            }
            if ( c->view )
                c->view->shown += !e->lost;
            rc = fn(e, arg);
        }
        if ( !cursor_load(heap[0]) )
            heap[0] = heap[--n];
        sift_down(heap, n, 0);
    }
    free(cur);
    free(heap);

    return rc;
}

/* The earliest record's time, over every CPU; false if there is none. */
bool xdt_capture_first_ts(const struct xdt_capture *c, uint64_t *ts)
{
    unsigned int cpu;
    bool any = false;

    for ( cpu = 0; cpu < c->nr_cpus; cpu++ )
    {
        const struct xdt_cpu_chunks *cc = &c->cpu[cpu];
        size_t k;

        for ( k = 0; k < cc->nr; k++ )
        {
            struct xen_dyntrace_raw_header h;
            struct xen_dyntrace_record r;
            const uint8_t *p = c->data + cc->off[k];

            memcpy(&h, p, sizeof(h));
            if ( !h.nr )
                continue;
            raw_record(&r, p + XDT_RAW_HEADER_SIZE);
            if ( !any || r.ts < *ts )
                *ts = r.ts;
            any = true;
            break;
        }
    }

    return any;
}

bool xdt_capture_is_graph(const struct xdt_capture *c)
{
    char tracer[64];

    return xdt_capture_meta(c, "tracer", tracer, sizeof(tracer)) &&
           !strcmp(tracer, "function_graph");
}

const char *xdt_capture_meta(const struct xdt_capture *c, const char *key,
                             char *buf, size_t len)
{
    size_t klen = strlen(key);
    const char *p = c->meta;

    while ( p && *p )
    {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);

        if ( l > klen && !strncmp(p, key, klen) && p[klen] == '=' )
        {
            size_t v = l - klen - 1;

            if ( v >= len )
                v = len - 1;
            memcpy(buf, p + klen + 1, v);
            buf[v] = '\0';
            return buf;
        }
        p = nl ? nl + 1 : p + l;
    }

    return NULL;
}

void xdt_capture_free(struct xdt_capture *c)
{
    unsigned int i;

    free(c->meta);
    free(c->end);
    xdt_symtab_free(&c->funcs);
    for ( i = 0; i < c->nr_cpus; i++ )
        free(c->cpu[i].off);
    free(c->cpu);
    if ( c->mapped && c->len )
        munmap((void *)c->data, c->len);
    if ( c->allocated )
        free((void *)c->data);
    memset(c, 0, sizeof(*c));
}
