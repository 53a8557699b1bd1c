/*
 * hypfs-fuzz: fuzz the /tracing HypFS interface through raw HypFS hypercalls
 * (/dev/xen/privcmd), while tracing is on and entries are being patched.
 *
 *   hypfs-fuzz -t SECONDS [-s SEED] [-L] [-v]
 *
 * Each operation is one of:
 *  - a write to a /tracing file (read-only ones too) of random bytes, mostly
 *    words of the interface's languages (function names and patterns, `+`/`!`
 *    forms, triggers, domain words, masks, tracer names, buffer sizes in and
 *    out of range) with whitespace runs,
 *    NULs inside, bytes that are not UTF-8, and lengths from 0 to the file's
 *    maximum + 1 (-L: also lengths of 2^32 and more, which only a hypervisor
 *    with the hypfs_write() length fix refuses);
 *  - a read of a /tracing file (per_cpu/cpu0's too: reads of trace_pipe and
 *    trace_pipe_raw consume), a directory (/tracing, per_cpu, per_cpu/cpu0)
 *    or a missing path, with a random buffer size (below the header, around
 *    the content length, larger);
 *  - every 40 operations, a valid setup (a few functions, the function
 *    tracer, tracing on), so entries keep being patched and records written.
 *
 * A violation is:
 *  - a rejected write after which the state differs (current_tracer, the
 *    function sets, the domain filter, tracing_cpumask, tracing_on, the
 *    buffer sizes, enabled_functions; with recording off, also the trace).
 *    Trigger counts and tracing_on change when triggers fire (a function's
 *    or an event's): counts are not compared, nor is tracing_on while a
 *    trigger is set;
 *  - a write or read error that the user guide's error table does not give
 *    for that file;
 *  - a read whose bytes disagree with its reported size: a string whose NUL
 *    is not its last byte, a boolean not 0/1, a directory listing that does
 *    not parse, a raw buffer read whose header does not match its size,
 *    bytes written past the reported size, a success whose size
 *    exceeds the buffer or an ENOBUFS whose size fits it.
 * A crash shows as the hypervisor's or dom0's death (the harness reports it).
 *
 * Prints each violation as it is found, then one summary line:
 *   fuzz hypfs: ops=N violations=M seconds=S
 * and the counts by operation and result.  Exits 0 when there was no
 * violation, 1 otherwise, 2 on a usage or setup error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include <public/dyntrace.h>

#include "privcmd.h"

#define DIR_PATH "/tracing"
#define READ_BUF (8u << 20)
#define HDR 12u

enum { TYPE_DIR = 0, TYPE_BLOB = 1, TYPE_STRING = 2, TYPE_UINT = 3,
       TYPE_BOOL = 5 };

struct direntry {
    uint8_t type, encoding;
    uint16_t pad;
    uint32_t content_len;
    uint32_t max_write_len;
};

/* The errors the user guide's table gives for each file's writes. */
#define E_PATCH ENOENT, EPERM, EEXIST, EINVAL, EOPNOTSUPP, ENOSPC, ENODATA, \
                EBUSY, EAGAIN, ETIMEDOUT, ENOMEM
#define E_SCOPE EINVAL, ENOSPC, EBUSY, EAGAIN, ETIMEDOUT, ENOMEM

struct file {
    const char *name;
    bool state;                 /* compared before and after rejected writes */
    int werr[16];               /* allowed write errors, 0-terminated */
    uint32_t max;               /* max_write_len, from Xen */
    uint8_t type;
};

static struct file files[] = {
    { .name = "available_tracers", .state = false, .werr = { EACCES } },
    { .name = "current_tracer", .state = true, .werr = { E_PATCH } },
    { .name = "available_functions", .state = false, .werr = { EACCES } },
    { .name = "set_function_filter", .state = true, .werr = { E_PATCH } },
    { .name = "set_function_notrace", .state = true, .werr = { E_PATCH } },
    { .name = "set_domain_filter", .state = true, .werr = { E_SCOPE } },
    { .name = "tracing_cpumask", .state = true, .werr = { E_SCOPE } },
    { .name = "tracing_on", .state = true, .werr = { EINVAL, EDOM, ENOSPC, EBUSY } },
    { .name = "trace", .state = false, .werr = { EINVAL, ENOSPC, EBUSY, ENOMEM } },
    { .name = "enabled_functions", .state = true, .werr = { EACCES } },
    { .name = "error_log", .state = false, .werr = { EINVAL, ENOSPC, ENOMEM } },
    { .name = "buffer_size_kb", .state = true,
      .werr = { EDOM, EINVAL, ENOMEM, EBUSY } },
    { .name = "buffer_total_size_kb", .state = true, .werr = { EACCES } },
    /* Consuming reads and per-CPU views: read-only. */
    { .name = "trace_pipe", .state = false, .werr = { EACCES } },
    { .name = "available_functions_addrs", .state = false,
      .werr = { EACCES } },
    { .name = "per_cpu/cpu0/trace", .state = false, .werr = { EACCES } },
    { .name = "per_cpu/cpu0/trace_pipe", .state = false, .werr = { EACCES } },
    { .name = "per_cpu/cpu0/trace_pipe_raw", .state = false,
      .werr = { EACCES } },
    { .name = "per_cpu/cpu0/stats", .state = false, .werr = { EACCES } },
    /* function_graph's return values (series 6). */
    { .name = "options/funcgraph-retval", .state = true,
      .werr = { EINVAL, EDOM, ENOSPC } },
    /* Events (series 5). */
    { .name = "available_events", .state = false, .werr = { EACCES } },
    { .name = "set_event", .state = true,
      .werr = { EINVAL, ENOENT, ENOSPC, ENOMEM } },
    { .name = "events/enable", .state = true,
      .werr = { EINVAL, EDOM, ENOSPC } },
    { .name = "events/sched/enable", .state = true,
      .werr = { EINVAL, EDOM, ENOSPC } },
    { .name = "events/sched/sched_switch/enable", .state = true,
      .werr = { EINVAL, EDOM, ENOSPC } },
    /* Last (F_EVTRIG): its counts fall, and it may flip tracing_on. */
    { .name = "events/sched/sched_switch/trigger", .state = true,
      .werr = { EINVAL, ENOENT, EOPNOTSUPP, ENOSPC, ENOMEM } },
};
#define NR_FILES (sizeof(files) / sizeof(files[0]))
#define F_EVTRIG (NR_FILES - 1)
enum { F_TRACER = 1, F_FILTER = 3, F_NOTRACE, F_DOMAINS, F_CPUMASK, F_ON,
       F_TRACE, F_ENABLED, F_ERRLOG, F_BUFSIZE };

static int fd;
static char *path_buf;
static uint8_t *rbuf, *wbuf;
static size_t wbuf_len;
static bool verbose, long_lengths;
static unsigned long ops, violations, nr_writes, nr_rejected, nr_reads;
static unsigned long err_count[160];
static uint64_t rng;

static uint64_t rnd(void)
{
    /* xorshift64* */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ull;
}

static unsigned int below(unsigned int n)
{
    return n ? rnd() % n : 0;
}

static const char *errname(int e)
{
    static char other[16];

    switch ( e )
    {
    case 0: return "0";
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case EFAULT: return "EFAULT";
    case EBUSY: return "EBUSY";
    case EEXIST: return "EEXIST";
    case EINVAL: return "EINVAL";
    case ENOSPC: return "ENOSPC";
    case EDOM: return "EDOM";
    case EACCES: return "EACCES";
    case ENOBUFS: return "ENOBUFS";
    case ENODATA: return "ENODATA";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EAGAIN: return "EAGAIN";
    case ENOMEM: return "ENOMEM";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    }
    snprintf(other, sizeof(other), "errno%d", e);
    return other;
}

static void violation(const char *fmt, ...)
{
    va_list ap;

    violations++;
    printf("VIOLATION op=%lu: ", ops);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* One HypFS hypercall: 0 or an errno. */
static int hypfs(unsigned int op, const char *path, void *buf,
                 unsigned long len)
{
    struct privcmd_hypercall h = { .op = HYPERVISOR_hypfs_op };

    snprintf(path_buf, 256, "%s", path);
    h.arg[0] = op;
    h.arg[1] = (uintptr_t)path_buf;
    h.arg[2] = strlen(path_buf) + 1;
    h.arg[3] = (uintptr_t)buf;
    h.arg[4] = len;
    return ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h) < 0 ? errno : 0;
}

static char *file_path(const struct file *f)
{
    static char p[256];

    snprintf(p, sizeof(p), DIR_PATH "/%s", f->name);
    return p;
}

/*
 * Check one read's result (rc, buffer of blen bytes filled with 0xa5 before).
 * Returns the content length of a successful read, -1 otherwise.
 */
static long check_read(const char *what, int type, int rc, unsigned long blen)
{
    const struct direntry *h = (const struct direntry *)rbuf;
    unsigned long i, len;

    if ( blen < HDR )
    {
        if ( rc != EINVAL )
            violation("read %s buf=%lu: %s, expected EINVAL", what, blen,
                      errname(rc));
        return -1;
    }
    if ( rc == ENOBUFS )
    {
        if ( h->content_len + HDR <= blen )
            violation("read %s buf=%lu: ENOBUFS although content_len=%u fits",
                      what, blen, h->content_len);
        return -1;
    }
    /*
     * Snapshots of the buffers need the CPU maps (hotplug: EBUSY) and
     * memory; a consuming read fails EAGAIN if another consumed first.
     */
    if ( rc == ENOMEM ||
         (rc == EBUSY && (strstr(what, "/trace") || strstr(what, "/stats"))) ||
         (rc == EAGAIN && strstr(what, "/trace_pipe")) )
        return -1;
    if ( rc )
    {
        violation("read %s buf=%lu: %s, not in the error table", what, blen,
                  errname(rc));
        return -1;
    }
    len = h->content_len;
    if ( len + HDR > blen )
    {
        violation("read %s buf=%lu: success with content_len=%lu", what, blen,
                  len);
        return -1;
    }
    if ( type >= 0 && h->type != type )
        violation("read %s: type %u, expected %d", what, h->type, type);
    for ( i = HDR + len; i < blen && i < HDR + len + 4096; i++ )
        if ( rbuf[i] != 0xa5 )
        {
            violation("read %s buf=%lu: byte %lu past content_len=%lu written",
                      what, blen, i - HDR, len);
            break;
        }
    switch ( h->type )
    {
    case TYPE_STRING:
        if ( !len || rbuf[HDR + len - 1] ||
             strlen((char *)rbuf + HDR) != len - 1 )
            violation("read %s: string of content_len=%lu whose NUL is not "
                      "its last byte (strlen %zu)", what, len,
                      len ? strnlen((char *)rbuf + HDR, len) : 0);
        break;
    case TYPE_BOOL:
        if ( len != 1 || rbuf[HDR] > 1 )
            violation("read %s: bool of content_len=%lu value %u", what, len,
                      len ? rbuf[HDR] : 0);
        break;
    case TYPE_UINT:
        if ( len != 4 )
            violation("read %s: uint of content_len=%lu", what, len);
        break;
    case TYPE_BLOB:
    {
        /* trace_pipe_raw: its header, then nr records (public/dyntrace.h). */
        struct xen_dyntrace_raw_header h = { 0 };

        if ( len >= sizeof(h) )
            memcpy(&h, rbuf + HDR, sizeof(h));
        if ( len < sizeof(h) || h.magic != XEN_DYNTRACE_RAW_MAGIC ||
             len != sizeof(h) + sizeof(struct xen_dyntrace_record) * h.nr )
            violation("read %s: raw content of %lu bytes, magic %#x, %u "
                      "records", what, len, h.magic, h.nr);
        break;
    }
    case TYPE_DIR:
    {
        /* struct xen_hypfs_dirlistentry: a direntry, off_next, the name. */
        unsigned long off = 0;

        while ( off + HDR + 2 < len )
        {
            uint16_t next;
            size_t nl;

            memcpy(&next, rbuf + HDR + off + HDR, 2);
            nl = strnlen((char *)rbuf + HDR + off + HDR + 2,
                         len - off - HDR - 2);
            if ( off + HDR + 2 + nl >= len )
                break;
            if ( !next )
            {
                off = len;
                break;
            }
            off += next;
        }
        if ( off != len )
            violation("read %s: directory listing of %lu bytes does not "
                      "parse (stopped at %lu)", what, len, off);
        break;
    }
    }
    return len;
}

/* The whole content of a file (NULL when it cannot be read now). */
static char *read_whole(const struct file *f)
{
    unsigned long blen = HDR + 4096;
    int tries;

    for ( tries = 0; tries < 8; tries++ )
    {
        const struct direntry *h = (const struct direntry *)rbuf;
        int rc;
        long len;

        memset(rbuf, 0xa5, blen);
        rc = hypfs(HYPFS_OP_read, file_path(f), rbuf, blen);
        nr_reads++;
        if ( rc == ENOBUFS && h->content_len + HDR <= READ_BUF )
        {
            check_read(file_path(f), -1, rc, blen);
            blen = h->content_len + HDR + 256;
            if ( blen > READ_BUF )
                blen = READ_BUF;
            continue;
        }
        len = check_read(file_path(f), -1, rc, blen);
        if ( len < 0 )
            continue;
        if ( ((struct direntry *)rbuf)->type == TYPE_BOOL )
            return strdup(rbuf[HDR] ? "1" : "0");
        if ( ((struct direntry *)rbuf)->type == TYPE_UINT && len == 4 )
        {
            char v[16];
            uint32_t u;

            memcpy(&u, rbuf + HDR, 4);
            snprintf(v, sizeof(v), "%u", u);
            return strdup(v);
        }
        return strdup((char *)rbuf + HDR);
    }
    return NULL;
}

/* The state a rejected write must leave alone, with counts taken out. */
struct state {
    char *v[NR_FILES];
    bool triggers;
};

static void normalise_triggers(char *s)
{
    char *p;

    /* name:traceoff:count=3 -> name:traceoff:count= (counts fall as they fire) */
    for ( p = strstr(s, ":count="); p; p = strstr(p + 1, ":count=") )
    {
        char *d = p + 7, *e = d;

        while ( *e >= '0' && *e <= '9' )
            e++;
        memmove(d, e, strlen(e) + 1);
    }
}

static void state_read(struct state *s, bool with_trace)
{
    unsigned int i;

    memset(s, 0, sizeof(*s));
    for ( i = 0; i < NR_FILES; i++ )
    {
        if ( !files[i].state && !(with_trace && i == F_TRACE) )
            continue;
        s->v[i] = read_whole(&files[i]);
        if ( !s->v[i] )
            s->v[i] = strdup("(unreadable)");
        if ( i == F_FILTER )
        {
            s->triggers |= strchr(s->v[i], ':') != NULL;
            normalise_triggers(s->v[i]);
        }
        /*
         * An event's trigger file reads "# Available triggers: ..." when it
         * has none.
         */
        if ( i == F_EVTRIG )
        {
            s->triggers |= s->v[i][0] && s->v[i][0] != '#' &&
                           strcmp(s->v[i], "(unreadable)");
            normalise_triggers(s->v[i]);
        }
    }
}

static void state_free(struct state *s)
{
    unsigned int i;

    for ( i = 0; i < NR_FILES; i++ )
        free(s->v[i]);
}

static const char *shorten(const char *s)
{
    static char b[4][100];
    static unsigned int k;
    char *o = b[k++ % 4];
    size_t i;

    for ( i = 0; s[i] && i < sizeof(b[0]) - 4; i++ )
        o[i] = (s[i] == '\n') ? '|' : s[i];
    strcpy(o + i, s[i] ? "..." : "");
    return o;
}

/* The names of available_functions, for the word generator. */
static char **names;
static unsigned int nr_names;

static void load_names(void)
{
    char *list = read_whole(&files[2]), *p, *save;

    if ( !list )
    {
        fprintf(stderr, "hypfs-fuzz: cannot read available_functions\n");
        exit(2);
    }
    for ( p = strtok_r(list, "\n", &save); p; p = strtok_r(NULL, "\n", &save) )
    {
        names = realloc(names, (nr_names + 1) * sizeof(*names));
        names[nr_names++] = p;
    }
    if ( !nr_names )
        exit(2);
}

static const char *name(void)
{
    return names[below(nr_names)];
}

static const char *const fixed_words[] = {
    "*", "do_*", "*timer*", "?", "[", "do_xen_version", "xen_extra_version",
    "nop", "function", "functoin", "function_graph", "d0", "d1", "d1v0",
    "d0v1", "idle", "!d0", "!idle", "dx", "d01", "d32752", "d0v65535", "d",
    "!", "+", "1", "3", "f", "0", "ffffffff", "ffffffff,ffffffff", ",1",
    "1,", "g", "0x1", "on", "off", ":traceoff", "x:traceon",
    "do_xen_version:traceoff", "xen_extra_version:traceon:2",
    "do_xen_version:stacktrace", "do_xen_version:bogus",
    "do_xen_version:traceoff:abc", "!do_xen_version:traceoff",
    "do_xen_version:traceoff:0", "do_xen_version:traceoff:99999999999",
    "sched:sched_switch", "sched", "*:*", "sched:*", "*:wake", "!sched:wake",
    "irq:handled", "hvm:vmx_exit", "pv", "sched:", ":wake", "a:b:c", "!",
    "!*", "nosuch:*", "traceoff", "traceon:3", "!traceoff", "traceoff:count=2",
    "traceon:unlimited", "stacktrace", "traceoff:05",
};

/* Append one word of some language (or junk) at p; returns its length. */
static size_t word(char *p, size_t room)
{
    char w[512];
    const char *prefix = "";
    unsigned int k = below(100), i;

    if ( below(4) == 0 )
        prefix = below(2) ? "!" : "+";
    if ( k < 35 )
        snprintf(w, sizeof(w), "%s%s", prefix, name());
    else if ( k < 45 )
    {
        /* A pattern from a name's prefix. */
        const char *n = name();

        snprintf(w, sizeof(w), "%s%.*s*", prefix,
                 (int)(strlen(n) ? below(strlen(n)) + 1 : 0), n);
    }
    else if ( k < 55 )
        snprintf(w, sizeof(w), "%s%s:%s%s", below(5) ? "" : "!", name(),
                 below(4) ? "traceoff" : "traceon",
                 below(2) ? "" : (below(2) ? ":1" : ":3"));
    else if ( k < 80 )
        snprintf(w, sizeof(w), "%s",
                 fixed_words[below(sizeof(fixed_words) /
                                   sizeof(fixed_words[0]))]);
    else if ( k < 88 )
        snprintf(w, sizeof(w), "%sd%u%s", prefix, below(6),
                 below(2) ? "" : (below(2) ? "v0" : "v1"));
    else
    {
        /* Junk: any bytes but NUL. */
        unsigned int n = below(24) + 1;

        for ( i = 0; i < n; i++ )
            w[i] = 1 + below(255);
        w[n] = 0;
    }
    k = strlen(w);
    if ( k > room )
        k = room;
    memcpy(p, w, k);
    return k;
}

static size_t spaces(char *p, size_t room)
{
    static const char ws[] = { ' ', ' ', ' ', '\n', '\t', '\r', '\v', '\f' };
    size_t n = below(4) ? 1 : below(6) + 1, i;

    if ( n > room )
        n = room;
    for ( i = 0; i < n; i++ )
        p[i] = ws[below(sizeof(ws))];
    return n;
}

/*
 * Fill wbuf for a write to f; returns the length to pass (which may exceed
 * what is filled: -L lengths).
 */
static unsigned long make_write(const struct file *f)
{
    size_t max = f->max ? f->max : 64, room = max + 1, n = 0;
    unsigned int k = below(100), words, i;

    if ( room > wbuf_len )
        room = wbuf_len;
    if ( (f == &files[F_ON] || f->type == TYPE_BOOL) && below(2) )
    {
        wbuf[0] = below(3) ? below(2) : below(256);
        return below(4) ? 1 : below(3);
    }
    if ( f->type == TYPE_UINT && below(4) )
    {
        /* Sizes in and out of range (not the largest: reads would crawl). */
        static const uint32_t kb[] = { 0, 1, 2, 3, 4, 16, 64, 100, 1024,
                                       65537, 0x80000000u, 0xffffffffu };
        uint32_t v = kb[below(sizeof(kb) / sizeof(kb[0]))];

        memcpy(wbuf, &v, 4);
        return below(6) ? 4 : below(9);
    }
    if ( long_lengths && k < 4 )
    {
        wbuf[0] = below(2) ? '1' : 0;
        wbuf[1] = 0;
        return (1ul << 32) + below(3);
    }
    if ( k < 4 )
        return 0;
    if ( k < 12 )
    {
        /* Random bytes, NULs and all, of a random length up to max + 1. */
        unsigned long len = below(room) + 1;

        for ( i = 0; i < len; i++ )
            wbuf[i] = below(256);
        return len;
    }
    if ( k < 20 )
    {
        /* Exactly max + 1 or max bytes: words, the last byte a NUL. */
        unsigned long len = max + (k < 16);

        if ( len > wbuf_len )
            len = wbuf_len;
        while ( n < len )
        {
            n += word((char *)wbuf + n, len - n);
            if ( n < len )
                n += spaces((char *)wbuf + n, len - n);
        }
        wbuf[len - 1] = 0;
        return len;
    }
    /* Words and whitespace. */
    words = below(8) ? below(6) : below(40);
    for ( i = 0; i < words && n + 2 < room; i++ )
    {
        if ( i || !below(4) )
            n += spaces((char *)wbuf + n, room - 2 - n);
        n += word((char *)wbuf + n, room - 2 - n);
    }
    if ( !below(8) )
        n += spaces((char *)wbuf + n, room - 1 - n);
    wbuf[n] = 0;
    k = below(100);
    if ( k < 75 )
        return n + 1;               /* a string and its NUL */
    if ( k < 85 )
        return n ? n : 1;           /* no NUL at its end */
    /* A NUL inside, then more bytes. */
    if ( n + 4 < room )
    {
        memcpy(wbuf + n + 1, "abc", 4);
        return n + 5;
    }
    return n + 1;
}

static bool allowed(const struct file *f, int e)
{
    unsigned int i;

    for ( i = 0; f->werr[i]; i++ )
        if ( f->werr[i] == e )
            return true;
    return false;
}

static void hexdump(unsigned long len)
{
    unsigned long i, n = len < 48 ? len : 48;

    printf("  bytes:");
    for ( i = 0; i < n; i++ )
        printf(" %02x", wbuf[i]);
    printf("%s\n", n < len ? " ..." : "");
}

static void fuzz_write(void)
{
    struct file *f = &files[below(NR_FILES)];
    struct state before, after;
    unsigned long len = make_write(f);
    bool off, with_trace;
    unsigned int i;
    int rc;

    state_read(&before, false);
    off = before.v[F_ON] && !strcmp(before.v[F_ON], "0") && !before.triggers;
    /* Only these can clear the buffers: compare them then (recording off). */
    with_trace = off && (f == &files[F_TRACE] || f == &files[F_TRACER] ||
                         f == &files[F_BUFSIZE]);
    if ( with_trace )
    {
        state_free(&before);
        state_read(&before, true);
    }
    rc = hypfs(HYPFS_OP_write_contents, file_path(f), wbuf, len);
    nr_writes++;
    if ( rc < (int)(sizeof(err_count) / sizeof(err_count[0])) )
        err_count[rc]++;
    if ( verbose )
    {
        printf("write %s len=%lu: %s\n", f->name, len, errname(rc));
        hexdump(len);
    }
    if ( !rc )
    {
        state_free(&before);
        if ( len > (1ul << 32) )
        {
            violation("write %s len=%lu (over 2^32) accepted", f->name, len);
            hexdump(len < 64 ? len : 64);
        }
        return;
    }
    nr_rejected++;
    /* hypfs_write() refuses 2^32 bytes and more before a node's handler. */
    if ( !allowed(f, rc) && !(len > UINT32_MAX && rc == ENOSPC) )
    {
        violation("write %s len=%lu: %s, not in the error table for this "
                  "file", f->name, len, errname(rc));
        hexdump(len < (1ul << 32) ? len : 2);
    }
    state_read(&after, with_trace);
    for ( i = 0; i < NR_FILES; i++ )
    {
        if ( !before.v[i] || !after.v[i] )
            continue;
        /* Triggers turn recording on and off by themselves. */
        if ( i == F_ON && (before.triggers || after.triggers) )
            continue;
        if ( strcmp(before.v[i], after.v[i]) )
        {
            violation("write %s len=%lu rejected (%s) but %s changed: "
                      "'%s' -> '%s'", f->name, len, errname(rc),
                      files[i].name, shorten(before.v[i]),
                      shorten(after.v[i]));
            hexdump(len < (1ul << 32) ? len : 2);
        }
    }
    state_free(&before);
    state_free(&after);
}

static void fuzz_read(void)
{
    unsigned int k = below(NR_FILES + 2);
    const char *p;
    const struct direntry *h = (const struct direntry *)rbuf;
    unsigned long blen, len;
    int rc, type = -1;

    if ( k < NR_FILES )
        p = file_path(&files[k]);
    else if ( k == NR_FILES )
    {
        static const char *const dirs[] = {
            DIR_PATH, DIR_PATH "/per_cpu", DIR_PATH "/per_cpu/cpu0",
        };

        p = dirs[below(3)];
        type = TYPE_DIR;
    }
    else
    {
        static const char *const missing[] = {
            DIR_PATH "/nope", DIR_PATH "/trace/x", DIR_PATH "/per_cpu/cpu",
            DIR_PATH "/per_cpu/cpu4096", DIR_PATH "/per_cpu/cpu0/nope",
        };

        p = missing[below(5)];
    }
    /* Learn the size, then pick a buffer around it. */
    memset(rbuf, 0, HDR);
    rc = hypfs(HYPFS_OP_read, p, rbuf, HDR);
    nr_reads++;
    if ( k > NR_FILES )
    {
        if ( rc != ENOENT )
            violation("read %s: %s, expected ENOENT", p, errname(rc));
        return;
    }
    len = (rc == 0 || rc == ENOBUFS) ? h->content_len : 0;
    switch ( below(6) )
    {
    case 0: blen = below(HDR + 1); break;
    case 1: blen = HDR + len; break;
    case 2: blen = HDR + len + below(64); break;
    case 3: blen = len ? HDR + len - 1 - below(len < 16 ? len : 16) : HDR; break;
    case 4: blen = HDR + below(len + 1); break;
    default: blen = HDR + below(2 * len + 4096); break;
    }
    if ( blen > READ_BUF )
        blen = READ_BUF;
    memset(rbuf, 0xa5, blen + 4096 < READ_BUF ? blen + 4096 : READ_BUF);
    rc = hypfs(HYPFS_OP_read, p, rbuf, blen);
    nr_reads++;
    if ( verbose )
        printf("read %s buf=%lu: %s\n", p, blen, errname(rc));
    check_read(p, type, rc, blen);
    for ( len = blen; len < blen + 4096 && len < READ_BUF; len++ )
        if ( rbuf[len] != 0xa5 )
        {
            violation("read %s buf=%lu: byte %lu past the buffer written", p,
                      blen, len);
            break;
        }
}

static int write_str(unsigned int i, const char *s)
{
    size_t n = strlen(s) + 1;

    memcpy(wbuf, s, n);
    return hypfs(HYPFS_OP_write_contents, file_path(&files[i]), wbuf, n);
}

/* A valid setup: a few functions under the function tracer, recording on. */
static void setup(void)
{
    char set[2048] = "";
    unsigned int i, n = below(4) + 1;
    int rc;

    for ( i = 0; i < n; i++ )
        snprintf(set + strlen(set), sizeof(set) - strlen(set), "%s%s",
                 i ? " " : "", name());
    if ( !below(3) )
        strcat(set, " do_xen_version xen_extra_version");
    rc = write_str(F_FILTER, set);
    if ( !rc && !below(2) )
        rc = write_str(F_TRACER, "function");
    if ( !rc )
    {
        wbuf[0] = 1;
        rc = hypfs(HYPFS_OP_write_contents, file_path(&files[F_ON]), wbuf, 1);
    }
    if ( rc && rc != EBUSY )
        printf("note: setup with '%s' failed: %s\n", shorten(set),
               errname(rc));
}

int main(int argc, char **argv)
{
    unsigned long seconds = 0;
    uint64_t seed = (uint64_t)time(NULL);
    time_t start;
    char *cpumask, *bufsize;
    unsigned int i;
    int c;

    while ( (c = getopt(argc, argv, "t:s:Lv")) != -1 )
        switch ( c )
        {
        case 't': seconds = strtoul(optarg, NULL, 0); break;
        case 's': seed = strtoull(optarg, NULL, 0); break;
        case 'L': long_lengths = true; break;
        case 'v': verbose = true; break;
        default:
            fprintf(stderr,
                    "usage: hypfs-fuzz -t SECONDS [-s SEED] [-L] [-v]\n");
            return 2;
        }
    if ( !seconds || optind != argc )
    {
        fprintf(stderr, "usage: hypfs-fuzz -t SECONDS [-s SEED] [-L] [-v]\n");
        return 2;
    }
    rng = seed ? seed : 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    fd = open("/dev/xen/privcmd", O_RDWR);
    if ( fd < 0 )
    {
        perror("/dev/xen/privcmd");
        return 2;
    }
    path_buf = locked(256);
    rbuf = locked(READ_BUF);

    /* Each file's type and maximum write length, from its header. */
    for ( i = 0; i < NR_FILES; i++ )
    {
        const struct direntry *h = (const struct direntry *)rbuf;
        int rc = hypfs(HYPFS_OP_read, file_path(&files[i]), rbuf, HDR);

        if ( rc && rc != ENOBUFS )
        {
            fprintf(stderr, "hypfs-fuzz: %s: %s\n", files[i].name,
                    errname(rc));
            return 2;
        }
        files[i].max = h->max_write_len;
        files[i].type = h->type;
        if ( files[i].max + 8 > wbuf_len )
            wbuf_len = files[i].max + 8;
    }
    wbuf = locked(wbuf_len);
    load_names();
    cpumask = read_whole(&files[F_CPUMASK]);
    bufsize = read_whole(&files[F_BUFSIZE]);
    printf("hypfs-fuzz: seed=%llu seconds=%lu names=%u long-lengths=%s\n",
           (unsigned long long)seed, seconds, nr_names,
           long_lengths ? "yes" : "no");

    start = time(NULL);
    while ( (unsigned long)(time(NULL) - start) < seconds )
    {
        ops++;
        if ( ops % 40 == 1 )
            setup();
        else if ( below(5) < 3 )
            fuzz_write();
        else
            fuzz_read();
    }

    /* Leave tracing as the suite expects it: off, nop, empty sets. */
    wbuf[0] = 0;
    hypfs(HYPFS_OP_write_contents, file_path(&files[F_ON]), wbuf, 1);
    write_str(F_TRACER, "nop");
    write_str(F_FILTER, "");
    write_str(F_NOTRACE, "");
    write_str(F_DOMAINS, "");
    if ( cpumask )
        write_str(F_CPUMASK, cpumask);
    write_str(F_ERRLOG, "");
    if ( bufsize )
    {
        uint32_t kb = strtoul(bufsize, NULL, 10);

        memcpy(wbuf, &kb, 4);
        hypfs(HYPFS_OP_write_contents, file_path(&files[F_BUFSIZE]), wbuf, 4);
    }

    printf("writes=%lu rejected=%lu reads=%lu\n", nr_writes, nr_rejected,
           nr_reads);
    printf("write results:");
    for ( i = 0; i < sizeof(err_count) / sizeof(err_count[0]); i++ )
        if ( err_count[i] )
            printf(" %s=%lu", errname(i), err_count[i]);
    printf("\n");
    printf("fuzz hypfs: ops=%lu violations=%lu seconds=%lu\n", ops,
           violations, (unsigned long)(time(NULL) - start));
    return violations ? 1 : 0;
}
