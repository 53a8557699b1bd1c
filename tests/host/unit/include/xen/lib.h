/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ASSERT (always checked: a failure aborts the test process, which the
 * harness reports as a crash), printk (into the harness's log), and the
 * string helpers Xen has and glibc lacks.
 */
#ifndef __XEN_LIB_H__
#define __XEN_LIB_H__

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <xen/kernel.h>
#include <xen/types.h>

void stub_assert_failed(const char *expr, const char *file, int line)
    __attribute__((__noreturn__));

#define ASSERT(p) do {                                  \
    if ( unlikely(!(p)) )                               \
        stub_assert_failed(#p, __FILE__, __LINE__);     \
} while ( 0 )
#define BUG() stub_assert_failed("BUG", __FILE__, __LINE__)
#define BUG_ON(p) do { if ( unlikely(p) ) BUG(); } while ( 0 )
#define ASSERT_UNREACHABLE() ASSERT(!"unreachable")
#define BUILD_BUG_ON(cond) ((void)sizeof(char[1 - 2 * !!(cond)]))

#define ACCESS_ONCE(x) (*(volatile typeof(x) *)&(x))

#define XENLOG_ERR     "<0>"
#define XENLOG_WARNING "<1>"
#define XENLOG_INFO    "<2>"
#define XENLOG_DEBUG   "<3>"

/* Xen's printk; also understands Xen's "%*ph" (a hex dump). */
/* Xen's simple_strtoul(): the C library's, with Xen's const end pointer. */
static inline unsigned long simple_strtoul(const char *cp, const char **endp,
                                           unsigned int base)
{
    char *end;
    unsigned long v = strtoul(cp, &end, base);

    if ( endp )
        *endp = end;

    return v;
}

void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Xen's panic(): the message on stderr, then the test process aborts. */
void panic(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), __noreturn__));

/* Like Xen's: the number of characters written, never more than size - 1. */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
    __attribute__((format(printf, 3, 0)));

size_t stub_strlcpy(char *dst, const char *src, size_t size);
#define safe_strcpy(d, s) ({ stub_strlcpy(d, s, sizeof(d)) >= sizeof(d); })

#endif
