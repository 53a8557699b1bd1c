/*
 * console-raw: Xen's console ring from dom0, with raw XEN_SYSCTL_readconsole
 * hypercalls built against the public headers of the Xen tree under test
 * (as livepatch-raw), so that it works where Debian's xl speaks another
 * sysctl version (staging) and needs no xenstored.
 *
 *   console-raw        print the whole ring (what "xl dmesg" prints)
 *
 * Errors are printed as "readconsole failed: error N: strerror", exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "privcmd.h"

#include "public/xen.h"
#include "public/sysctl.h"

#define CHUNK 16384

int main(int argc, char **argv)
{
    struct xen_sysctl *s;
    char *buf;
    uint32_t index = 0;
    int fd;

    (void)argv;
    if ( argc != 1 )
    {
        fprintf(stderr, "usage: console-raw\n");
        return 2;
    }
    fd = open("/dev/xen/privcmd", O_RDWR);
    if ( fd < 0 )
    {
        perror("/dev/xen/privcmd");
        return 1;
    }
    s = locked(sizeof(*s));
    buf = locked(CHUNK);
    for ( ;; )
    {
        struct privcmd_hypercall h = { .op = __HYPERVISOR_sysctl };
        int rc;

        memset(s, 0, sizeof(*s));
        s->cmd = XEN_SYSCTL_readconsole;
        s->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
        s->u.readconsole.incremental = 1;
        s->u.readconsole.index = index;
        s->u.readconsole.count = CHUNK;
        set_xen_guest_handle(s->u.readconsole.buffer, buf);
        h.arg[0] = (uint64_t)(unsigned long)s;
        rc = ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h);
        if ( rc < 0 )
        {
            printf("readconsole failed: error %d: %s\n", errno,
                   strerror(errno));
            return 1;
        }
        if ( !s->u.readconsole.count )
            break;
        fwrite(buf, 1, s->u.readconsole.count, stdout);
        index = s->u.readconsole.index;
    }

    return 0;
}
