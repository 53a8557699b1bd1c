/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HypFS for the host tests, when Xen's own common/hypfs.c is built into
 * them (test-unit, from the staging tree with the series' fixes to it):
 * stub_hypfs_op() is one do_hypfs_op() hypercall, with the caller's buffer
 * as its guest handle, so that the tracer's nodes meet Xen's own order of
 * enter, getsize, the size check (-ENOBUFS), read or write, and exit.
 * hypfs-stub.c stands in for it where that source is not at hand.
 */
#include <string.h>

#include <xen/err.h>
#include <xen/hypercall.h>
#include <xen/hypfs.h>
#include <xen/lib.h>
#include <xen/list.h>
#include <xen/sched.h>

#include "unit-stub.h"

/* hypfs-xen-probe.c: nothing locked, entered or allocated on cpu. */
bool stub_hypfs_idle(unsigned int cpu);

int stub_hypfs_op(bool write, const char *path, void *buf, unsigned long ulen)
{
    long rc;

    if ( current->hcall && current->hcall->paused )
        stub_anomaly("a hypercall from a vCPU paused by its continuation");

    rc = do_hypfs_op(write ? XEN_HYPFS_OP_write_contents : XEN_HYPFS_OP_read,
                     path, strlen(path) + 1, buf, ulen);
    if ( !stub_hypfs_idle(smp_processor_id()) )
        stub_anomaly("HypFS left locked, a node entered or dynamic data "
                     "allocated after %s %s", write ? "writing" : "reading",
                     path);

    return rc;
}

int stub_hypfs_children(const char *path)
{
    const struct hypfs_entry_dir *d = &hypfs_root;
    const struct hypfs_entry *e;
    int n = 0;

    if ( strcmp(path, "/") )
    {
        const struct hypfs_entry *found = NULL;

        list_for_each_entry ( e, &hypfs_root.dirlist, list )
            if ( !strcmp(e->name, path + 1) && e->type == XEN_HYPFS_TYPE_DIR )
                found = e;
        if ( !found )
            return -ENOENT;
        d = container_of(found, const struct hypfs_entry_dir, e);
    }
    list_for_each_entry ( e, &d->dirlist, list )
        n++;

    return n;
}
