/*
 * dyntrace-bench: the dom0 side of `make bench`.
 *
 *   dyntrace-bench hypercall N      N xen_version(XENVER_extraversion) hypercalls
 *                                   through /dev/xen/privcmd; prints
 *                                   "calls=N ns=T ns_per_call=X"
 *   dyntrace-bench write PATH TEXT  one HypFS write of TEXT (with its NUL) to
 *                                   PATH; prints "ns=T rc=R errno=E"
 *   dyntrace-bench paced RATE SECS  the same hypercall at RATE per second for
 *                                   SECS seconds, in bursts each millisecond
 *                                   (absolute deadlines, so a late burst is
 *                                   caught up); prints "calls=N ns=T rate=R"
 *
 * Times come from CLOCK_MONOTONIC.  Under QEMU's -icount shift=0 guest time
 * advances 1 ns per guest instruction, so the figures count instructions.
 * Exit status: 0 when every hypercall succeeded, 1 otherwise, 2 on usage
 * errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "privcmd.h"


static uint64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int usage(void)
{
    fprintf(stderr, "usage: dyntrace-bench hypercall N | write PATH TEXT | "
            "paced RATE SECS\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct privcmd_hypercall h = { 0 };
    uint64_t t0, t1;
    int fd, rc = 0;

    if ( argc < 3 )
        return usage();
    fd = open("/dev/xen/privcmd", O_RDWR);
    if ( fd < 0 )
    {
        perror("/dev/xen/privcmd");
        return 2;
    }

    if ( !strcmp(argv[1], "hypercall") && argc == 3 )
    {
        unsigned long i, n = strtoul(argv[2], NULL, 0), failed = 0;
        char *buf = locked(4096);   /* xen_extraversion_t is 16 bytes */

        if ( !n )
            return usage();
        h.op = HYPERVISOR_xen_version;
        h.arg[0] = XENVER_extraversion;
        h.arg[1] = (uintptr_t)buf;
        t0 = now_ns();
        for ( i = 0; i < n; i++ )
            if ( ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h) < 0 )
                failed++;
        t1 = now_ns();
        printf("calls=%lu ns=%llu ns_per_call=%.1f failed=%lu\n", n,
               (unsigned long long)(t1 - t0), (double)(t1 - t0) / n, failed);
        return failed ? 1 : 0;
    }

    if ( !strcmp(argv[1], "paced") && argc == 4 )
    {
        unsigned long rate = strtoul(argv[2], NULL, 0), secs = strtoul(argv[3], NULL, 0);
        unsigned long done = 0, failed = 0, ms;
        char *buf = locked(4096);
        struct timespec next;

        if ( !rate || !secs )
            return usage();
        h.op = HYPERVISOR_xen_version;
        h.arg[0] = XENVER_extraversion;
        h.arg[1] = (uintptr_t)buf;
        clock_gettime(CLOCK_MONOTONIC, &next);
        t0 = now_ns();
        for ( ms = 1; ms <= secs * 1000; ms++ )
        {
            /* Calls due by the end of this millisecond. */
            unsigned long due = (unsigned long)((uint64_t)rate * ms / 1000);

            for ( ; done < due; done++ )
                if ( ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h) < 0 )
                    failed++;
            next.tv_nsec += 1000000;
            if ( next.tv_nsec >= 1000000000 )
            {
                next.tv_sec++;
                next.tv_nsec -= 1000000000;
            }
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
        }
        t1 = now_ns();
        printf("calls=%lu ns=%llu rate=%.0f failed=%lu\n", done,
               (unsigned long long)(t1 - t0), done * 1e9 / (t1 - t0), failed);
        return failed ? 1 : 0;
    }

    if ( !strcmp(argv[1], "write") && argc == 4 )
    {
        size_t plen = strlen(argv[2]) + 1, blen = strlen(argv[3]) + 1;
        char *path = locked(plen), *buf = locked(blen);
        int err;

        memcpy(path, argv[2], plen);
        memcpy(buf, argv[3], blen);
        h.op = HYPERVISOR_hypfs_op;
        h.arg[0] = HYPFS_OP_write_contents;
        h.arg[1] = (uintptr_t)path;
        h.arg[2] = plen;
        h.arg[3] = (uintptr_t)buf;
        h.arg[4] = blen;
        t0 = now_ns();
        rc = ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h);
        err = rc < 0 ? errno : 0;
        t1 = now_ns();
        printf("ns=%llu rc=%d errno=%d\n", (unsigned long long)(t1 - t0),
               rc, err);
        return rc < 0 ? 1 : 0;
    }

    return usage();
}
