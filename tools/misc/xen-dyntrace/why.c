/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace why: which function an error came from.  record traces the
 * hypercall handlers' calls with function_graph and return values
 * (options/funcgraph-retval) for the lifetime of a command, a time or until
 * Ctrl-C; then, for each hypercall that returned an error (a handler's call,
 * at depth 1 or inside a multicall), the chain of calls from the handler
 * down to the function where that error appeared: at each level, the last
 * call in the same context (not an interrupt's) that returned the same
 * error, until a call none of whose calls did.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xen-dyntrace.h"

/*
 * The hypercalls of public/xen.h, by the handlers' names: do_NAME,
 * compat_NAME for 32-bit guests, hvm_NAME for HVM and PVH guests (those
 * this Xen has and can trace), with the few handlers named otherwise.  Not
 * iret, which returns the guest's %rax as it was, not a status.
 */
static const char *const hypercalls[] = {
    "set_trap_table", "mmu_update", "set_gdt", "stack_switch",
    "set_callbacks", "fpu_taskswitch", "sched_op_compat", "platform_op",
    "set_debugreg", "get_debugreg", "update_descriptor", "memory_op",
    "multicall", "update_va_mapping", "set_timer_op",
    "event_channel_op_compat", "xen_version", "console_io",
    "physdev_op_compat", "grant_table_op", "vm_assist",
    "update_va_mapping_otherdomain", "vcpu_op", "set_segment_base",
    "mmuext_op", "xsm_op", "nmi_op", "sched_op", "callback_op",
    "xenoprof_op", "event_channel_op", "physdev_op", "hvm_op", "sysctl",
    "domctl", "kexec_op", "argo_op", "xenpmu_op", "dm_op", "hypfs_op",
    "mca", "paging_domctl_cont", "arm_physdev_op",
};

/* Is name a hypercall handler's (above)? */
static bool is_handler(const char *name)
{
    size_t i;

    if ( !strncmp(name, "do_", 3) || !strncmp(name, "hvm_", 4) )
        name += name[0] == 'd' ? 3 : 4;
    else if ( !strncmp(name, "compat_", 7) )
        name += 7;
    else
        return false;
    for ( i = 0; i < sizeof(hypercalls) / sizeof(hypercalls[0]); i++ )
        if ( !strcmp(name, hypercalls[i]) )
            return true;

    return false;
}

/* The context flags a chain keeps to: a call of an interrupt is another's. */
#define CTX_FLAGS (XEN_DYNTRACE_FLAG_IN_IRQ | XEN_DYNTRACE_FLAG_IN_NMI)

/* A call that returned, in the order calls return (a post-order walk). */
struct why_call {
    uint64_t func, ts, retval;
    unsigned int depth, flags;
    bool has_retval;
};

/* One vCPU's calls since its current hypercall began. */
struct why_vcpu {
    uint32_t key;               /* domid << 16 | vCPU */
    struct why_call *v;
    size_t n, cap;
    bool cut;                   /* records lost since its hypercall began */
};

/* Each function's address, and whether it is a handler (is_handler()). */
struct why_fn {
    uint64_t addr;
    bool handler;
};

struct why_state {
    const struct xdt_names *names;
    struct why_vcpu *vcpus;
    size_t nr_vcpus;
    struct why_fn *fns;
    size_t nr_fns;
    unsigned long hypercalls, failed, lost;
    bool oom;
};

static void usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace why [-d DOMAINS] [-l FILTER] [-b KB] [-t SECONDS]\n"
"                        [-o FILE] [--no-filter] [[--] COMMAND [ARG...]]\n"
"  Trace the hypercalls made while COMMAND runs (or for SECONDS, or until\n"
"  Ctrl-C) with function_graph and return values, then print, for each\n"
"  hypercall that returned an error, the calls from its handler down to\n"
"  the function where that error appeared.\n"
"  -d DOMAINS  only these domains' hypercalls (set_domain_filter's words)\n"
"  -l FILTER   the functions traced under the handlers (default: '*')\n"
"  -b KB       buffer_size_kb (per CPU) while tracing (default: 4096; put\n"
"              back afterwards)\n"
"  -t SECONDS  stop after SECONDS\n"
"  -o FILE     keep the capture there (default: a temporary file in\n"
"              $TMPDIR, removed)\n"
"  --no-filter also trace the dom0 vCPU this command runs on (always with\n"
"              a one-vCPU dom0 and no -d: the buffers are then read at the\n"
"              end)\n"
"  Exit status: COMMAND's when there is one, else 0; 1 on failure.\n");
}

/* The handlers this Xen can trace: "do_a compat_a do_b ...", or NULL. */
static char *hypercall_roots(xenhypfs_handle *fs)
{
    char *avail, *roots = NULL, *line, *save = NULL;
    size_t len = 0;
    bool first = true;
    FILE *m;

    avail = xdt_tracing_read(fs, "available_functions");
    if ( !avail )
    {
        xdt_err("why: reading %savailable_functions: %s", XDT_TRACING,
                strerror(errno));
        return NULL;
    }
    m = open_memstream(&roots, &len);
    if ( !m )
    {
        free(avail);
        return NULL;
    }
    for ( line = strtok_r(avail, "\n", &save); line;
          line = strtok_r(NULL, "\n", &save) )
        if ( is_handler(line) )
        {
            fprintf(m, "%s%s", first ? "" : " ", line);
            first = false;
        }
    free(avail);
    if ( fclose(m) || !roots || !*roots )
    {
        if ( roots && !*roots )
            xdt_err("why: no hypercall handler of this Xen can be traced");
        free(roots);
        return NULL;
    }

    return roots;
}

/* Is the function at addr a handler?  -1: no memory. */
static int handler_at(struct why_state *w, uint64_t addr)
{
    char fn[256];
    struct why_fn *f;
    size_t i;

    for ( i = 0; i < w->nr_fns; i++ )
        if ( w->fns[i].addr == addr )
            return w->fns[i].handler;
    f = realloc(w->fns, (w->nr_fns + 1) * sizeof(*f));
    if ( !f )
        return -1;
    w->fns = f;
    xdt_name_ip(w->names, addr, fn, sizeof(fn));
    f[w->nr_fns] = (struct why_fn){ .addr = addr, .handler = is_handler(fn) };

    return f[w->nr_fns++].handler;
}

static struct why_vcpu *vcpu_of(struct why_state *w,
                                const struct xen_dyntrace_record *r)
{
    uint32_t key = (uint32_t)r->domid << 16 | r->vcpu;
    struct why_vcpu *v;
    size_t i;

    for ( i = 0; i < w->nr_vcpus; i++ )
        if ( w->vcpus[i].key == key )
            return &w->vcpus[i];
    v = realloc(w->vcpus, (w->nr_vcpus + 1) * sizeof(*v));
    if ( !v )
        return NULL;
    w->vcpus = v;
    v = &w->vcpus[w->nr_vcpus++];
    *v = (struct why_vcpu){ .key = key };

    return v;
}

/*
 * Call i returned error err: print it, then the last of its own calls
 * (the calls of depth + 1 before it, back to a call at its depth or
 * above) in its context that returned the same error, and so on down.
 */
static void print_chain(const struct why_state *w, const struct why_vcpu *v,
                        size_t i, long err)
{
    unsigned int indent = 2;

    for ( ;; )
    {
        const struct why_call *c = &v->v[i];
        char fn[256], val[48];
        size_t j;
        long e;

        xdt_name_ip(w->names, c->func, fn, sizeof(fn));
        xdt_retval_text(c->retval, val, sizeof(val));
        for ( j = i; j-- && v->v[j].depth > c->depth; )
            if ( v->v[j].depth == c->depth + 1 && v->v[j].has_retval &&
                 (v->v[j].flags & CTX_FLAGS) == (c->flags & CTX_FLAGS) &&
                 xdt_retval_error(v->v[j].retval, &e) && e == err )
                break;
        if ( j == (size_t)-1 || v->v[j].depth <= c->depth )
        {
            printf("%*s%s() = %s   <- the error appeared here\n", indent, "",
                   fn, val);
            return;
        }
        printf("%*s%s() = %s\n", indent, "", fn, val);
        indent += 2;
        i = j;
    }
}

/* A handler's call returned (the last call of v's list). */
static void hypercall_done(struct why_state *w, struct why_vcpu *v,
                           const struct xen_dyntrace_record *r)
{
    const struct why_call *c = &v->v[v->n - 1];
    char fn[256], ctx[32], val[48];
    long err = (long)c->retval;

    w->hypercalls++;
    /* Handlers return long: an error is -1 to -4095 as such. */
    if ( !c->has_retval || err >= 0 || err < -4095 )
        return;
    w->failed++;
    xdt_name_ip(w->names, c->func, fn, sizeof(fn));
    xdt_context(r, ctx, sizeof(ctx));
    xdt_retval_text(c->retval, val, sizeof(val));
    printf("%s [%03u] %" PRIu64 ".%06" PRIu64 ": %s returned %s\n", ctx,
           r->cpu, r->ts / 1000000000, r->ts % 1000000000 / 1000, fn, val);
    print_chain(w, v, v->n - 1, err);
    if ( v->cut )
        printf("  (records were lost meanwhile: the chain may stop short)\n");
}

static int why_event(const struct xdt_event *e, void *arg)
{
    struct why_state *w = arg;
    const struct xen_dyntrace_record *r = &e->rec;
    struct why_vcpu *v;
    size_t i;
    int h;

    if ( e->lost )
    {
        /* Calls under way may have lost their records: start over. */
        w->lost += r->ip;
        for ( i = 0; i < w->nr_vcpus; i++ )
        {
            w->vcpus[i].n = 0;
            w->vcpus[i].cut = true;
        }
        return 0;
    }
    if ( xdt_is_event(r) ||
         !(r->flags & (XEN_DYNTRACE_FLAG_GRAPH_ENT |
                       XEN_DYNTRACE_FLAG_GRAPH_RET)) )
        return 0;
    v = vcpu_of(w, r);
    if ( !v )
    {
        w->oom = true;
        return -1;
    }
    /* A handler's call begins (depth 1: set_graph_function's roots). */
    if ( !(r->flags & XEN_DYNTRACE_FLAG_GRAPH_RET) )
    {
        if ( r->depth == 1 )
        {
            v->n = 0;
            v->cut = false;
        }
        return 0;
    }
    if ( v->n == v->cap )
    {
        size_t cap = v->cap ? 2 * v->cap : 64;
        struct why_call *n = realloc(v->v, cap * sizeof(*n));

        if ( !n )
        {
            w->oom = true;
            return -1;
        }
        v->v = n;
        v->cap = cap;
    }
    v->v[v->n++] = (struct why_call){
        .func = r->ip, .ts = r->ts, .retval = e->retval, .depth = r->depth,
        .flags = r->flags, .has_retval = e->has_retval,
    };
    /* A handler's: at depth 1, or a multicall's call. */
    h = handler_at(w, r->ip);
    if ( h < 0 )
    {
        w->oom = true;
        return -1;
    }
    if ( h )
        hypercall_done(w, v, r);
    if ( r->depth == 1 )
    {
        v->n = 0;
        v->cut = false;
    }

    return 0;
}

/* The capture's hypercalls that returned an error, with their chains. */
static int explain(const char *path)
{
    struct xdt_capture c;
    struct xdt_names n = { .cap = &c };
    struct why_state w = { .names = &n };
    int rc = xdt_capture_load(&c, path);
    size_t i;

    if ( rc != XDT_EXIT_OK && rc != XDT_EXIT_TRUNCATED &&
         rc != XDT_EXIT_NOSUMMARY )
        return XDT_EXIT_FAIL;
    if ( xdt_capture_iterate(&c, why_event, &w) && !w.oom )
        rc = XDT_EXIT_FAIL;
    if ( w.oom )
    {
        xdt_err("why: %s", strerror(ENOMEM));
        rc = XDT_EXIT_FAIL;
    }
    printf("why: %lu hypercall%s traced, %lu returned an error", w.hypercalls,
           w.hypercalls == 1 ? "" : "s", w.failed);
    if ( w.lost )
        printf("; %lu records lost (a larger -b keeps them)", w.lost);
    printf("\n");
    for ( i = 0; i < w.nr_vcpus; i++ )
        free(w.vcpus[i].v);
    free(w.vcpus);
    free(w.fns);
    xdt_capture_free(&c);

    return rc == XDT_EXIT_FAIL ? rc : XDT_EXIT_OK;
}

int cmd_why(int argc, char **argv)
{
    static const struct option longs[] = {
        { "no-filter", no_argument, NULL, 'F' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    const char *domains = NULL, *filter = "*", *kb = "4096", *secs = NULL;
    const char *out = NULL, *tmpdir = getenv("TMPDIR");
    char *tmp = NULL, *roots = NULL, *lfilter = NULL, *old_kb = NULL;
    const char **rargv = NULL;
    unsigned int nr = 0;
    bool no_filter = false, one_vcpu;
    cpu_set_t cpus;
    xenhypfs_handle *fs;
    struct stat st;
    int c, rc = XDT_EXIT_FAIL, erc, i;

    optind = 1;
    while ( (c = getopt_long(argc, argv, "+d:l:b:t:o:h", longs, NULL)) != -1 )
    {
        switch ( c )
        {
        case 'd': domains = optarg; break;
        case 'l': filter = optarg; break;
        case 'b': kb = optarg; break;
        case 't': secs = optarg; break;
        case 'o': out = optarg; break;
        case 'F': no_filter = true; break;
        case 'h':
            usage(stdout);
            return XDT_EXIT_OK;
        default:
            usage(stderr);
            return XDT_EXIT_USAGE;
        }
    }
    if ( out && xdt_is_stdout(out) )
    {
        xdt_err("why: -o -: the explanation goes to standard output; give a "
                "file");
        return XDT_EXIT_USAGE;
    }
    fs = xdt_tracing_open("why");
    if ( !fs )
        return XDT_EXIT_FAIL;
    roots = hypercall_roots(fs);
    /* Put back afterwards: -b is for the time of the tracing only. */
    old_kb = xdt_tracing_read(fs, "buffer_size_kb");
    xenhypfs_close(fs);
    if ( !roots )
        goto out;
    /* The handlers are patched too, whatever -l says. */
    if ( strcmp(filter, "*") &&
         asprintf(&lfilter, "%s %s", roots, filter) < 0 )
        goto out;
    if ( out )
    {
        /* A failed set-up must not leave an earlier run's capture to read. */
        if ( unlink(out) && errno != ENOENT )
        {
            xdt_err("why: %s: %s", out, strerror(errno));
            goto out;
        }
    }
    else
    {
        int fd;

        if ( asprintf(&tmp, "%s/xen-dyntrace-why.XXXXXX",
                      tmpdir && *tmpdir ? tmpdir : "/tmp") < 0 )
        {
            tmp = NULL;
            goto out;
        }
        fd = mkstemp(tmp);
        if ( fd < 0 )
        {
            xdt_err("why: %s: %s", tmp, strerror(errno));
            free(tmp);
            tmp = NULL;
            goto out;
        }
        close(fd);
        out = tmp;
    }

    /* record's options (at most 21 words), the command, the end. */
    rargv = calloc(argc - optind + 22, sizeof(*rargv));
    if ( !rargv )
        goto out;
    rargv[nr++] = "record";
    rargv[nr++] = "-p";
    rargv[nr++] = "function_graph";
    rargv[nr++] = "-g";
    rargv[nr++] = roots;
    rargv[nr++] = "-l";
    rargv[nr++] = lfilter ?: filter;
    rargv[nr++] = "-O";
    rargv[nr++] = "funcgraph-retval";
    rargv[nr++] = "-q";
    rargv[nr++] = "-o";
    rargv[nr++] = out;
    if ( domains )
        rargv[nr++] = "-d", rargv[nr++] = domains;
    rargv[nr++] = "-b";
    rargv[nr++] = kb;
    if ( secs )
        rargv[nr++] = "-t", rargv[nr++] = secs;
    /*
     * record leaves out the dom0 vCPU it runs on, and runs the command on
     * the others.  With one, there are none: trace that one too, and read
     * the buffers only once tracing is off (the reads are not traced).
     */
    one_vcpu = !sched_getaffinity(0, sizeof(cpus), &cpus) &&
               CPU_COUNT(&cpus) == 1;
    if ( one_vcpu && !no_filter && !domains )
        xdt_err("why: one dom0 vCPU to run on: it is traced too, and the "
                "buffers are read when the tracing ends (-b %s KiB per CPU "
                "must hold it all)", kb);
    if ( no_filter || (one_vcpu && !domains) )
        rargv[nr++] = "--no-filter";
    if ( one_vcpu && !domains )
        rargv[nr++] = "--no-stream";
    rargv[nr++] = "--";
    for ( i = optind; i < argc; i++ )
        rargv[nr++] = argv[i];
    rargv[nr] = NULL;

    rc = cmd_record(nr, (char **)rargv);
    /*
     * record's handlers of the stop signals, which only note them, stay
     * until the buffer size is back; then the reading may be stopped.
     */
    if ( old_kb && (fs = xenhypfs_open(NULL, 0)) != NULL )
    {
        char *now = xdt_tracing_read(fs, "buffer_size_kb");

        if ( now && strcmp(now, old_kb) &&
             xdt_tracing_write(fs, "buffer_size_kb", old_kb) )
            xdt_err("why: putting buffer_size_kb back to %s: %s", old_kb,
                    strerror(errno));
        free(now);
        xenhypfs_close(fs);
    }
    for ( i = 0; i < (int)(sizeof(stops) / sizeof(stops[0])); i++ )
        signal(stops[i], SIG_DFL);
    /*
     * record's own failures (1, 2, 128+N in its set-up) leave no capture, or
     * the empty file made for it; else rc is COMMAND's status.
     */
    if ( stat(out, &st) || !st.st_size )
        goto out;
    erc = explain(out);
    if ( erc == XDT_EXIT_FAIL )
        rc = erc;

 out:
    if ( tmp )
    {
        unlink(tmp);
        free(tmp);
    }
    free(rargv);
    free(roots);
    free(lfilter);
    free(old_kb);

    return rc;
}
