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
"Commands:\n"
"  record   set the tracer up and stream every CPU's raw pipe into a capture\n"
"           file until Ctrl-C or -t SECONDS (dom0, root)\n"
"  reset    put every /tracing setting back to its boot value, e.g. after a\n"
"           recorder was killed (dom0, root)\n"
"  report   print a capture as ftrace text\n"
"  export   write a capture as trace-cmd's trace.dat (-f trace.dat) or as\n"
"           Chrome/Perfetto trace-event JSON (-f json)\n"
"\n"
"'xen-dyntrace COMMAND -h' lists a command's options; man xen-dyntrace.\n"
"Exit status: 0 ok, 1 failure, 2 usage, 3 not a capture this tool reads,\n"
"4 capture truncated (what precedes the cut was used), 128+N record stopped\n"
"by signal N during its set-up (settings put back).\n");
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
    if ( !strcmp(argv[1], "record") )
        return cmd_record(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "reset") )
        return cmd_reset(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "report") )
        return cmd_report(argc - 1, argv + 1);
    if ( !strcmp(argv[1], "export") )
        return cmd_export(argc - 1, argv + 1);
    xdt_err("unknown command '%s'", argv[1]);
    usage(stderr);

    return XDT_EXIT_USAGE;
}
