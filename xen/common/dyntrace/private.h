/* SPDX-License-Identifier: GPL-2.0-only */
/* xen-dyntrace: declarations shared by common/dyntrace/ only. */
#ifndef __COMMON_DYNTRACE_PRIVATE_H__
#define __COMMON_DYNTRACE_PRIVATE_H__

#include <xen/dyntrace.h>

/* ring.c: per-CPU ring buffers of struct dyntrace_record. */
struct dt_ring_copy {
    unsigned int cpu;
    unsigned int nr;            /* records in recs[], oldest first */
    uint64_t written;           /* records committed since the last clear */
    uint64_t dropped;           /* events lost while recording was on */
    struct dyntrace_record *recs;
};

struct dt_ring_snapshot {
    unsigned int nr_cpus;       /* CPUs that own a buffer */
    unsigned int nr_present;    /* present CPUs at the time of the snapshot */
    struct dt_ring_copy cpu[NR_CPUS];
};

void dt_ring_record(unsigned long ip, unsigned long parent_ip,
                    unsigned int flags);
void dt_rings_reset_quiesced(void);
int dt_rings_set_on(bool on);
int dt_rings_clear(void);
int dt_rings_snapshot(struct dt_ring_snapshot **snap);
void dt_rings_free_snapshot(struct dt_ring_snapshot *snap);
int dt_rings_init(void);

#endif /* __COMMON_DYNTRACE_PRIVATE_H__ */
