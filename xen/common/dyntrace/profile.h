/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dyntrace: the function profiler's per-CPU tables, shared by its hot path
 * (profile.c, which writes them) and its statistics (profile_stats.c,
 * which reads them).  The rules P1 ... P8 are profile.c's.
 */
#ifndef DYNTRACE_PROFILE_H
#define DYNTRACE_PROFILE_H

#include <xen/cpumask.h>
#include <xen/types.h>

struct dyntrace_text;

/* Slots per CPU table (a power of 2: slot_hash() gives 12 bits). */
#define PROF_SLOTS  4096
#define PROF_PROBES 32
/* P8: calls of a pair timed on a CPU before sampling; then 1 in PERIOD. */
#define PROF_EXACT  256
#define PROF_PERIOD 32

struct prof_slot {
    unsigned long ip;           /* the traced function's site; 0: free */
    uint32_t seq;               /* P2: odd while written */
    uint16_t domid;
    uint64_t hits;
    uint64_t timed;             /* returns timed (hits whose return hooked) */
    uint64_t sampled;           /* P8: hits left untimed by the sampling */
    uint64_t time;              /* ns, entry to return */
    uint64_t time_sq;           /* ns^2: the low 64 bits of the sum */
    uint64_t time_sq_hi;        /* and the high ones (add_sq()) */
};

struct prof_table {
    uint32_t gen;               /* P3: the generation it counts for */
    uint32_t countdown;         /* P8: calls until the next timed one, >= 1 */
    uint32_t random;            /* P8: xorshift state, never 0 */
    uint64_t missed;            /* P6 */
    struct prof_slot s[PROF_SLOTS];
};

/* (*hi:*lo) += (ahi:alo): a sum of 128 bits in two words. */
static always_inline void add_128(uint64_t *lo, uint64_t *hi, uint64_t alo,
                                  uint64_t ahi)
{
    *lo += alo;
    *hi += ahi + (*lo < alo);
}

/*
 * P5: by CPU, kept when the CPU goes offline; prof_cpus: which exist (a
 * bit is set once its table is).  Written under the CPU maps: by prepare()
 * holding them, by the CPU notifier while hotplug holds them.
 */
extern struct prof_table *prof_tables[NR_CPUS];
extern cpumask_t prof_cpus;
/* P3: the generation the tables count for. */
extern uint32_t prof_gen;
/* Are returns timed (fixed at boot: CET is)?  If not, why. */
extern bool prof_timing;
extern const char *prof_untimed_why;

/*
 * Its files in /tracing (profile_stats.c): function_profile_enabled and
 * trace_stat/ (function<cpu>, domains).  At boot, before /tracing is built.
 */
void prof_fs_init(void);

#endif /* DYNTRACE_PROFILE_H */
