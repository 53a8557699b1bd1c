/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host unit tests of the hypervisor part of xen-dyntrace: the very files
 * Xen builds (xen/common/dyntrace/{sites,ring,scope,tracer,patch,hypfs,
 * function,return,profile}.c) compiled against the stub headers of include/
 * and linked with the stubs (stubs.c, hypfs-stub.c, image.c).
 * tests/host/test-unit builds and runs them; see the comment there.
 *
 * Usage: unit GROUP LABEL [TEST]
 *   GROUP "functional" or "scale"; LABEL prefixes every result; TEST runs
 *   one test only.  Each test runs in its own process (fork), from a
 *   pristine stub "Xen": a crash, a failed ASSERT or a sanitizer report
 *   (non-zero exit) is a failed result.  Output: "ok - ..." / "not ok - ..."
 *   lines and "# ..." comments; test-unit numbers the lines.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xen/dyntrace.h>
#include <xen/hypfs.h>
#include <xen/init.h>
#include <xen/sched.h>

#include "unit.h"

/* ---- TAP ---- */

static const char *label = "unit";
static const char *cur_test;
static unsigned int results, failures, anomalies_seen;

bool ok(bool cond, const char *fmt, ...)
{
    va_list ap;
    bool anomaly = stub_anomalies != anomalies_seen;

    anomalies_seen = stub_anomalies;
    printf("%sok - %s: ", cond && !anomaly ? "" : "not ", label);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if ( anomaly )
        printf(" [stub anomaly: %s]", stub_anomaly_first);
    printf("\n");
    fflush(stdout);
    results++;
    if ( !cond || anomaly )
        failures++;

    return cond && !anomaly;
}

void diag(const char *fmt, ...)
{
    va_list ap;

    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* ---- Boot ---- */

extern initcall_t __start_stub_presmp_initcalls[];
extern initcall_t __stop_stub_presmp_initcalls[];
extern initcall_t __start_stub_initcalls[];
extern initcall_t __stop_stub_initcalls[];

bool boot_no_sites;

void boot(unsigned int ncpus, unsigned int nfuncs)
{
    struct stub_ctx ctx = stub_ctx_enter(0, stub_idle_vcpu(0), true);
    initcall_t *call;
    unsigned int cpu;

    img_setup(nfuncs, boot_no_sites);
    stub_cpus_reset(ncpus);
    /* As __start_xen(): presmp initcalls on CPU 0, APs up, initcalls. */
    for ( call = __start_stub_presmp_initcalls;
          call < __stop_stub_presmp_initcalls; call++ )
        (*call)();
    for ( cpu = 1; cpu < ncpus; cpu++ )
        stub_cpu_up(cpu);
    for ( call = __start_stub_initcalls; call < __stop_stub_initcalls; call++ )
        (*call)();
    stub_ctx_restore(ctx);
}

/* ---- The tool ---- */

unsigned int last_runs;

struct vcpu *dom0(unsigned int vcpu)
{
    return stub_guest_vcpu(0, vcpu);
}

int hyp_write(struct vcpu *v, unsigned int cpu, const char *leaf,
              const void *data, unsigned int len)
{
    struct stub_ctx ctx = stub_ctx_enter(cpu, v, true);
    char path[64];
    int rc;

    snprintf(path, sizeof(path), "/tracing/%s", leaf);
    rc = stub_hypfs_op(true, path, (void *)data, len);
    stub_ctx_restore(ctx);

    return rc;
}

void finish_hcall(struct vcpu *v)
{
    unsigned int guard = 0;

    while ( stub_hcall_of(v)->paused && stub_run_tasklet() )
        if ( ++guard == 1000 )
        {
            stub_anomaly("a continuation that never ends");
            break;
        }
}

static long write_bytes(const char *leaf, const void *data, unsigned int len)
{
    struct vcpu *v = dom0(0);
    struct stub_hcall *h = stub_hcall_of(v);
    long rc;

    h->runs = 0;
    h->done = false;
    rc = hyp_write(v, WRITER_CPU, leaf, data, len);
    if ( h->paused )
    {
        finish_hcall(v);
        rc = h->result;
    }
    last_runs = h->runs;

    return rc;
}

long tool_write(const char *leaf, const char *s)
{
    return write_bytes(leaf, s, strlen(s) + 1);
}

long tool_write_bool(const char *leaf, uint8_t val)
{
    return write_bytes(leaf, &val, 1);
}

long tool_write_u32(const char *leaf, uint32_t val)
{
    return write_bytes(leaf, &val, sizeof(val));
}

long tool_write_raw(const char *leaf, const void *data, unsigned int len)
{
    return write_bytes(leaf, data, len);
}

int hyp_read(const char *path, void *content, unsigned int cap,
             unsigned int *len)
{
    /* Reads come from a vCPU that makes no writes (never paused). */
    struct stub_ctx ctx = stub_ctx_enter(WRITER_CPU, dom0(7), true);
    size_t ulen = sizeof(struct xen_hypfs_direntry) + cap;
    struct xen_hypfs_direntry *e = malloc(ulen);
    int rc;

    rc = stub_hypfs_op(false, path, e, ulen);
    stub_ctx_restore(ctx);
    if ( len )
        *len = rc == -EINVAL ? 0 : e->content_len;
    if ( !rc && content )
        memcpy(content, e + 1, e->content_len);
    free(e);

    return rc;
}

char *tool_read(const char *leaf)
{
    unsigned int cap = 4096, len;
    char path[64];
    int tries;

    snprintf(path, sizeof(path), "/tracing/%s", leaf);
    for ( tries = 0; tries < 4; tries++ )
    {
        char *buf = malloc(cap + 1);
        int rc = hyp_read(path, buf, cap, &len);

        if ( !rc )
        {
            buf[len] = '\0';
            /* A string's size is its length and one NUL, exactly. */
            if ( !len || strlen(buf) + 1 != len )
            {
                diag("%s: content_len %u for a string of %zu bytes", leaf,
                     len, strlen(buf));
                free(buf);
                return NULL;
            }
            return buf;
        }
        free(buf);
        if ( rc != -ENOBUFS )
            return NULL;
        cap = len;
    }

    return NULL;
}

/* ---- Tracing ---- */

unsigned long unit_stacks[NR_CPUS][16];

unsigned long unit_ret_of(unsigned int fn)
{
    return img_addr((fn + 1) % img_nfuncs()) + 0x11;
}

bool unit_call_at(unsigned int cpu, struct vcpu *v, unsigned int fn,
             unsigned long *slot)
{
    struct stub_ctx ctx = stub_ctx_enter(cpu, v, true);

    *slot = unit_ret_of(fn);
    dyntrace_dispatch(img_addr(fn), *slot, slot);
    stub_ctx_restore(ctx);

    return *slot == (unsigned long)dyntrace_return_trampoline;
}

bool unit_return_at(unsigned int cpu, struct vcpu *v, unsigned int fn,
               unsigned long *slot)
{
    struct stub_ctx ctx = stub_ctx_enter(cpu, v, true);
    unsigned long ret = dyntrace_return((unsigned long)slot);

    stub_ctx_restore(ctx);

    return ret == unit_ret_of(fn);
}

bool start_tracing(const char *filter)
{
    return tool_write("set_function_filter", filter) == 0 &&
           tool_write("current_tracer", "function") == 0 &&
           tool_write_bool("tracing_on", 1) == 0;
}

struct logged {
    unsigned long long us;
    unsigned int fn, caller;
};
static struct logged *rec_log;
static size_t rec_logged, rec_log_room;

void record(unsigned int cpu, unsigned int fn, unsigned int caller,
            s_time_t t)
{
    struct stub_ctx ctx;

    if ( rec_logged == rec_log_room )
    {
        rec_log_room = rec_log_room ? 2 * rec_log_room : 1024;
        rec_log = realloc(rec_log, rec_log_room * sizeof(*rec_log));
    }
    rec_log[rec_logged].us = t / 1000;
    rec_log[rec_logged].fn = fn;
    rec_log[rec_logged++].caller = caller;

    stub_advance_to(t);
    ctx = stub_ctx_enter(cpu, stub_guest_vcpu(1 + cpu % 3, cpu % 8), true);
    stub_trampoline(img_addr(fn), img_addr(caller) + 0x11);
    stub_ctx_restore(ctx);
}

bool traced_exactly(const unsigned long *want)
{
    unsigned int i;

    for ( i = 0; i < img_nfuncs(); i++ )
    {
        bool w = want[i / BITS_PER_LONG] & (1UL << (i % BITS_PER_LONG));

        if ( w ? !img_site_is_call(img_addr(i)) : !img_site_is_nop(img_addr(i)) )
            return false;
    }

    return true;
}

void parse_trace(const char *text, struct trace_info *ti)
{
    const char *p = text, *h;
    unsigned long long prev = 0;

    memset(ti, 0, sizeof(*ti));
    ti->sorted = true;
    h = strstr(text, "# entries-in-buffer/entries-written: ");
    ti->header_ok = h && sscanf(h, "# entries-in-buffer/entries-written: "
                                   "%llu/%llu", &ti->entries,
                                &ti->written) == 2;
    while ( *p )
    {
        const char *eol = strchr(p, '\n');
        const char *br = strchr(p, ']');
        unsigned long sec, usec;
        char flags[4], line[64];

        if ( !eol )
            eol = p + strlen(p);
        if ( *p != '#' )
        {
            /* sscanf() measures its input: give it the line only. */
            if ( br && br < eol )
                snprintf(line, sizeof(line), "%.*s", (int)(eol - br), br);
            if ( br && br < eol &&
                 sscanf(line, "] %3c %lu.%lu: ", flags, &sec, &usec) == 3 )
            {
                unsigned long long us = sec * 1000000ULL + usec;

                if ( ti->lines && us < prev )
                    ti->sorted = false;
                if ( !ti->lines )
                    ti->first_us = us;
                ti->last_us = prev = us;
                ti->lines++;
            }
            else
                ti->bad_lines++;
        }
        p = *eol ? eol + 1 : eol;
    }
}

bool parse_line(const char *p, struct trace_line *l)
{
    const char *eol = strchrnul(p, '\n');
    unsigned long sec, usec;
    char line[160];
    int n = 0;

    if ( *p == '#' || eol - p >= (long)sizeof(line) )
        return false;
    /* sscanf() measures its input: give it the line only. */
    memcpy(line, p, eol - p);
    line[eol - p] = '\0';
    if ( sscanf(line, "%*s [%u] %*3c %lu.%lu: %47s <-%47s%n", &l->cpu, &sec,
                &usec, l->fn, l->caller, &n) != 5 || line[n] )
        return false;
    l->us = sec * 1000000ULL + usec;

    return true;
}

static const struct logged *logged_at(unsigned long long us)
{
    size_t lo = 0, hi = rec_logged;

    while ( lo < hi )
    {
        size_t mid = lo + (hi - lo) / 2;

        if ( rec_log[mid].us < us )
            lo = mid + 1;
        else
            hi = mid;
    }

    return lo < rec_logged && rec_log[lo].us == us ? &rec_log[lo] : NULL;
}

bool names_match(const char *text, unsigned long *bad)
{
    const char *p;
    unsigned long lines = 0;

    *bad = 0;
    for ( p = text; *p; p = *p ? p + 1 : p )
    {
        struct trace_line l;
        const struct logged *g;

        if ( parse_line(p, &l) )
        {
            lines++;
            g = logged_at(l.us);
            if ( !g || strcmp(l.fn, img_name(g->fn)) ||
                 strcmp(l.caller, img_name(g->caller)) )
            {
                if ( !(*bad)++ )
                    diag("first wrong line: %.*s (recorded: %s <-%s)",
                         (int)(strchrnul(p, '\n') - p), p,
                         g ? img_name(g->fn) : "?",
                         g ? img_name(g->caller) : "?");
            }
        }
        p = strchrnul(p, '\n');
    }

    return lines && !*bad;
}

/* ---- The runner ---- */

struct test {
    const char *group, *name;
    void (*fn)(void);
};

static const struct test tests[] = {
    { "functional", "boot", t_boot },
    { "functional", "names", t_names },
    { "functional", "clear-read-small", t_clear_read_small },
    { "functional", "retry-cache", t_retry_cache },
    { "functional", "pending-op", t_pending_op },
    { "functional", "rendezvous-retry", t_rendezvous_retry },
    { "functional", "boot-errors", t_boot_errors },
    { "functional", "counters", t_counters },
    { "functional", "anchors", t_anchors },
    { "functional", "anchor-after", t_anchor_after },
    { "functional", "permission", t_permission },
    { "functional", "overlap", t_overlap },
    { "functional", "rollback", t_rollback },
    { "functional", "rollback-fails", t_rollback_fails },
    { "functional", "filter-language", t_filter_language },
    { "functional", "error-log", t_error_log },
    { "functional", "error-log-sizes", t_error_log_sizes },
    { "functional", "enabled-functions", t_enabled_functions },
    { "functional", "scope", t_scope },
    { "functional", "scope-cpu-not-ready", t_scope_cpu_not_ready },
    { "functional", "scope-cpu-parked", t_scope_cpu_parked },
    { "functional", "fast-targets", t_fast_targets },
    { "functional", "return-wait-queue", t_return_wait_queue },
    { "functional", "return-backtrace", t_return_backtrace },
    { "functional", "buffer-size", t_buffer_size },
    { "functional", "trace-pipe", t_trace_pipe },
    { "functional", "per-cpu", t_per_cpu },
    { "functional", "functions-addrs", t_functions_addrs },
    { "functional", "graph-nested", t_graph_nested },
    { "functional", "graph-max-depth", t_graph_max_depth },
    { "functional", "graph-thresh", t_graph_thresh },
    { "functional", "graph-function", t_graph_function },
    { "functional", "graph-abandoned", t_graph_abandoned },
    { "functional", "profile-abandoned", t_profile_abandoned },
    { "functional", "profile-returned", t_profile_returned },
    { "functional", "profile-trim", t_profile_trim },
    { "functional", "profile-variance", t_profile_variance },
    { "scale", "scale", t_scale },
};

static void run_child(const struct test *t)
{
    cur_test = t->name;
    if ( getenv("UNIT_XEN_LOG") )
        stub_log_echo = true;
    t->fn();
    if ( stub_anomalies != anomalies_seen )
        ok(false, "%s: stub anomaly after the last check: %s", cur_test,
           stub_anomaly_first);
    if ( stub_cpu_maps_held )
        ok(false, "%s: CPU maps still held (%u)", cur_test,
           stub_cpu_maps_held);
    fflush(stdout);
    exit(failures ? 1 : 0);
}

int main(int argc, char **argv)
{
    unsigned int i, ran = 0, bad = 0;

    if ( argc < 3 )
    {
        fprintf(stderr, "usage: %s functional|scale LABEL [TEST]\n", argv[0]);
        return 2;
    }
    label = argv[2];
    setvbuf(stdout, NULL, _IOLBF, 0);

    for ( i = 0; i < ARRAY_SIZE(tests); i++ )
    {
        const struct test *t = &tests[i];
        int status;
        pid_t pid;

        if ( strcmp(t->group, argv[1]) || (argc > 3 && strcmp(t->name, argv[3])) )
            continue;
        ran++;
        fflush(stdout);
        fflush(stderr);
        pid = fork();
        if ( pid < 0 )
        {
            perror("fork");
            return 2;
        }
        if ( !pid )
            run_child(t);
        if ( waitpid(pid, &status, 0) != pid )
        {
            perror("waitpid");
            return 2;
        }
        if ( WIFEXITED(status) && WEXITSTATUS(status) <= 1 )
            bad |= WEXITSTATUS(status);
        else
        {
            bad = 1;
            if ( WIFSIGNALED(status) )
                printf("not ok - %s: %s: crashed (signal %d)\n", label,
                       t->name, WTERMSIG(status));
            else
                printf("not ok - %s: %s: exited %d (sanitizer report or "
                       "abort: see the log)\n", label, t->name,
                       WEXITSTATUS(status));
        }
    }
    if ( !ran )
    {
        printf("not ok - %s: no test matched\n", label);
        return 1;
    }

    return bad;
}
