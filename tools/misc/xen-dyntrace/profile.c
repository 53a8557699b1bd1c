/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace profile: the hypervisor's function profiler
 * (function_profile_enabled, trace_stat/) from dom0.  It sets the filters,
 * counts for -t SECONDS, until Ctrl-C or for the lifetime of a command,
 * stops, puts the filters back and prints the tables: by function (every
 * CPU's trace_stat/function<N> summed), by domain (trace_stat/domains) or
 * per CPU, sorted by any column.  --start, --stop and --show split that up.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xen-dyntrace.h"

/* A row of a trace_stat table. */
struct prow {
    char ctx[16];               /* "d1", "<idle>", or "" (by function) */
    char name[256];
    uint64_t hits;
    double time, avg, s2;       /* us, us, us^2 */
    bool timed;                 /* Time, Avg and s^2 are numbers */
};

struct table {
    struct prow *rows;
    size_t nr, cap;
};

enum sort_key { BY_TIME, BY_HIT, BY_AVG, BY_S2, BY_NAME };
enum by { BY_FUNCTION, BY_DOMAIN, BY_CPU };

struct prof_opts {
    const char *filter, *notrace, *domains, *cpumask;
    double seconds;
    enum sort_key key;
    enum by by;
    bool reverse;
    char **command;
    enum { RUN, START, STOP, SHOW } mode;
};

/* The first stop signal; how many came, and the last (passed on). */
static volatile sig_atomic_t stop_sig, stop_count, stop_last;

static void on_stop(int sig)
{
    if ( !stop_sig )
        stop_sig = sig;
    stop_last = sig;
    stop_count++;
}

/* A new row at the end of t, zeroed; NULL when out of memory. */
static struct prow *table_add(struct table *t)
{
    if ( t->nr == t->cap )
    {
        size_t cap = t->cap ? 2 * t->cap : 256;
        struct prow *n = realloc(t->rows, cap * sizeof(*n));

        if ( !n )
            return NULL;
        t->rows = n;
        t->cap = cap;
    }
    memset(&t->rows[t->nr], 0, sizeof(t->rows[0]));

    return &t->rows[t->nr++];
}

/* "1234.567 us" or "-": the number, or false. */
static bool num(const char *w, double *v)
{
    char *e;

    if ( !strcmp(w, "-") )
        return false;
    *v = strtod(w, &e);

    return e != w;
}

/*
 * The rows of a table's text: lines after the "--------" rule, each
 * "[CTX] NAME HIT TIME us AVG us S2 us^2" or with "-" for the times.
 */
static int parse_table(struct table *t, char *text, bool domain)
{
    char *line, *save = NULL;
    bool rows = false;

    for ( line = strtok_r(text, "\n", &save); line;
          line = strtok_r(NULL, "\n", &save) )
    {
        char *w[12], *s2 = NULL, *p;
        unsigned int n = 0, k = 0;
        struct prow r = { .ctx = "" }, *row;

        if ( !rows )
        {
            rows = strstr(line, "--------") != NULL;
            continue;
        }
        for ( p = strtok_r(line, " ", &s2); p && n < 12;
              p = strtok_r(NULL, " ", &s2) )
            w[n++] = p;
        if ( domain )
        {
            if ( n < 1 )
                continue;
            snprintf(r.ctx, sizeof(r.ctx), "%s", w[k++]);
        }
        if ( n < k + 5 )
            continue;
        snprintf(r.name, sizeof(r.name), "%s", w[k++]);
        r.hits = strtoull(w[k++], NULL, 10);
        r.timed = num(w[k], &r.time);
        if ( r.timed && n >= k + 6 )
        {
            num(w[k + 2], &r.avg);
            num(w[k + 4], &r.s2);
        }
        if ( !(row = table_add(t)) )
            return -1;
        *row = r;
    }

    return 0;
}

/*
 * Add a CPU's row to the sum by function: hits and time add up (Time is
 * Avg x Hit, the untimed calls counted at Avg), Avg is Time / Hit, s^2 the
 * variance of the calls pooled with each CPU's weighed by its hits.
 */
static int add_row(struct table *t, const struct prow *r, double *sq)
{
    size_t i;

    for ( i = 0; i < t->nr; i++ )
        if ( !strcmp(t->rows[i].name, r->name) )
            break;
    if ( i == t->nr )
    {
        struct prow *row = table_add(t);

        if ( !row )
            return -1;
        row->timed = r->timed;
        snprintf(row->name, sizeof(row->name), "%s", r->name);
        sq[i] = 0;
    }
    t->rows[i].hits += r->hits;
    t->rows[i].time += r->time;
    t->rows[i].timed &= r->timed;
    sq[i] += r->hits * (r->s2 + r->avg * r->avg);

    return 0;
}

static enum sort_key sort_key;
static bool sort_reverse;

static int cmp_rows(const void *a, const void *b)
{
    const struct prow *x = a, *y = b;
    int c = 0;

    switch ( sort_key )
    {
    case BY_NAME:
        c = strcmp(x->name, y->name);
        if ( !c )
            c = strcmp(x->ctx, y->ctx);
        return sort_reverse ? -c : c;
    case BY_HIT:
        c = x->hits < y->hits ? 1 : x->hits > y->hits ? -1 : 0;
        break;
    case BY_TIME:
        c = x->time < y->time ? 1 : x->time > y->time ? -1 : 0;
        break;
    case BY_AVG:
        c = x->avg < y->avg ? 1 : x->avg > y->avg ? -1 : 0;
        break;
    case BY_S2:
        c = x->s2 < y->s2 ? 1 : x->s2 > y->s2 ? -1 : 0;
        break;
    }
    if ( !c )
        c = strcmp(x->name, y->name);

    return sort_reverse ? -c : c;
}

static void print_table(const struct table *t, bool domain)
{
    size_t i;

    printf("%s  %-30s  %10s  %16s  %14s  %16s\n",
           domain ? "  Domain  " : "", "Function", "Hit", "Time", "Avg",
           "s^2");
    printf("%s  %-30s  %10s  %16s  %14s  %16s\n",
           domain ? "  ------  " : "", "--------", "---", "----", "---",
           "---");
    for ( i = 0; i < t->nr; i++ )
    {
        const struct prow *r = &t->rows[i];

        if ( domain )
            printf("  %-8s", r->ctx);
        printf("  %-30s  %10" PRIu64, r->name, r->hits);
        if ( r->timed )
            printf("  %13.3f us  %11.3f us  %11.3f us^2\n", r->time, r->avg,
                   r->s2);
        else
            printf("  %16s  %14s  %16s\n", "-", "-", "-");
    }
}

/* The first line of a table's text: Xen's "# profiler: ..." header. */
static void print_header(const char *text)
{
    if ( text[0] == '#' )
        printf("%.*s\n", (int)strcspn(text, "\n"), text);
}

static int cpu_of(const char *name)
{
    char *e;
    long c;

    if ( strncmp(name, "function", 8) || name[8] < '0' || name[8] > '9' )
        return -1;
    c = strtol(name + 8, &e, 10);

    return *e || c > 65535 ? -1 : (int)c;
}

static int by_cpu_name(const void *a, const void *b)
{
    const struct xenhypfs_dirent *x = a, *y = b;

    return cpu_of(x->name) - cpu_of(y->name);
}

static int show_tables(xenhypfs_handle *fs, const struct prof_opts *o)
{
    struct xenhypfs_dirent *d;
    struct table sum = { 0 };
    double *sq = NULL;
    unsigned int n, i, cpus = 0;
    char *text;
    int rc = 0;

    sort_key = o->key;
    sort_reverse = o->reverse;
    if ( o->by == BY_DOMAIN )
    {
        text = xdt_tracing_read(fs, "trace_stat/domains");
        if ( !text )
        {
            xdt_err("profile: %strace_stat/domains: %s (a Xen without the "
                    "profiler?)", XDT_TRACING, strerror(errno));
            return -1;
        }
        print_header(text);
        rc = parse_table(&sum, text, true);
        free(text);
        if ( !rc )
        {
            if ( sum.nr )
                qsort(sum.rows, sum.nr, sizeof(*sum.rows), cmp_rows);
            print_table(&sum, true);
        }
        free(sum.rows);
        return rc;
    }

    d = xenhypfs_readdir(fs, XDT_TRACING "trace_stat", &n);
    if ( !d )
    {
        xdt_err("profile: %strace_stat: %s (a Xen without the profiler?)",
                XDT_TRACING, strerror(errno));
        return -1;
    }
    qsort(d, n, sizeof(*d), by_cpu_name);
    for ( i = 0; i < n && !rc; i++ )
    {
        struct table one = { 0 };
        char file[64];
        size_t k;

        if ( cpu_of(d[i].name) < 0 )
            continue;
        snprintf(file, sizeof(file), "trace_stat/%s", d[i].name);
        text = xdt_tracing_read(fs, file);
        if ( !text )
            continue;           /* An offline CPU's may be gone. */
        if ( parse_table(&one, text, false) )
            rc = -1;
        else if ( o->by == BY_CPU )
        {
            if ( !one.nr )
            {
                free(text);
                continue;
            }
            if ( cpus++ )
                printf("\n");
            print_header(text);
            qsort(one.rows, one.nr, sizeof(*one.rows), cmp_rows);
            print_table(&one, false);
        }
        else
        {
            cpus++;
            for ( k = 0; k < one.nr && !rc; k++ )
            {
                double *nsq = realloc(sq, (sum.nr + 1) * sizeof(*nsq));

                if ( !nsq )
                {
                    rc = -1;
                    break;
                }
                sq = nsq;
                rc = add_row(&sum, &one.rows[k], sq);
            }
        }
        free(text);
        free(one.rows);
    }
    free(d);
    if ( !rc && o->by == BY_FUNCTION )
    {
        for ( i = 0; i < sum.nr; i++ )
        {
            struct prow *r = &sum.rows[i];

            if ( r->hits && r->timed )
            {
                r->avg = r->time / r->hits;
                r->s2 = sq[i] / r->hits - r->avg * r->avg;
                if ( r->s2 < 0 )
                    r->s2 = 0;
            }
        }
        printf("# profile by function: %u CPUs' trace_stat/function<N> "
               "summed (Avg = Time / Hit; s^2 pooled, weighed by Hit)\n",
               cpus);
        if ( sum.nr )
            qsort(sum.rows, sum.nr, sizeof(*sum.rows), cmp_rows);
        print_table(&sum, false);
    }
    free(sq);
    free(sum.rows);

    return rc;
}

/* A setting profile changes, and what it found. */
struct saved {
    const char *file;
    char *old;
    bool wrote;
};

static int set(xenhypfs_handle *fs, struct saved *s, const char *file,
               const char *val)
{
    s->file = file;
    s->old = xdt_tracing_read(fs, file);
    if ( !s->old )
    {
        xdt_err("profile: %s%s: %s", XDT_TRACING, file, strerror(errno));
        return -1;
    }
    if ( xdt_tracing_write(fs, file, val) )
    {
        xdt_err("profile: writing '%s' to %s%s: %s (see %serror_log)", val,
                XDT_TRACING, file, strerror(errno), XDT_TRACING);
        return -1;
    }
    s->wrote = true;

    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace profile [-l FILTER] [-n NOTRACE] [-d DOMAINS]\n"
"                            [-M CPUMASK] [-t SECONDS] [--by WHAT]\n"
"                            [-s KEY] [-r] [-- COMMAND [ARG...]]\n"
"       xen-dyntrace profile --start [-l ...] | --stop | --show [...]\n"
"  counts and times every call of the filter's functions (Xen's function\n"
"  profiler) for SECONDS, until Ctrl-C, or while COMMAND runs (its exit\n"
"  status is then profile's), stops, puts the filters back and prints the\n"
"  counts (dom0, root)\n"
"  -l, -n, -d, -M  set_function_filter, set_function_notrace,\n"
"                  set_domain_filter, tracing_cpumask while it counts\n"
"  -t SECONDS      count for SECONDS\n"
"  --by WHAT       function (every CPU's table summed; the default),\n"
"                  domain (trace_stat/domains) or cpu (each CPU's table)\n"
"  -s KEY          sort by time (the default), hit, avg, s2 or name\n"
"  -r              the other way round\n"
"  --start         set the filters and start counting afresh, then exit\n"
"                  (the filters stay)\n"
"  --stop          stop counting and print\n"
"  --show          print what was counted; changes nothing\n");
}

static int parse(int argc, char **argv, struct prof_opts *o)
{
    static const struct option longs[] = {
        { "by", required_argument, NULL, 'B' },
        { "start", no_argument, NULL, 'S' },
        { "stop", no_argument, NULL, 'P' },
        { "show", no_argument, NULL, 'W' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const char *const keys[] = {
        [BY_TIME] = "time", [BY_HIT] = "hit", [BY_AVG] = "avg",
        [BY_S2] = "s2", [BY_NAME] = "name",
    };
    int c;
    unsigned int i;

    *o = (struct prof_opts){ .key = BY_TIME, .by = BY_FUNCTION };
    optind = 1;
    while ( (c = getopt_long(argc, argv, "+l:n:d:M:t:s:rh", longs,
                             NULL)) != -1 )
    {
        switch ( c )
        {
        case 'l': o->filter = optarg; break;
        case 'n': o->notrace = optarg; break;
        case 'd': o->domains = optarg; break;
        case 'M': o->cpumask = optarg; break;
        case 'r': o->reverse = true; break;
        case 'S': case 'P': case 'W':
            if ( o->mode != RUN )
            {
                xdt_err("profile: one of --start, --stop and --show");
                return XDT_EXIT_USAGE;
            }
            o->mode = c == 'S' ? START : c == 'P' ? STOP : SHOW;
            break;
        case 't':
            if ( xdt_parse_seconds(optarg, &o->seconds) )
            {
                xdt_err("profile: -t %s: not a duration in seconds", optarg);
                return XDT_EXIT_USAGE;
            }
            break;
        case 's':
            for ( i = 0; i < sizeof(keys) / sizeof(keys[0]); i++ )
                if ( !strcmp(optarg, keys[i]) )
                    break;
            if ( i == sizeof(keys) / sizeof(keys[0]) )
            {
                xdt_err("profile: -s %s: sort by time, hit, avg, s2 or name",
                        optarg);
                return XDT_EXIT_USAGE;
            }
            o->key = i;
            break;
        case 'B':
            if ( !strcmp(optarg, "function") )
                o->by = BY_FUNCTION;
            else if ( !strcmp(optarg, "domain") )
                o->by = BY_DOMAIN;
            else if ( !strcmp(optarg, "cpu") )
                o->by = BY_CPU;
            else
            {
                xdt_err("profile: --by %s: function, domain or cpu", optarg);
                return XDT_EXIT_USAGE;
            }
            break;
        case 'h':
            usage(stdout);
            return -1;
        default:
            usage(stderr);
            return XDT_EXIT_USAGE;
        }
    }
    if ( optind < argc )
        o->command = argv + optind;
    if ( o->mode != RUN && o->mode != START &&
         (o->filter || o->notrace || o->domains || o->cpumask) )
    {
        xdt_err("profile: -l, -n, -d and -M go with a run or --start");
        return XDT_EXIT_USAGE;
    }
    if ( o->mode != RUN && (o->command || o->seconds) )
    {
        xdt_err("profile: -t and a command go with a run, not --start, "
                "--stop or --show");
        return XDT_EXIT_USAGE;
    }
    if ( o->command && o->seconds )
    {
        xdt_err("profile: -t or a command, not both");
        return XDT_EXIT_USAGE;
    }

    return XDT_EXIT_OK;
}

int cmd_profile(int argc, char **argv)
{
    static const int stops[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    struct sigaction sa = { .sa_handler = on_stop };
    struct saved saved[4] = { { 0 } };
    struct xdt_command cmd = { .pid = -1, .go = -1 };
    struct prof_opts o;
    xenhypfs_handle *fs;
    unsigned int i, nr = 0;
    int rc = parse(argc, argv, &o), failed = 0;
    sigset_t hold, old;

    if ( rc )
        return rc < 0 ? XDT_EXIT_OK : rc;
    fs = xdt_tracing_open("profile");
    if ( !fs )
        return XDT_EXIT_FAIL;
    if ( o.mode == SHOW || o.mode == STOP )
    {
        if ( o.mode == STOP &&
             xdt_tracing_write(fs, "function_profile_enabled", "0") )
        {
            xdt_err("profile: writing 0 to %sfunction_profile_enabled: %s",
                    XDT_TRACING, strerror(errno));
            xenhypfs_close(fs);
            return XDT_EXIT_FAIL;
        }
        rc = show_tables(fs, &o) ? XDT_EXIT_FAIL : XDT_EXIT_OK;
        xenhypfs_close(fs);
        return rc;
    }

    /* Another session's counts are not ours to clear. */
    {
        char *on = xdt_tracing_read(fs, "function_profile_enabled");
        bool busy = on && !strcmp(on, "1");

        free(on);
        if ( busy )
        {
            xdt_err("profile: the profiler is counting already (another "
                    "'profile --start'?): 'profile --show' prints, "
                    "'profile --stop' stops it");
            xenhypfs_close(fs);
            return XDT_EXIT_FAIL;
        }
    }
    sigemptyset(&sa.sa_mask);
    sigemptyset(&hold);
    for ( i = 0; i < sizeof(stops) / sizeof(stops[0]); i++ )
    {
        struct sigaction was;

        /* A SIGHUP ignored on entry (nohup) stays ignored. */
        if ( stops[i] == SIGHUP && !sigaction(SIGHUP, NULL, &was) &&
             was.sa_handler == SIG_IGN )
            continue;
        sigaction(stops[i], &sa, NULL);
        sigaddset(&hold, stops[i]);
    }
    sigaddset(&hold, SIGCHLD);
    signal(SIGPIPE, SIG_IGN);
    sigprocmask(SIG_SETMASK, NULL, &old);
    /* The set-up, whole or put back; a stop signal during it ends it. */
    if ( (o.filter && set(fs, &saved[nr++], "set_function_filter",
                          o.filter)) ||
         (o.notrace && set(fs, &saved[nr++], "set_function_notrace",
                           o.notrace)) ||
         (o.domains && set(fs, &saved[nr++], "set_domain_filter",
                           o.domains)) ||
         (o.cpumask && set(fs, &saved[nr++], "tracing_cpumask", o.cpumask)) ||
         (o.command && xdt_command_start(&cmd, o.command, NULL, false)) )
        failed = 1;
    else if ( stop_sig )
        failed = 1;             /* Stopped during the set-up. */
    else if ( xdt_tracing_write(fs, "function_profile_enabled", "0") ||
              xdt_tracing_write(fs, "function_profile_enabled", "1") )
    {
        xdt_err("profile: starting the profiler (%sfunction_profile_enabled):"
                " %s (see %serror_log)", XDT_TRACING, strerror(errno),
                XDT_TRACING);
        failed = 1;
    }
    /* Held but while it sleeps (ppoll()), as record's loop. */
    sigprocmask(SIG_BLOCK, &hold, NULL);
    if ( stop_sig && !failed )
    {
        /* A signal just before: stop counting again, put back. */
        xdt_tracing_write(fs, "function_profile_enabled", "0");
        failed = 1;
    }
    if ( failed || o.mode == START )
    {
        if ( o.command )
            xdt_command_cancel(&cmd);
        if ( failed )
        {
            while ( nr-- )
                if ( saved[nr].wrote )
                    xdt_tracing_write(fs, saved[nr].file, saved[nr].old);
            if ( stop_sig )
                xdt_err("profile: stopped by signal %d during set-up: "
                        "settings put back, nothing counted", (int)stop_sig);
        }
        else
            printf("profile: counting; 'xen-dyntrace profile --stop' stops "
                   "and prints\n");
        sigprocmask(SIG_SETMASK, &old, NULL);
        for ( i = 0; i < 4; i++ )
            free(saved[i].old);
        xenhypfs_close(fs);
        if ( stop_sig )
            return XDT_EXIT_SIGNAL + stop_sig;
        return failed ? XDT_EXIT_FAIL : XDT_EXIT_OK;
    }

    /* Counting: until the time, the command's end or a stop signal. */
    if ( o.command && xdt_command_go(&cmd) )
        xdt_err("profile: starting the command: %s", strerror(errno));
    {
        struct timespec t0, now;

        clock_gettime(CLOCK_MONOTONIC, &t0);
        while ( !stop_sig && !(o.command && xdt_command_ended(&cmd, false)) )
        {
            struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };

            clock_gettime(CLOCK_MONOTONIC, &now);
            if ( o.seconds &&
                 (now.tv_sec - t0.tv_sec) +
                 (now.tv_nsec - t0.tv_nsec) / 1e9 >= o.seconds )
                break;
            ppoll(NULL, 0, &ts, &old);
        }
    }
    if ( xdt_tracing_write(fs, "function_profile_enabled", "0") )
    {
        xdt_err("profile: stopping the profiler: %s", strerror(errno));
        failed = 1;
    }
    while ( nr-- )
        if ( saved[nr].wrote &&
             xdt_tracing_write(fs, saved[nr].file, saved[nr].old) )
        {
            xdt_err("profile: putting back %s%s: %s", XDT_TRACING,
                    saved[nr].file, strerror(errno));
            failed = 1;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if ( o.command )
    {
        xdt_command_forward(&cmd, &stop_count, &stop_last);
        xdt_command_wait(&cmd, true, &stop_count, &stop_last);
    }
    if ( show_tables(fs, &o) )
        failed = 1;
    for ( i = 0; i < 4; i++ )
        free(saved[i].old);
    xenhypfs_close(fs);
    if ( fflush(stdout) || ferror(stdout) )
        failed = 1;
    if ( o.command && !failed )
        return xdt_command_exit_status(&cmd);

    return failed ? XDT_EXIT_FAIL : XDT_EXIT_OK;
}
