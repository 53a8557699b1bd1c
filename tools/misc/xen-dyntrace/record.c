/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace record: set the tracer up through HypFS (libxenhypfs), then
 * stream every CPU's /tracing/per_cpu/cpuN/trace_pipe_raw into a capture
 * file until the time is up or SIGINT/SIGTERM/SIGHUP/SIGQUIT, drain what is
 * left after tracing stops, and put the tracer back as it was.  The same
 * signals during the set-up stop it there: what it changed is put back.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "xen-dyntrace.h"

#define TRACING XDT_TRACING

#define MAX_TRIGGERS 8
#define MAX_OPTIONS 4

struct rec_opts {
    const char *tracer, *filter, *notrace, *domains, *out;
    const char *cpumask, *graph, *depth, *thresh;
    char *events;               /* -e's words, for set_event */
    const char *triggers[MAX_TRIGGERS];
    unsigned int nr_triggers;
    /* -O: options/NAME to 1, or to 0 as "noNAME" (trace-cmd's -O). */
    const char *options[MAX_OPTIONS];
    unsigned int nr_options;
    char **command;             /* -- COMMAND [ARG...], or NULL */
    unsigned long buffer_kb;
    double seconds;
    unsigned int interval_ms;
    bool keep, quiet, no_filter, no_stream;
};

struct rec_state {
    xenhypfs_handle *fs;
    struct xdt_writer w;
    unsigned int *cpus, nr_cpus;
    uint64_t records, lost, reads, eagain, unsaved;
    uint64_t *cpu_records;
    int self_vcpu;              /* dom0 vCPU we run on and exclude, or -1 */
    char *domains;              /* set_domain_filter as written */
    /* What to put back. */
    char *old_tracer, *old_filter, *old_notrace, *old_domains, *old_kb;
    char *old_cpumask, *old_graph, *old_depth, *old_thresh, *old_events;
    bool old_on;
    /* What was written (Xen takes a write whole or not at all). */
    bool wrote_kb, wrote_filter, wrote_notrace, wrote_domains, wrote_tracer;
    bool wrote_cpumask, wrote_graph, wrote_depth, wrote_thresh, wrote_events;
    /* Each --trigger taken; an event's trigger file as found. */
    bool took_trigger[MAX_TRIGGERS];
    char *old_trigger[MAX_TRIGGERS];
    /* Each -O's file (options/NAME), its value as found, whether written. */
    char *option_file[MAX_OPTIONS], *old_option[MAX_OPTIONS];
    bool wrote_option[MAX_OPTIONS];
    unsigned int fn_triggers_taken;
    const char *step;           /* the last set-up step done */
    cpu_set_t affinity;         /* as found, before exclude_self() pins */
    struct xdt_command cmd;
    FILE *msg;                  /* the summary's stream: stderr for -o - */
};

/* The signals that stop a recording (or its set-up); 0 while none came. */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
/* The first stop signal; how many came, and the last (passed on). */
static volatile sig_atomic_t stop_requested, stop_count, stop_last;

static void on_signal(int sig)
{
    if ( !stop_requested )
        stop_requested = sig;
    stop_last = sig;
    stop_count++;
}

static const char *signal_name(int sig)
{
    switch ( sig )
    {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGQUIT: return "SIGQUIT";
    }

    return "a signal";
}

/*
 * Before anything is read or written: each stop signal only sets
 * stop_requested (no SA_RESTART: a sleep ends early), and a closed pipe
 * makes a write fail EPIPE instead of killing the recorder with the tracer
 * still set up.  A SIGHUP ignored on entry (nohup) stays ignored: it cannot
 * kill the recorder then.  SIGINT and SIGQUIT are caught even when ignored
 * on entry (a background job of a shell without job control), as SIGTERM:
 * who sends them means to stop the recording.
 */
static void catch_signals(void)
{
    struct sigaction sa = { .sa_handler = on_signal }, old;
    unsigned int i;

    sigemptyset(&sa.sa_mask);
    for ( i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++ )
        sigaddset(&sa.sa_mask, stop_signals[i]);
    for ( i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++ )
    {
        if ( stop_signals[i] == SIGHUP &&
             !sigaction(SIGHUP, NULL, &old) && old.sa_handler == SIG_IGN )
            continue;
        sigaction(stop_signals[i], &sa, NULL);
    }
    signal(SIGPIPE, SIG_IGN);
}

/* Hold the stop signals (while putting back) or let them in again. */
static void hold_signals(bool hold, sigset_t *saved)
{
    sigset_t set;
    unsigned int i;

    if ( !hold )
    {
        sigprocmask(SIG_SETMASK, saved, NULL);
        return;
    }
    sigemptyset(&set);
    for ( i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++ )
        sigaddset(&set, stop_signals[i]);
    sigprocmask(SIG_BLOCK, &set, saved);
}

/*
 * A test aid, not a user option (tests/dom0/record/05-killed.sh):
 * XEN_DYNTRACE_TEST_PAUSE_AT=STEP stops record right after the set-up step
 * STEP (see setup_step()), says so on standard error and waits up to 60 s
 * for a signal, so that a test can kill it there.
 */
static void test_pause(const char *step, const sigset_t *mask)
{
    const char *at = getenv("XEN_DYNTRACE_TEST_PAUSE_AT");
    struct timespec ts = { .tv_nsec = 10 * 1000 * 1000 };
    unsigned int i;

    if ( !at || strcmp(at, step) )
        return;
    fprintf(stderr, "record: test pause after %s\n", step);
    for ( i = 0; i < 6000 && !stop_requested; i++ )
        ppoll(NULL, 0, &ts, mask);
}

/*
 * After each set-up step: -1 if it failed or a stop signal came (the set-up
 * is then abandoned and what it changed put back), else 0.
 */
static int setup_step(struct rec_state *s, const char *step, int failed)
{
    if ( failed )
        return -1;
    s->step = step;
    test_pause(step, NULL);

    return stop_requested ? -1 : 0;
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);

    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *read_string(struct rec_state *s, const char *file)
{
    return xdt_tracing_read(s->fs, file);
}

static int set_file(struct rec_state *s, const char *file, const char *val)
{
    if ( !xdt_tracing_write(s->fs, file, val) )
        return 0;
    xdt_err("record: writing '%.60s%s' to %s%s: %s (see %serror_log)",
            val, strlen(val) > 60 ? "..." : "", XDT_TRACING, file,
            strerror(errno), XDT_TRACING);

    return -1;
}

/* set_file(), noting in *wrote whether Xen took it. */
static int set_noted(struct rec_state *s, const char *file, const char *val,
                     bool *wrote)
{
    int rc = set_file(s, file, val);

    *wrote = !rc;

    return rc;
}

static int list_cpus(struct rec_state *s)
{
    free(s->cpus);
    s->cpus = xdt_tracing_cpus(s->fs, &s->nr_cpus);
    if ( !s->cpus )
    {
        xdt_err("record: listing %sper_cpu: %s (a Xen without per-CPU "
                "raw pipes?)", TRACING, strerror(errno));
        return -1;
    }
    if ( !s->nr_cpus )
    {
        xdt_err("record: %sper_cpu lists no CPU", TRACING);
        return -1;
    }

    return 0;
}

/*
 * One consuming read of the raw pipe of CPU cpus[i], saved as one chunk.
 * Returns the records still left (read again), 0 when drained, -1 on a
 * failure that ends the recording.
 */
static long read_cpu(struct rec_state *s, unsigned int i, bool *empty)
{
    unsigned int cpu = s->cpus[i];
    struct xenhypfs_dirent *d = NULL;
    struct xen_dyntrace_raw_header h;
    char path[128];
    void *buf;

    snprintf(path, sizeof(path), TRACING "per_cpu/cpu%u/trace_pipe_raw", cpu);
    *empty = true;
    buf = xenhypfs_read_raw(s->fs, path, &d);
    s->reads++;
    if ( !buf )
    {
        int e = errno;

        free(d);
        switch ( e )
        {
        case EINTR:             /* Ctrl-C during the hypercall: read again. */
            return 1;
        case EAGAIN:            /* Another consumer took them first. */
            s->eagain++;
            return 1;
        case EBUSY:             /* CPU hotplug: next round. */
            return 0;
        case ENOENT:            /* The CPU's buffer went away. */
            return 0;
        default:
            xdt_err("record: reading %s: %s", path, strerror(e));
            return -1;
        }
    }
    if ( d->size < sizeof(h) ||
         (memcpy(&h, buf, sizeof(h)), h.magic != XEN_DYNTRACE_RAW_MAGIC) ||
         h.version != XEN_DYNTRACE_RAW_VERSION ||
         h.header_size != XDT_RAW_HEADER_SIZE ||
         h.record_size != XDT_RAW_RECORD_SIZE ||
         d->size != XDT_RAW_HEADER_SIZE + (size_t)h.nr * XDT_RAW_RECORD_SIZE )
    {
        xdt_err("record: %s: %zu bytes that are not a version %u raw read",
                path, (size_t)d->size, XEN_DYNTRACE_RAW_VERSION);
        free(buf);
        free(d);
        return -1;
    }
    if ( h.nr || h.lost )
    {
        *empty = false;
        if ( xdt_write_chunk(&s->w, XDT_CHUNK_RAW, cpu, buf, d->size) )
        {
            /* Consumed from Xen, not saved: say how many. */
            s->unsaved += h.nr;
            free(buf);
            free(d);
            return -1;
        }
        s->records += h.nr;
        s->lost += h.lost;
        s->cpu_records[i] += h.nr;
    }
    free(buf);
    free(d);

    return h.left ? (long)(h.left > 0x7fffffff ? 0x7fffffff : h.left) : 0;
}

/* One round over every CPU; with drain, until nothing is left. */
static int read_round(struct rec_state *s, bool drain)
{
    unsigned int i;

    for ( i = 0; i < s->nr_cpus; i++ )
    {
        unsigned int tries = 0;

        for ( ;; )
        {
            bool empty;
            long left = read_cpu(s, i, &empty);

            if ( left < 0 )
                return -1;
            if ( !left && (!drain || empty) )
                break;
            /* Not keeping up: on to the next CPU, back here next round. */
            if ( ++tries >= (drain ? 100000 : 32) )
            {
                if ( !drain )
                    break;
                xdt_err("record: CPU %u never drains", s->cpus[i]);
                return -1;
            }
        }
    }

    return 0;
}

/*
 * Keep our own reads out of the trace: every consuming read runs traced
 * hypervisor code (HypFS, copies, allocation), so with '*' the reader would
 * record itself faster than it reads.  Pin to one dom0 vCPU (dom0's Linux
 * CPU N is its vCPU N) and exclude that vCPU with the domain filter.  Not
 * for events alone (-e under nop): there are no function records to keep
 * out, and the filter judges an event by the vCPU running, so a vCPU
 * switch away from ours would be lost (and its vCPU seem to run on).
 */
static int exclude_self(struct rec_state *s, const struct rec_opts *o)
{
    const char *base = o->domains ? o->domains
                                  : (s->old_domains ? s->old_domains : "");
    cpu_set_t set;
    int cpu;

    s->self_vcpu = -1;
    if ( o->no_filter || !strcmp(o->tracer, "nop") )
        s->domains = o->domains ? strdup(o->domains) : NULL;
    else
    {
        if ( sched_getaffinity(0, sizeof(set), &set) )
        {
            xdt_err("record: sched_getaffinity: %s", strerror(errno));
            return -1;
        }
        s->affinity = set;
        for ( cpu = CPU_SETSIZE - 1; cpu >= 0 && !CPU_ISSET(cpu, &set); cpu-- )
            ;
        if ( cpu < 0 )
            return -1;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if ( sched_setaffinity(0, sizeof(set), &set) )
        {
            xdt_err("record: pinning to CPU %d: %s", cpu, strerror(errno));
            return -1;
        }
        s->self_vcpu = cpu;
        if ( asprintf(&s->domains, "%s%s!d0v%d", base, *base ? " " : "",
                      cpu) < 0 )
            return -1;
    }

    return s->domains ? set_noted(s, "set_domain_filter", s->domains,
                                  &s->wrote_domains)
                      : 0;
}

/* Does s start with a trigger's command, alone or before ':'? */
static bool is_trigger_cmd(const char *s)
{
    size_t n = !strncmp(s, "traceoff", 8) ? 8 : !strncmp(s, "traceon", 7) ? 7
                                                                           : 0;

    return n && (!s[n] || s[n] == ':');
}

/*
 * A trigger on an event, "CLASS:EVENT:COMMAND[:COUNT]" (not a function's
 * "FUNC:COMMAND[:COUNT]"): its file, events/CLASS/EVENT/trigger, in a new
 * string, and *cmd its "COMMAND[:COUNT]"; NULL for a function's.
 */
static char *event_trigger(const char *t, const char **cmd)
{
    const char *c1 = strchr(t, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    char *file;

    if ( !c1 || is_trigger_cmd(c1 + 1) || !c2 || !is_trigger_cmd(c2 + 1) )
        return NULL;
    if ( asprintf(&file, "events/%.*s/%.*s/trigger", (int)(c1 - t), t,
                  (int)(c2 - c1 - 1), c1 + 1) < 0 )
        return NULL;
    *cmd = c2 + 1;

    return file;
}

/* How many triggers are functions' (each needs its function patched). */
static unsigned int function_triggers(const struct rec_opts *o)
{
    unsigned int i, n = 0;
    const char *cmd;

    for ( i = 0; i < o->nr_triggers; i++ )
    {
        char *f = event_trigger(o->triggers[i], &cmd);

        n += !f;
        free(f);
    }

    return n;
}

/*
 * Take our triggers away, the last written first: "!FUNC:COMMAND" to
 * set_function_filter for "FUNC:COMMAND[:COUNT]"; an event's trigger file
 * back to its text as found (its "# ..." when it had none: "").  A traceon
 * trigger may have turned tracing on meanwhile: the caller sees to that.
 */
static void triggers_off(struct rec_state *s, const struct rec_opts *o)
{
    unsigned int i = o->nr_triggers;

    while ( i-- )
    {
        const char *t = o->triggers[i], *cmd, *c1, *c2;
        char *file, *off;

        if ( !s->took_trigger[i] )
            continue;
        s->took_trigger[i] = false;
        file = event_trigger(t, &cmd);
        if ( file )
        {
            const char *old = s->old_trigger[i];

            set_file(s, file, old && *old != '#' ? old : "");
            free(file);
            continue;
        }
        c1 = strchr(t, ':');
        c2 = strchr(c1 + 1, ':');
        if ( asprintf(&off, "!%.*s", (int)(c2 ? c2 - t : (int)strlen(t)),
                      t) < 0 )
            continue;
        set_file(s, "set_function_filter", off);
        free(off);
    }
}

/*
 * Put back what record changed.  After a recording (aborted false) that is
 * the tracer and filters (with -k only our own domain exclusion); tracing
 * stays off and the buffer size as -b set it.  A set-up that failed or was
 * stopped by a signal (aborted true) recorded nothing: everything it wrote
 * is put back, -k or not, the buffer size and tracing_on included (the
 * buffers stay cleared).  The stop signals are held meanwhile, so that a
 * second one cannot cut it short; only SIGKILL can (xen-dyntrace reset).
 */
static void put_back(struct rec_state *s, const struct rec_opts *o,
                     bool aborted)
{
    sigset_t saved;
    unsigned int i;

    hold_signals(true, &saved);
    /* Our own exclusion is not part of what -k keeps. */
    if ( o->keep && !aborted )
    {
        /* -d's words stay, without our !d0vN. */
        if ( s->wrote_domains && s->self_vcpu >= 0 )
            set_file(s, "set_domain_filter",
                     o->domains ? o->domains
                                : (s->old_domains ? s->old_domains : ""));
        goto out;
    }
    /* The tracer first: the filter may not be settable under another one. */
    if ( s->wrote_tracer && s->old_tracer && strcmp(s->old_tracer, o->tracer) )
        set_file(s, "current_tracer", s->old_tracer);
    /* Our triggers off; the filter's text as found brings back its own. */
    triggers_off(s, o);
    if ( s->wrote_filter && s->old_filter )
        set_file(s, "set_function_filter", s->old_filter);
    if ( s->wrote_notrace && s->old_notrace )
        set_file(s, "set_function_notrace", s->old_notrace);
    if ( s->wrote_domains && s->old_domains )
        set_file(s, "set_domain_filter", s->old_domains);
    if ( s->fn_triggers_taken && !s->wrote_filter && s->old_filter &&
         *s->old_filter )
        set_file(s, "set_function_filter", s->old_filter);
    if ( s->wrote_cpumask && s->old_cpumask )
        set_file(s, "tracing_cpumask", s->old_cpumask);
    if ( s->wrote_graph && s->old_graph )
        set_file(s, "set_graph_function", s->old_graph);
    if ( s->wrote_depth && s->old_depth )
        set_file(s, "max_graph_depth", s->old_depth);
    if ( s->wrote_thresh && s->old_thresh )
        set_file(s, "tracing_thresh", s->old_thresh);
    if ( s->wrote_events && s->old_events )
        set_file(s, "set_event", s->old_events);
    for ( i = 0; i < o->nr_options; i++ )
        if ( s->wrote_option[i] && s->old_option[i] )
            set_file(s, s->option_file[i], s->old_option[i]);
    if ( aborted && s->wrote_kb && s->old_kb )
        set_file(s, "buffer_size_kb", s->old_kb);
    /* Off (a traceon trigger may have fired), or on as found. */
    if ( o->nr_triggers || (aborted && s->old_on) )
        set_file(s, "tracing_on", aborted && s->old_on ? "1" : "0");
 out:
    hold_signals(false, &saved);
}

static int write_meta(struct rec_state *s, const struct rec_opts *o)
{
    char *meta = NULL, *funcs, *kb;
    size_t len = 0;
    FILE *m = open_memstream(&meta, &len);
    struct utsname u;
    unsigned int i;
    int rc;

    if ( !m )
        return -1;
    uname(&u);
    fprintf(m, "tool=xen-dyntrace %s\n", XDT_VERSION);
    fprintf(m, "machine=%s\n", u.machine);
    fprintf(m, "start_unix=%lld\n", (long long)time(NULL));
    fprintf(m, "tracer=%s\n", o->tracer);
    if ( o->filter )
        fprintf(m, "filter=%s\n", o->filter);
    if ( o->notrace )
        fprintf(m, "notrace=%s\n", o->notrace);
    if ( s->domains )
        fprintf(m, "domains=%s\n", s->domains);
    if ( s->self_vcpu >= 0 )
        fprintf(m, "self=d0v%d\n", s->self_vcpu);
    if ( o->cpumask )
        fprintf(m, "cpumask=%s\n", o->cpumask);
    if ( o->graph )
        fprintf(m, "graph_function=%s\n", o->graph);
    if ( o->depth )
        fprintf(m, "max_graph_depth=%s\n", o->depth);
    if ( o->thresh )
        fprintf(m, "tracing_thresh=%s\n", o->thresh);
    if ( o->events )
        fprintf(m, "events=%s\n", o->events);
    for ( i = 0; i < o->nr_options; i++ )
        fprintf(m, "%s%s", i ? " " : "options=", o->options[i]);
    if ( o->nr_options )
        fprintf(m, "\n");
    for ( i = 0; i < o->nr_triggers; i++ )
        fprintf(m, "trigger=%s\n", o->triggers[i]);
    if ( o->command )
    {
        char **a;

        fprintf(m, "command=");
        for ( a = o->command; *a; a++ )
            fprintf(m, "%s%s", a == o->command ? "" : " ", *a);
        fprintf(m, "\n");
    }
    kb = read_string(s, "buffer_size_kb");
    if ( kb )
        fprintf(m, "buffer_size_kb=%s\n", kb);
    free(kb);
    fprintf(m, "interval_ms=%u\n", o->interval_ms);
    fprintf(m, "cpus=");
    for ( i = 0; i < s->nr_cpus; i++ )
        fprintf(m, "%s%u", i ? "," : "", s->cpus[i]);
    fprintf(m, "\n");
    fclose(m);
    rc = xdt_write_chunk(&s->w, XDT_CHUNK_META, 0, meta, len);
    free(meta);
    if ( rc )
        return -1;

    funcs = read_string(s, "available_functions_addrs");
    if ( !funcs )
    {
        xdt_err("record: reading %savailable_functions_addrs: %s", TRACING,
                strerror(errno));
        return -1;
    }
    rc = xdt_write_chunk(&s->w, XDT_CHUNK_FUNCS, 0, funcs, strlen(funcs));
    free(funcs);

    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace record [-p TRACER] [-l FILTER] [-n NOTRACE]\n"
"                           [-e EVENTS] [-d DOMAINS] [-M CPUMASK] [-g FUNC]\n"
"                           [--max-depth N] [--thresh US] [--trigger T]\n"
"                           [-O OPTION] [-b KB] [-t SECONDS] [-i MS]\n"
"                           [-o FILE] [-k]\n"
"                           [-q] [--no-filter] [--no-stream]\n"
"                           [[--] COMMAND [ARG...]]\n"
"  -p TRACER   tracer to run (default: function; function_graph with -g,\n"
"              --max-depth or -O funcgraph-*; nop with -e and no -l)\n"
"  -l FILTER   set_function_filter, e.g. '*' or 'do_* !do_softirq'\n"
"  -n NOTRACE  set_function_notrace\n"
"  -e EVENTS   Xen's trace points to record too, in set_event's words\n"
"              (e.g. sched, 'sched:sched_switch irq', hvm:vmx_exit); may\n"
"              repeat; commas separate words too\n"
"  -d DOMAINS  set_domain_filter, e.g. 'd1 d2v0'\n"
"  -M CPUMASK  tracing_cpumask: the pCPUs traced, in hex (e.g. 3)\n"
"  -g FUNC     set_graph_function: graph only calls below FUNC (patterns)\n"
"  --max-depth N  max_graph_depth (function_graph)\n"
"  --thresh US    tracing_thresh: only calls lasting US microseconds or\n"
"              more (function_graph)\n"
"  --trigger T a trigger, FUNC:traceoff[:N] or FUNC:traceon[:N], or on an\n"
"              event CLASS:EVENT:traceoff[:N] or CLASS:EVENT:traceon[:N]\n"
"              (may repeat): with traceon ones only, tracing starts off and\n"
"              the trigger starts it; a traceoff that fires ends the\n"
"              recording\n"
"  -O OPTION   options/OPTION on, or off as noOPTION (may repeat), e.g.\n"
"              funcgraph-retval: function_graph records return values\n"
"  -b KB       buffer_size_kb (per CPU) before starting\n"
"  -t SECONDS  stop after SECONDS (default: at Ctrl-C or COMMAND's end)\n"
"  -i MS       poll interval in milliseconds (default: 100)\n"
"  -o FILE     capture file (default: xen-dyntrace.dat; - is standard\n"
"              output, which must not be a terminal)\n"
"  -k          keep the tracer and filters set afterwards (tracing off)\n"
"  -q          no progress line\n"
"  --no-filter also trace the dom0 vCPU this command runs on (by default it\n"
"              pins itself to one and adds '!d0vN' to the domain filter, as\n"
"              trace-cmd leaves out its own PID)\n"
"  --no-stream read the buffers only once tracing is off, so that none of\n"
"              the reading is traced (with --no-filter on a one-vCPU dom0);\n"
"              -b must hold the whole recording\n"
"  COMMAND     run it once tracing is on and stop when it ends; its exit\n"
"              status is record's (128+N if signal N killed it)\n");
}

static int parse_opts(int argc, char **argv, struct rec_opts *o)
{
    enum { OPT_DEPTH = 256, OPT_THRESH, OPT_TRIGGER, OPT_NO_STREAM };
    static const struct option longs[] = {
        { "no-filter", no_argument, NULL, 'F' },
        { "no-stream", no_argument, NULL, OPT_NO_STREAM },
        { "max-depth", required_argument, NULL, OPT_DEPTH },
        { "thresh", required_argument, NULL, OPT_THRESH },
        { "trigger", required_argument, NULL, OPT_TRIGGER },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    char *e;
    bool graph = false;

    *o = (struct rec_opts){ .out = "xen-dyntrace.dat", .interval_ms = 100 };
    optind = 1;
    while ( (c = getopt_long(argc, argv, "+p:l:n:e:d:b:t:i:o:M:g:O:kqh", longs,
                             NULL)) != -1 )
    {
        switch ( c )
        {
        case 'e':
        {
            char *all, *p;

            if ( asprintf(&all, "%s%s%s", o->events ?: "",
                          o->events ? " " : "", optarg) < 0 )
                return XDT_EXIT_FAIL;
            for ( p = all; *p; p++ )
                if ( *p == ',' )
                    *p = ' ';
            free(o->events);
            o->events = all;
            break;
        }
        case 'p': o->tracer = optarg; break;
        case 'l': o->filter = optarg; break;
        case 'n': o->notrace = optarg; break;
        case 'd': o->domains = optarg; break;
        case 'o': o->out = optarg; break;
        case 'k': o->keep = true; break;
        case 'q': o->quiet = true; break;
        case 'F': o->no_filter = true; break;
        case OPT_NO_STREAM: o->no_stream = true; break;
        case 'M': o->cpumask = optarg; break;
        case 'g': o->graph = optarg; graph = true; break;
        case 'O':
            if ( !*optarg || strchr(optarg, '/') || !strcmp(optarg, "no") )
            {
                xdt_err("record: -O %s: not an option's name", optarg);
                return XDT_EXIT_USAGE;
            }
            if ( o->nr_options == MAX_OPTIONS )
            {
                xdt_err("record: at most %u -O", MAX_OPTIONS);
                return XDT_EXIT_USAGE;
            }
            o->options[o->nr_options++] = optarg;
            /* ftrace's function_graph options: that tracer's. */
            if ( !strncmp(optarg, "funcgraph-", 10) )
                graph = true;
            break;
        case OPT_DEPTH:
        case OPT_THRESH:
        {
            unsigned long v;

            errno = 0;
            v = strtoul(optarg, &e, 10);
            if ( errno || e == optarg || *e || optarg[0] == '-' ||
                 v > 0xffffffffUL )
            {
                xdt_err("record: --%s %s: not a number",
                        c == OPT_DEPTH ? "max-depth" : "thresh", optarg);
                return XDT_EXIT_USAGE;
            }
            if ( c == OPT_DEPTH )
                o->depth = optarg, graph = true;
            else
                o->thresh = optarg;
            break;
        }
        case OPT_TRIGGER:
        {
            const char *colon = strchr(optarg, ':'), *cmd;
            char *file = event_trigger(optarg, &cmd);

            free(file);
            if ( !colon || colon == optarg ||
                 (!file && !is_trigger_cmd(colon + 1)) )
            {
                xdt_err("record: --trigger %s: not FUNC:COMMAND[:N] or "
                        "CLASS:EVENT:COMMAND[:N] (COMMAND: traceon or "
                        "traceoff)", optarg);
                return XDT_EXIT_USAGE;
            }
            if ( o->nr_triggers == MAX_TRIGGERS )
            {
                xdt_err("record: at most %u --trigger", MAX_TRIGGERS);
                return XDT_EXIT_USAGE;
            }
            o->triggers[o->nr_triggers++] = optarg;
            break;
        }
        case 'b':
            errno = 0;
            o->buffer_kb = strtoul(optarg, &e, 10);
            if ( errno || e == optarg || *e || !o->buffer_kb )
            {
                xdt_err("record: -b %s: not a size in KiB", optarg);
                return XDT_EXIT_USAGE;
            }
            break;
        case 't':
            if ( xdt_parse_seconds(optarg, &o->seconds) )
            {
                xdt_err("record: -t %s: not a duration in seconds", optarg);
                return XDT_EXIT_USAGE;
            }
            break;
        case 'i':
        {
            unsigned long v = strtoul(optarg, &e, 10);

            if ( e == optarg || *e || !v || v > 60000 )
            {
                xdt_err("record: -i %s: not an interval of 1 to 60000 ms",
                        optarg);
                return XDT_EXIT_USAGE;
            }
            o->interval_ms = v;
            break;
        }
        case 'h':
            usage(stdout);
            exit(XDT_EXIT_OK);
        default:
            usage(stderr);
            return XDT_EXIT_USAGE;
        }
    }
    if ( optind < argc )
        o->command = argv + optind;
    /*
     * Events alone, or triggers on events alone, under nop; a function's
     * trigger needs it patched.
     */
    if ( !o->tracer )
        o->tracer = graph ? "function_graph"
                          : (o->events || o->nr_triggers) && !o->filter &&
                            !function_triggers(o) ? "nop" : "function";
    if ( xdt_is_stdout(o->out) && isatty(STDOUT_FILENO) )
    {
        xdt_err("record: -o -: standard output is a terminal; give a file "
                "or a pipe");
        return XDT_EXIT_USAGE;
    }
    if ( xdt_is_stdout(o->out) )
    {
        struct stat out, err;

        /* Messages (and a command's output) go to standard error. */
        if ( !fstat(STDOUT_FILENO, &out) && !fstat(STDERR_FILENO, &err) &&
             out.st_dev == err.st_dev && out.st_ino == err.st_ino )
        {
            xdt_err("record: -o -: standard error is the capture's file or "
                    "pipe too (2>&1?): its messages would be in the capture");
            return XDT_EXIT_USAGE;
        }
    }

    return XDT_EXIT_OK;
}

/* Do the triggers alone start tracing (every one a traceon)? */
static bool started_by_trigger(const struct rec_opts *o)
{
    unsigned int i;

    for ( i = 0; i < o->nr_triggers; i++ )
        if ( !strstr(o->triggers[i], ":traceon") )
            return false;

    return o->nr_triggers;
}

/*
 * The --trigger of functions (events false) or of events, written to
 * set_function_filter or the event's trigger file (its text as found kept
 * for put_back()); each noted as taken.
 */
static int set_triggers(struct rec_state *s, const struct rec_opts *o,
                        bool events)
{
    unsigned int i;

    for ( i = 0; i < o->nr_triggers; i++ )
    {
        const char *cmd;
        char *file = event_trigger(o->triggers[i], &cmd);
        int rc = 0;

        /* Only the kind asked for. */
        if ( !file != !events )
        {
            free(file);
            continue;
        }
        if ( file )
        {
            s->old_trigger[i] = read_string(s, file);
            rc = !s->old_trigger[i] || set_file(s, file, cmd);
        }
        else
            rc = set_file(s, "set_function_filter", o->triggers[i]);
        free(file);
        if ( rc )
            return -1;
        s->took_trigger[i] = true;
        s->fn_triggers_taken += !events;
    }

    return 0;
}

/* Are there triggers on events? */
static bool event_triggers(const struct rec_opts *o)
{
    return function_triggers(o) < o->nr_triggers;
}

/* -g, --max-depth, --thresh. */
static int set_graph(struct rec_state *s, const struct rec_opts *o)
{
    return (o->graph && set_noted(s, "set_graph_function", o->graph,
                                  &s->wrote_graph)) ||
           (o->depth && set_noted(s, "max_graph_depth", o->depth,
                                  &s->wrote_depth)) ||
           (o->thresh && set_noted(s, "tracing_thresh", o->thresh,
                                   &s->wrote_thresh)) ? -1 : 0;
}

/* -O: each option's file, 1 or (noNAME) 0. */
static int set_options(struct rec_state *s, const struct rec_opts *o)
{
    unsigned int i;

    for ( i = 0; i < o->nr_options; i++ )
        if ( set_noted(s, s->option_file[i],
                       strncmp(o->options[i], "no", 2) ? "1" : "0",
                       &s->wrote_option[i]) )
            return -1;

    return 0;
}

/*
 * The command's pCPUs... its dom0 vCPUs: every one record may run on but
 * the one it excludes (if that leaves any), so that what the command makes
 * Xen do is recorded.
 */
static int start_command(struct rec_state *s, const struct rec_opts *o)
{
    cpu_set_t set = s->affinity;

    if ( s->self_vcpu >= 0 )
    {
        CPU_CLR(s->self_vcpu, &set);
        if ( !CPU_COUNT(&set) )
        {
            set = s->affinity;
            if ( !o->quiet )
                xdt_err("record: dom0 has one vCPU, d0v%d, and it is not "
                        "recorded: what %s makes Xen do there is not in the "
                        "capture (--no-filter records it)", s->self_vcpu,
                        o->command[0]);
        }
    }

    return xdt_command_start(&s->cmd, o->command,
                             s->self_vcpu >= 0 ? &set : NULL,
                             xdt_is_stdout(o->out));
}

int cmd_record(int argc, char **argv)
{
    struct rec_opts o;
    struct rec_state s = { .w = { .fd = -1 }, .self_vcpu = -1,
                           .step = "start", .cmd = { .pid = -1, .go = -1 } };
    double t0, t_end, next_progress, elapsed;
    bool progress, seen_on;
    sigset_t held, loop_mask;
    unsigned int i;
    int rc = parse_opts(argc, argv, &o), failed = 0;
    char kb[32];

    if ( rc )
    {
        free(o.events);
        return rc;
    }
    progress = !o.quiet && isatty(STDERR_FILENO);
    s.msg = xdt_is_stdout(o.out) ? stderr : stdout;
    catch_signals();

    s.fs = xdt_tracing_open("record");
    if ( !s.fs )
    {
        free(o.events);
        return XDT_EXIT_FAIL;
    }
    s.old_tracer = read_string(&s, "current_tracer");
    if ( !s.old_tracer )
    {
        xdt_err("record: %scurrent_tracer: %s", TRACING, strerror(errno));
        free(o.events);
        xenhypfs_close(s.fs);
        return XDT_EXIT_FAIL;
    }
    s.old_filter = read_string(&s, "set_function_filter");
    s.old_notrace = read_string(&s, "set_function_notrace");
    s.old_domains = read_string(&s, "set_domain_filter");
    if ( (o.domains || !o.no_filter) && !s.old_domains )
    {
        xdt_err("record: this Xen has no %sset_domain_filter (-d; "
                "--no-filter records without one)", TRACING);
        rc = XDT_EXIT_USAGE;
        goto out;
    }
    s.old_kb = read_string(&s, "buffer_size_kb");
    /* Only what is asked for: a Xen without a file refuses its option. */
    if ( o.cpumask && !(s.old_cpumask = read_string(&s, "tracing_cpumask")) )
        goto no_file;
    if ( o.graph && !(s.old_graph = read_string(&s, "set_graph_function")) )
        goto no_file;
    if ( o.depth && !(s.old_depth = read_string(&s, "max_graph_depth")) )
        goto no_file;
    if ( o.thresh && !(s.old_thresh = read_string(&s, "tracing_thresh")) )
        goto no_file;
    if ( o.events && !(s.old_events = read_string(&s, "set_event")) )
        goto no_file;
    for ( i = 0; i < o.nr_options; i++ )
    {
        const char *name = o.options[i];

        if ( !strncmp(name, "no", 2) )
            name += 2;
        if ( asprintf(&s.option_file[i], "options/%s", name) < 0 )
        {
            s.option_file[i] = NULL;
            rc = XDT_EXIT_FAIL;
            goto out;
        }
        s.old_option[i] = read_string(&s, s.option_file[i]);
        if ( !s.old_option[i] )
        {
            xdt_err("record: -O %s: this Xen has no %s%s: %s", o.options[i],
                    TRACING, s.option_file[i], strerror(errno));
            rc = XDT_EXIT_USAGE;
            goto out;
        }
    }
    {
        char *on = read_string(&s, "tracing_on");

        s.old_on = on && !strcmp(on, "1");
        free(on);
    }

    /*
     * Set up with tracing off, one step at a time; a refusal or a stop
     * signal puts back what the steps before changed.  The step names are
     * those of XEN_DYNTRACE_TEST_PAUSE_AT (test_pause()).
     */
    snprintf(kb, sizeof(kb), "%lu", o.buffer_kb);
    if ( stop_requested ||
         setup_step(&s, "off", set_file(&s, "tracing_on", "0")) ||
         (o.buffer_kb &&
          setup_step(&s, "buffer", set_noted(&s, "buffer_size_kb", kb,
                                             &s.wrote_kb))) ||
         (o.filter &&
          setup_step(&s, "filter", set_noted(&s, "set_function_filter",
                                             o.filter, &s.wrote_filter))) ||
         (o.notrace &&
          setup_step(&s, "notrace", set_noted(&s, "set_function_notrace",
                                              o.notrace, &s.wrote_notrace))) ||
         (function_triggers(&o) &&
          setup_step(&s, "trigger", set_triggers(&s, &o, false))) ||
         ((o.graph || o.depth || o.thresh) &&
          setup_step(&s, "graph", set_graph(&s, &o))) ||
         (o.nr_options &&
          setup_step(&s, "options", set_options(&s, &o))) ||
         (o.cpumask &&
          setup_step(&s, "cpumask", set_noted(&s, "tracing_cpumask",
                                              o.cpumask, &s.wrote_cpumask))) ||
         ((o.domains || !o.no_filter) &&
          setup_step(&s, "domains", exclude_self(&s, &o))) ||
         (o.events &&
          setup_step(&s, "events", set_noted(&s, "set_event", o.events,
                                             &s.wrote_events))) ||
         setup_step(&s, "tracer", set_noted(&s, "current_tracer", o.tracer,
                                            &s.wrote_tracer)) ||
         setup_step(&s, "clear", set_file(&s, "trace", "")) ||
         /* An event's fire at once: armed last, in the scope set above. */
         (event_triggers(&o) &&
          setup_step(&s, "event-trigger", set_triggers(&s, &o, true))) ||
         setup_step(&s, "cpus", list_cpus(&s)) )
        goto abort;
    s.cpu_records = calloc(s.nr_cpus, sizeof(*s.cpu_records));
    if ( !s.cpu_records || xdt_writer_open(&s.w, o.out) || write_meta(&s, &o) )
    {
        if ( s.w.err )
            xdt_err("record: %s: %s", o.out, strerror(s.w.err));
        goto abort;
    }
    if ( setup_step(&s, "output", 0) ||
         (o.command && setup_step(&s, "command", start_command(&s, &o))) )
        goto abort;
    if ( s.self_vcpu >= 0 && !o.quiet )
        xdt_err("record: not recording d0v%d, the dom0 vCPU it runs on "
                "(--no-filter records it)", s.self_vcpu);

    /*
     * From here on a stop signal ends the recording: what was read is kept.
     * Triggers that are all traceon start it themselves.
     */
    seen_on = !started_by_trigger(&o);
    /*
     * From here until the end of the recording the stop signals and the
     * command's end are held, and let in only while it sleeps (ppoll()):
     * one that comes during a round of reads is not slept through.
     */
    sigemptyset(&held);
    for ( i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++ )
        sigaddset(&held, stop_signals[i]);
    sigaddset(&held, SIGCHLD);
    sigprocmask(SIG_BLOCK, &held, &loop_mask);
    if ( stop_requested ||
         (seen_on && set_file(&s, "tracing_on", "1")) )
    {
        sigprocmask(SIG_SETMASK, &loop_mask, NULL);
        goto abort;
    }
    if ( o.command && xdt_command_go(&s.cmd) )
        xdt_err("record: starting %s: %s", o.command[0], strerror(errno));
    test_pause("on", &loop_mask);
    t0 = now_s();
    t_end = o.seconds > 0 ? t0 + o.seconds : 0;
    next_progress = t0 + 1;
    while ( !stop_requested && !failed )
    {
        double round = now_s(), wait;

        if ( t_end && round >= t_end )
            break;
        if ( o.command && xdt_command_ended(&s.cmd, false) )
            break;
        /* --no-stream: the drain after tracing stops reads it all. */
        if ( !o.no_stream && read_round(&s, false) )
            failed = 1;
        if ( o.nr_triggers && !failed )
        {
            /* A traceoff that fired ends it; a traceon that did, starts. */
            char *on = read_string(&s, "tracing_on");
            bool is_on = on && !strcmp(on, "1");

            free(on);
            if ( is_on )
                seen_on = true;
            else if ( seen_on )
            {
                if ( !o.quiet )
                    xdt_err("record: tracing turned off by a trigger");
                break;
            }
        }
        if ( progress && round >= next_progress )
        {
            elapsed = round - t0;
            fprintf(stderr, "\rrecord: %.0f s  %" PRIu64 " records  "
                    "%.0f/s  lost %" PRIu64 "   ", elapsed, s.records,
                    elapsed > 0 ? s.records / elapsed : 0.0, s.lost);
            next_progress += 1;
        }
        wait = round + o.interval_ms / 1000.0 - now_s();
        if ( t_end && round + wait > t_end )
            wait = t_end - round;
        if ( wait > 0 && !failed )
        {
            struct timespec ts = {
                .tv_sec = (time_t)wait,
                .tv_nsec = (long)((wait - (time_t)wait) * 1e9),
            };

            ppoll(NULL, 0, &ts, &loop_mask);    /* A signal ends it early. */
        }
    }
    elapsed = now_s() - t0;
    sigprocmask(SIG_SETMASK, &loop_mask, NULL);
    if ( progress )
        fprintf(stderr, "\n");

    /*
     * Stop, then take what the buffers still hold: our triggers first, or
     * a traceon one could turn tracing on again while we drain.
     */
    triggers_off(&s, &o);
    set_file(&s, "tracing_on", "0");
    if ( o.command && stop_requested && !xdt_command_ended(&s.cmd, false) )
        xdt_command_forward(&s.cmd, &stop_count, &stop_last);
    if ( !failed && read_round(&s, true) )
        failed = 1;
    if ( !failed )
    {
        char *end = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&end, &len);

        if ( m )
        {
            fprintf(m, "seconds=%.3f\nrecords=%" PRIu64 "\nlost=%" PRIu64 "\n",
                    elapsed, s.records, s.lost);
            for ( unsigned int i = 0; i < s.nr_cpus; i++ )
                fprintf(m, "cpu%u_records=%" PRIu64 "\n", s.cpus[i],
                        s.cpu_records[i]);
            fclose(m);
            xdt_write_chunk(&s.w, XDT_CHUNK_END, 0, end, len);
            free(end);
        }
    }
    if ( xdt_writer_close(&s.w) || s.w.err )
    {
        xdt_err("record: writing %s: %s: stopped; it holds the %" PRIu64
                " records saved before (%" PRIu64 " bytes, every chunk "
                "whole)%s",
                o.out, strerror(s.w.err), s.records, s.w.size,
                s.unsaved ? ", the read that failed is lost" : "");
        failed = 1;
    }
    put_back(&s, &o, false);

    fprintf(s.msg, "record: seconds=%.1f records=%" PRIu64 " lost=%" PRIu64
            " rate=%.0f/s\n", elapsed, s.records, s.lost,
            elapsed > 0 ? s.records / elapsed : 0.0);
    if ( s.eagain )
        fprintf(s.msg, "record: %" PRIu64 " reads lost a race to another "
                "consumer of the same pipe (records it took are not in %s)\n",
                s.eagain, o.out);
    rc = failed ? XDT_EXIT_FAIL : XDT_EXIT_OK;
    if ( o.command )
    {
        /* A recording that failed (a full disk, EPIPE) does not wait. */
        if ( failed && !xdt_command_ended(&s.cmd, false) )
        {
            xdt_err("record: stopping %s (SIGTERM): the recording failed",
                    o.command[0]);
            xdt_command_signal(&s.cmd, SIGTERM);
        }
        else if ( !xdt_command_ended(&s.cmd, false) )
            xdt_err("record: recording ended; waiting for %s to exit (a stop "
                    "signal is passed on to it)", o.command[0]);
        xdt_command_wait(&s.cmd, true, &stop_count, &stop_last);
        if ( !failed )
            rc = xdt_command_exit_status(&s.cmd);
    }
    goto out;

 no_file:
    xdt_err("record: this Xen has no %s for that option: %s", TRACING,
            strerror(errno));
    rc = XDT_EXIT_USAGE;
    goto out;

 abort:
    /* Nothing recorded: put everything back, leave no capture behind. */
    if ( o.command )
        xdt_command_cancel(&s.cmd);
    put_back(&s, &o, true);
    if ( s.w.fd >= 0 )
    {
        /*
         * Only the regular file we created is removed: never standard
         * output, a symbolic link or what it names (emptied instead).
         */
        struct stat st, lst;
        bool to_stdout = xdt_is_stdout(o.out);
        bool regular = !fstat(s.w.fd, &st) && S_ISREG(st.st_mode);

        if ( !to_stdout && regular && !lstat(o.out, &lst) &&
             S_ISREG(lst.st_mode) && lst.st_dev == st.st_dev &&
             lst.st_ino == st.st_ino )
            unlink(o.out);
        else if ( !to_stdout && regular && ftruncate(s.w.fd, 0) )
            xdt_err("record: emptying %s: %s", o.out, strerror(errno));
        xdt_writer_close(&s.w);
    }
    if ( stop_requested )
    {
        xdt_err("record: stopped by %s during set-up (after step '%s'): "
                "settings put back, nothing recorded",
                signal_name(stop_requested), s.step);
        rc = XDT_EXIT_SIGNAL + stop_requested;
    }
    else
        rc = XDT_EXIT_FAIL;

 out:
    if ( s.w.fd >= 0 )
        xdt_writer_close(&s.w);
    free(s.cpus);
    free(s.cpu_records);
    free(s.old_tracer);
    free(s.old_filter);
    free(s.old_notrace);
    free(s.old_domains);
    free(s.old_kb);
    free(s.domains);
    free(s.old_cpumask);
    free(s.old_graph);
    free(s.old_depth);
    free(s.old_thresh);
    for ( i = 0; i < o.nr_options; i++ )
    {
        free(s.option_file[i]);
        free(s.old_option[i]);
    }
    free(s.old_events);
    for ( i = 0; i < MAX_TRIGGERS; i++ )
        free(s.old_trigger[i]);
    free(o.events);
    xenhypfs_close(s.fs);

    return rc;
}
