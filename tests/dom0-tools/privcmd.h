/*
 * What the dom0 tools share: raw hypercalls through /dev/xen/privcmd
 * (IOCTL_PRIVCMD_HYPERCALL) and mlocked buffers for their arguments.
 */
#ifndef DOM0_TOOLS_PRIVCMD_H
#define DOM0_TOOLS_PRIVCMD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#define HYPERVISOR_xen_version 17
#define XENVER_extraversion 1
#define HYPERVISOR_hypfs_op 42
#define HYPFS_OP_get_version 0
#define HYPFS_OP_read 1
#define HYPFS_OP_write_contents 2

struct privcmd_hypercall {
    uint64_t op;
    uint64_t arg[5];
};
#define IOCTL_PRIVCMD_HYPERCALL \
    _IOC(_IOC_NONE, 'P', 0, sizeof(struct privcmd_hypercall))

/* A zeroed, locked buffer of n bytes (at least one); exits on failure. */
static inline void *locked(size_t n)
{
    void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);

    if ( p == MAP_FAILED )
    {
        perror("mmap");
        exit(2);
    }
    memset(p, 0, n ? n : 1);
    return p;
}

#endif
