/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symtab-guard [--nm] FILE: parse FILE as a symbol list (a capture's function
 * list, or with --nm a --symbols map) with xdt_symtab_parse(), its bytes
 * placed so that they end where an inaccessible page begins: a parser that
 * reads one byte beyond the text it was given faults, wherever the text ends
 * (a capture's chunk is mapped, with no terminator after it, and the file may
 * end on a page boundary).  Prints "N symbols" (exit 0) or "malformed"
 * (exit 1); exit 2 on a usage or I/O error.  For tests/host/test-capture.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xen-dyntrace.h"

void xdt_err(const char *fmt, ...)
{
    (void)fmt;
}

int main(int argc, char **argv)
{
    bool nm = argc == 3 && !strcmp(argv[1], "--nm");
    size_t page = sysconf(_SC_PAGESIZE), len = 0, room;
    static char text[1 << 16];
    struct xdt_symtab t;
    uint8_t *map;
    FILE *f;
    int rc;

    if ( argc != 2 + nm || !(f = fopen(argv[1 + nm], "rb")) )
    {
        fprintf(stderr, "usage: symtab-guard [--nm] FILE\n");
        return 2;
    }
    len = fread(text, 1, sizeof(text), f);
    fclose(f);
    room = (len + page - 1) / page * page;
    map = mmap(NULL, room + page, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if ( map == MAP_FAILED || mprotect(map + room, page, PROT_NONE) )
    {
        perror("symtab-guard: mmap");
        return 2;
    }
    memcpy(map + room - len, text, len);
    rc = xdt_symtab_parse(&t, (const char *)map + room - len, len, nm);
    if ( rc )
        printf("malformed\n");
    else
        printf("%zu symbols\n", t.nr);
    xdt_symtab_free(&t);
    munmap(map, room + page);

    return rc ? 1 : 0;
}
