/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen-dyntrace: per-CPU reserve/commit stores of fixed-size records
 * (ring.c).  The ring knows only the record size given to dt_rings_init().
 */
#ifndef DYNTRACE_RING_H
#define DYNTRACE_RING_H

#include <xen/types.h>

struct dt_ring_copy {
    unsigned int cpu;
    unsigned int nr;            /* records in recs, oldest first */
    uint64_t written;           /* records committed since the last clear */
    uint64_t dropped;           /* events lost while recording was on */
    void *recs;                 /* nr records of rec_size bytes */
};

struct dt_ring_snapshot {
    unsigned int rec_size;      /* bytes per record */
    unsigned int nr_present;    /* present CPUs at the time of the snapshot */
    unsigned int nr_cpus;       /* CPUs that own a buffer: entries of cpu[] */
    struct dt_ring_copy cpu[];
};

/*
 * The writer, with IRQs off: reserve this CPU's next slot (*cpu: this CPU),
 * fill it, commit it.  NULL: nothing reserved (recording off, this CPU not
 * ready or untraced, or the event dropped and counted); then do not commit.
 */
void *dt_ring_reserve(unsigned int *cpu);
void dt_ring_commit(void);

void dt_rings_reset_quiesced(void);
int dt_rings_set_on(bool on);
int dt_rings_clear(void);
int dt_rings_snapshot(struct dt_ring_snapshot **snap);
void dt_rings_free_snapshot(struct dt_ring_snapshot *snap);
int dt_rings_init(unsigned int rec_size);

#endif /* DYNTRACE_RING_H */
