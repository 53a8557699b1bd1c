/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Read-write locks, for Xen's common/hypfs.c.  The harness runs hypervisor
 * code on one thread at a time: a lock that could not be taken means the
 * caller would deadlock on itself, which aborts the test.
 */
#ifndef __XEN_RWLOCK_H__
#define __XEN_RWLOCK_H__

#include <xen/lib.h>
#include <xen/percpu.h>     /* As Xen's rwlock.h (its per-CPU rwlocks). */

typedef struct {
    int readers;                /* -1: write-locked */
} rwlock_t;

#define DEFINE_RWLOCK(l) rwlock_t l = { 0 }

#define read_lock(l)    do { ASSERT((l)->readers >= 0); (l)->readers++; } while ( 0 )
#define read_unlock(l)  do { ASSERT((l)->readers > 0); (l)->readers--; } while ( 0 )
#define write_lock(l)   do { ASSERT(!(l)->readers); (l)->readers = -1; } while ( 0 )
#define write_unlock(l) do { ASSERT((l)->readers == -1); (l)->readers = 0; } while ( 0 )

#endif
