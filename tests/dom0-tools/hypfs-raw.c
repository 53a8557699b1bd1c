/*
 * hypfs-raw: issue raw HypFS hypercalls from dom0 through /dev/xen/privcmd,
 * for the cases xenhypfs cannot produce (strings without their NUL, values of
 * the wrong size, chosen buffer sizes).
 *
 *   hypfs-raw write PATH HEX [N]  write the bytes HEX (e.g. 61626300) to PATH
 *   hypfs-raw read PATH SIZE [N]  read PATH with a buffer of SIZE bytes
 *   hypfs-raw version             XEN_HYPFS_OP_get_version (what libxenhypfs
 *                                 asks first when it opens)
 *   hypfs-raw raw-sizes           trace_pipe_raw's header and record sizes,
 *                                 from public/dyntrace.h: "HEADER RECORD"
 *   hypfs-raw drain PATH STOPFILE OUT
 *                                 read PATH (a per_cpu/cpuN/trace_pipe_raw)
 *                                 in a loop until STOPFILE exists and a read
 *                                 returns nothing, checking each read's
 *                                 header; write each record to OUT as
 *                                 "[CPU] SECONDS.MICROSECONDS: IP" (the
 *                                 text trace's CPU and time fields), print
 *                                 "drain reads=R records=N lost=L eagain=A
 *                                 bad=B"; exits 1 if B (malformed reads) > 0
 *
 * Prints "rc=N errno=NAME [content_len=L type=T encoding=E max_write_len=M]"
 * for the last of N (default 1) back-to-back calls, then, when N > 1,
 * "count ok=A EBUSY=B other=C changed=D": D counts the reads whose result
 * (return value, errno, the entry header Xen filled in) differed from the
 * first read's; the first such read is printed in full ("first change: ...").
 * Exits 0 whatever the hypercalls returned (the caller checks the printed
 * result); exits 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <public/dyntrace.h>

#include "privcmd.h"

struct direntry {
    uint8_t type, encoding;
    uint16_t pad;
    uint32_t content_len;
    uint32_t max_write_len;
};

static const char *errname(int e)
{
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
    default: return "other";
    }
}

/* trace_pipe_raw's format: the tree's public/dyntrace.h. */
#define RAW_MAX_BYTES (sizeof(struct xen_dyntrace_raw_header) + \
                       XEN_DYNTRACE_RAW_MAX_RECORDS * \
                       sizeof(struct xen_dyntrace_record))

static int hypercall(int fd, unsigned long op, const char *path, void *buf,
                     size_t blen)
{
    struct privcmd_hypercall h = { .op = HYPERVISOR_hypfs_op };

    h.arg[0] = op;
    h.arg[1] = (uintptr_t)path;
    h.arg[2] = strlen(path) + 1;
    h.arg[3] = (uintptr_t)buf;
    h.arg[4] = blen;

    return ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h) < 0 ? errno : 0;
}

static void *locked(size_t len);

static int drain(const char *arg_path, const char *stop, const char *outname)
{
    size_t plen = strlen(arg_path) + 1,
           blen = sizeof(struct direntry) + RAW_MAX_BYTES;
    char *path = locked(plen);
    uint8_t *buf = locked(blen);
    unsigned long reads = 0, records = 0, lost = 0, eagain = 0, bad = 0;
    FILE *out = fopen(outname, "w");
    int fd = open("/dev/xen/privcmd", O_RDWR);
    bool stopping = false;

    if ( fd < 0 || !out )
    {
        perror(fd < 0 ? "/dev/xen/privcmd" : outname);
        return 2;
    }
    memcpy(path, arg_path, plen);
    for ( ;; )
    {
        const struct direntry *d = (const struct direntry *)buf;
        const struct xen_dyntrace_raw_header *h = (const void *)(d + 1);
        const uint8_t *rec = (const uint8_t *)(h + 1);
        int err;
        uint32_t i;

        if ( !stopping && !access(stop, F_OK) )
            stopping = true;
        err = hypercall(fd, HYPFS_OP_read, path, buf, blen);
        reads++;
        if ( err == EAGAIN )
        {
            eagain++;
            continue;
        }
        if ( err || d->content_len < sizeof(*h) ||
             h->magic != XEN_DYNTRACE_RAW_MAGIC ||
             h->version != XEN_DYNTRACE_RAW_VERSION ||
             h->header_size != sizeof(*h) ||
             h->record_size != sizeof(struct xen_dyntrace_record) ||
             d->content_len !=
                 sizeof(*h) + (unsigned long)h->record_size * h->nr )
        {
            fprintf(stderr, "drain: read %lu: errno %s, content_len %u\n",
                    reads, errname(err), d->content_len);
            bad++;
            if ( bad > 10 )
                break;
            continue;
        }
        lost += h->lost;
        records += h->nr;
        for ( i = 0; i < h->nr; i++ )
        {
            struct xen_dyntrace_record r;

            memcpy(&r, rec + sizeof(r) * i, sizeof(r));
            fprintf(out, "[%03u] %lu.%06lu: %#lx\n", r.cpu,
                    (unsigned long)(r.ts / 1000000000),
                    (unsigned long)(r.ts % 1000000000 / 1000),
                    (unsigned long)r.ip);
        }
        if ( stopping && !h->nr && !h->lost )
            break;
        if ( !h->nr )
            usleep(1000);
    }
    fclose(out);
    printf("drain reads=%lu records=%lu lost=%lu eagain=%lu bad=%lu\n", reads,
           records, lost, eagain, bad);

    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    struct privcmd_hypercall h = { .op = HYPERVISOR_hypfs_op };
    size_t plen, blen;
    char *path;
    uint8_t *buf;
    int fd, rc = 0, err = 0;
    unsigned long i, n = argc > 4 ? strtoul(argv[4], NULL, 0) : 1;
    unsigned long ok = 0, busy = 0, other = 0, changed = 0;
    struct direntry first = { 0 }, *hdr;
    int first_rc = 0, first_err = 0;

    if ( argc == 2 && !strcmp(argv[1], "version") )
    {
        h.arg[0] = HYPFS_OP_get_version;
        fd = open("/dev/xen/privcmd", O_RDWR);
        if ( fd < 0 )
        {
            perror("/dev/xen/privcmd");
            return 2;
        }
        rc = ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h);
        err = rc < 0 ? errno : 0;
        printf("rc=%d errno=%s\n", rc, errname(err));
        return 0;
    }
    if ( argc == 2 && !strcmp(argv[1], "raw-sizes") )
    {
        printf("%zu %zu\n", sizeof(struct xen_dyntrace_raw_header),
               sizeof(struct xen_dyntrace_record));
        return 0;
    }
    if ( argc == 5 && !strcmp(argv[1], "drain") )
        return drain(argv[2], argv[3], argv[4]);
    if ( (argc != 4 && argc != 5) || (strcmp(argv[1], "write") && strcmp(argv[1], "read")) )
    {
        fprintf(stderr,
                "usage: hypfs-raw write PATH HEX [N] | read PATH SIZE [N] | "
                "version | raw-sizes | drain PATH STOPFILE OUT\n");
        return 2;
    }

    plen = strlen(argv[2]) + 1;
    path = locked(plen);
    memcpy(path, argv[2], plen);

    if ( !strcmp(argv[1], "write") )
    {
        size_t j, digits = strlen(argv[3]);

        if ( digits % 2 )
        {
            fprintf(stderr, "hypfs-raw: odd number of hex digits\n");
            return 2;
        }
        blen = digits / 2;
        buf = locked(blen);
        for ( j = 0; j < blen; j++ )
        {
            unsigned int b;

            if ( sscanf(argv[3] + 2 * j, "%2x", &b) != 1 )
                return 2;
            buf[j] = b;
        }
        h.arg[0] = HYPFS_OP_write_contents;
    }
    else
    {
        blen = strtoul(argv[3], NULL, 0);
        buf = locked(blen);
        h.arg[0] = HYPFS_OP_read;
    }
    h.arg[1] = (uintptr_t)path;
    h.arg[2] = plen;
    h.arg[3] = (uintptr_t)buf;
    h.arg[4] = blen;

    fd = open("/dev/xen/privcmd", O_RDWR);
    if ( fd < 0 )
    {
        perror("/dev/xen/privcmd");
        return 2;
    }
    hdr = (struct direntry *)buf;
    for ( i = 0; i < n; i++ )
    {
        /* A header Xen did not fill in shows as this pattern. */
        if ( h.arg[0] == HYPFS_OP_read )
            memset(buf, 0xa5, blen);
        rc = ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h);
        err = rc < 0 ? errno : 0;
        if ( h.arg[0] == HYPFS_OP_read && blen >= sizeof(*hdr) )
        {
            if ( !i )
            {
                first = *hdr;
                first_rc = rc;
                first_err = err;
            }
            else if ( rc != first_rc || err != first_err ||
                      memcmp(hdr, &first, sizeof(first)) )
            {
                if ( !changed )
                    printf("first change: call %lu rc=%d errno=%s "
                           "content_len=%u type=%u encoding=%u "
                           "max_write_len=%u\n", i, rc, errname(err),
                           hdr->content_len, hdr->type, hdr->encoding,
                           hdr->max_write_len);
                changed++;
            }
        }
        if ( !err )
            ok++;
        else if ( err == EBUSY )
            busy++;
        else
            other++;
    }
    if ( !strcmp(argv[1], "read") && blen >= sizeof(struct direntry) &&
         (rc == 0 || err == ENOBUFS) )
        printf("rc=%d errno=%s content_len=%u type=%u encoding=%u "
               "max_write_len=%u\n", rc, errname(err), hdr->content_len,
               hdr->type, hdr->encoding, hdr->max_write_len);
    else
        printf("rc=%d errno=%s\n", rc, errname(err));
    if ( n > 1 )
        printf("count ok=%lu EBUSY=%lu other=%lu changed=%lu\n", ok, busy,
               other, changed);
    return 0;
}
