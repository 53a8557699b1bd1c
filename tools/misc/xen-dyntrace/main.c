/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: record Xen's function tracer from dom0 into a capture file,
 * print it as ftrace text, or export it to trace-cmd's trace.dat and to the
 * Chrome/Perfetto trace-event JSON.  See xen-dyntrace(1).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "xen-dyntrace.h"

void xdt_err(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fputs("xen-dyntrace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: xen-dyntrace COMMAND [OPTIONS]\n"
"\n"
"Commands (those marked * talk to Xen: dom0, root):\n"
"  record * set the tracer up and stream every CPU's raw pipe into a capture\n"
"           file until Ctrl-C, -t SECONDS or the end of a COMMAND\n"
"  list   * the tracers, traceable functions and events of this Xen\n"
"  stat   * the tracer's current settings and each CPU's buffer\n"
"  profile* count and time calls with Xen's function profiler, and print\n"
"           them by function, domain or CPU\n"
"  reset  * put every /tracing setting back to its boot value, e.g. after a\n"
"           recorder was killed\n"
"  why    * trace a COMMAND's hypercalls and show, for each that failed, the\n"
"           calls down to the function where its error appeared\n"
"  report   print a capture as ftrace text, or summarise it (--stat)\n"
"  export   write a capture as trace-cmd's trace.dat (-f trace.dat) or as\n"
"           Chrome/Perfetto trace-event JSON (-f json)\n"
"\n"
"'xen-dyntrace COMMAND -h' lists a command's options; man xen-dyntrace.\n"
"Exit status: 0 ok, 1 failure, 2 usage, 3 not a capture this tool reads,\n"
"4 capture truncated (what precedes the cut was used), 5 capture without its\n"
"summary (its recorder was killed; every record it holds was used), 128+N\n"
"record stopped by signal N during its set-up (settings put back); with a\n"
"COMMAND, record, profile and why exit with its status.\n");
}

int main(int argc, char **argv)
{
    if ( argc < 2 )
    {
        usage(stderr);
        return XDT_EXIT_USAGE;
    }
    if ( !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
         !strcmp(argv[1], "help") )
    {
        usage(stdout);
        return XDT_EXIT_OK;
    }
    if ( !strcmp(argv[1], "--version") )
    {
        printf("xen-dyntrace %s\n", XDT_VERSION);
        return XDT_EXIT_OK;
    }
#ifndef XDT_NO_HYPFS
    if ( !strcmp(argv[1], "record") )
        return cmd_record(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "reset") )
        return cmd_reset(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "list") )
        return cmd_list(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "stat") )
        return cmd_stat(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "profile") )
        return cmd_profile(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "why") )
        return cmd_why(argc - 1, argv + 1);
#else
    if ( !strcmp(argv[1], "record") || !strcmp(argv[1], "reset") ||
         !strcmp(argv[1], "list") || !strcmp(argv[1], "stat") ||
         !strcmp(argv[1], "profile") || !strcmp(argv[1], "why") )
    {
        xdt_err("%s: this xen-dyntrace was built without libxenhypfs "
                "(make NO_HYPFS=1): it has report and export only",
                argv[1]);
        return XDT_EXIT_FAIL;
    }
#endif
    if ( !strcmp(argv[1], "report") )
        return cmd_report(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "export") )
        return cmd_export(argc - 1, argv + 1);
    xdt_err("unknown command '%s'", argv[1]);
    usage(stderr);

    return XDT_EXIT_USAGE;
}
