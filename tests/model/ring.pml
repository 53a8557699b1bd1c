/*
 * Promela model of xen/common/dyntrace/ring.c, the per-CPU ring buffers, and
 * of the concurrency contract of docs/design.md ("Buffers", B2-B13, B15).
 * Checked by tests/host/test-ring-model; see docs/design.md, "How the
 * contract is checked".
 *
 * Two CPUs.  CPU0 is online throughout; CPU1 is present but offline at boot,
 * without a buffer: the hotplug process brings it up (its buffer is
 * allocated at CPU_UP_PREPARE), takes it down and brings it up again.  On a
 * CPU, an ordinary ("task") context writes a record (dt_ring_reserve(),
 * fill the slot, dt_ring_commit()), or two in one reservation when it
 * chooses (fill, dt_ring_next(), fill, commit: B15; -DPAIRS=0 leaves them
 * out), and an NMI may arrive once, between any
 * two steps of the task context - in the middle of a write included - and
 * write one itself.  Holders run on other
 * CPUs, concurrently: a snapshot reader, a clearer, and the on/off switch
 * (off, then on again).  Recording is on at the start.
 *
 * The state space of everything at once is too large to search exhaustively
 * in reasonable memory, so the run is split into scenarios that share this
 * model (each one exhaustive):
 *   SCEN_WRITE    (default) CPU0: task (2 records) and NMI; reader, clearer
 *                 and on/off switch.  The drain, torn records, nesting,
 *                 clear visibility, accounting, set_on.
 *   SCEN_HOTPLUG  CPU1: task (2 records) and NMI, brought up, taken down and
 *                 up again; CPU0: a buffer, no writer; reader and clearer.
 *                 The ready flag, CPU maps, clears of an offline CPU's
 *                 buffer, the buffer allocated at CPU_UP_PREPARE.
 *   SCEN_HOTPLUG_ONOFF  the same CPUs with the on/off switch instead of
 *                 reader and clearer: a buffer allocated while recording
 *                 is off starts off; set_on covers an offline CPU.
 *   SCEN_PIPE     CPU0: task (3 records into 2 slots: it wraps; any two
 *                 consecutive ones may be one call's pair, dt_ring_next(),
 *                 B15), no NMI; two
 *                 consumers (trace_pipe, B12: snapshot of the oldest
 *                 records not consumed, copied without holding the buffer
 *                 and checked afterwards as B13 says, then a commit of a
 *                 chosen number of them, which fails if the read position
 *                 moved) and a
 *                 resizer (B11: new storage swapped in under the hold, the
 *                 old one freed after the release).  Consume against
 *                 overwrite, consume against consume, resize against the
 *                 writer and the consumers.
 *
 * Memory ordering.  Spin interleaves atomic steps (sequential consistency),
 * so every access another CPU can observe separately is its own step: the
 * writer's cmpxchg, the two halves of the slot, the count, the status store;
 * each half of each slot the reader copies, the clearer's resets, each
 * holder's release.  (A holder's status read and cmpxchg are one step: when
 * the cmpxchg loses a race it only retries, which is the same as a longer
 * wait.)  The barriers are what forbid other orders; each BROKEN_* variant
 * removes one step or barrier and adds the orders the hardware would then
 * allow (on weakly ordered CPUs, where Xen's write_atomic and read_atomic
 * are plain accesses), so a reviewer can see what each is for:
 *
 *   spin -DBROKEN_DRAIN -a ring.pml      ring_hold does not wait for WRITING
 *   spin -DBROKEN_MB -a ring.pml         no smp_mb before the writer's status
 *                                        store: it may become visible before
 *                                        written++
 *   spin -DBROKEN_RELEASE -a ring.pml    no smp_mb in ring_release: the
 *                                        release may become visible before
 *                                        the holder's copy and resets
 *   spin -DSCEN_HOTPLUG -DBROKEN_CLEAR_ONLINE -a ring.pml
 *                                        dt_rings_clear walks the online CPUs
 *                                        instead of ring_cpus
 *   spin -DSCEN_PIPE -DBROKEN_COMMIT -a ring.pml
 *                                        dt_rings_consume() commits without
 *                                        checking the read position: a
 *                                        record is consumed twice
 *   spin -DSCEN_PIPE -DBROKEN_UNHELD_CHECK -a ring.pml
 *                                        a consuming read keeps every record
 *                                        it copied: a torn one among them
 *   spin -DSCEN_PIPE -DBROKEN_UNHELD_STATUS -a ring.pml
 *                                        it ignores the status (a writer
 *                                        that has not counted yet): a slot
 *                                        being overwritten is kept
 *   spin -DSCEN_PIPE -DBROKEN_EARLY_REC -a ring.pml
 *                                        the writer reads the storage
 *                                        pointer before its cmpxchg: it
 *                                        writes into storage a resize freed
 *   spin -DBROKEN_NEXT_NO_WMB -a ring.pml
 *                                        (SCEN_PIPE) no smp_wmb between
 *                                        dt_ring_next()'s count and the next
 *                                        slot: the next slot's halves may
 *                                        become visible before the count, so
 *                                        a consuming read keeps a torn record
 *   spin -DBROKEN_WMB -a ring.pml        no smp_wmb between the slot and
 *                                        written++: no counterexample (the
 *                                        smp_mb before the status store and
 *                                        the drain order them for every
 *                                        holder; the smp_wmb is redundant)
 *
 * A CPU's own contexts (task, NMI, the notifiers that run on it) see its
 * accesses in program order, so the reorderings are only made visible to
 * other CPUs: no NMI lands inside a reordered window.
 *
 * Properties:
 *   - no reader copies a slot being written: both halves of every copied
 *     record come from the same write (no torn record);
 *   - a snapshot holds no record accepted before the last clear that had
 *     completed when the snapshot began, on any CPU, online or not (so an
 *     offline CPU's buffer is cleared too); records are in acceptance order;
 *   - under a hold, written = records accepted since the last clear: no
 *     write is in flight (the drain);
 *   - at the end, per CPU: written = records accepted since the clear's
 *     hold; every refused call (WRITING, HELD_ON) has counted, and dropped
 *     counts every call refused since the clear (those refused while the
 *     clear held the buffer may land on either side);
 *   - nothing is accepted once set_on(false) has returned (until set_on(true));
 *   - (SCEN_PIPE) each committed consuming read starts where the last one
 *     ended, or at 0 after a resize; the records it took are in acceptance
 *     order, each taken once, and the first follows the last one taken
 *     after exactly the records it reports overwritten; no writer writes
 *     into storage a resize has freed;
 *   - no invalid end state (every wait ends: no deadlock), and the LTL claim
 *     "completes": every run reaches the final check.
 */

#define NCPU        2
#define SIZE        2           /* records per buffer: small, so it wraps */
#if defined(BROKEN_NEXT_NO_WMB) && !defined(SCEN_PIPE)
# define SCEN_PIPE              /* the variant concerns consuming reads */
#endif
#if defined(SCEN_PIPE)
# define CALLS      3           /* records a task context writes */
#else
# define CALLS      2
#endif

#if defined(SCEN_HOTPLUG)
# define WCPU       1           /* the CPU with writers */
# define READER     1
# define CLEARER    1
# define TOGGLER    0
# define HOTPLUG    1
#elif defined(SCEN_PIPE)
# define WCPU       0
# define READER     0
# define CLEARER    0
# define TOGGLER    0
# define HOTPLUG    0
# define CONSUMERS  2
# define RESIZER    1
#elif defined(SCEN_HOTPLUG_ONOFF)
# define WCPU       1
# define READER     0
# define CLEARER    0
# define TOGGLER    1
# define HOTPLUG    1
#else
# define WCPU       0
# define READER     1
# define CLEARER    1
# define TOGGLER    1
# define HOTPLUG    0
#endif
#ifndef CONSUMERS
# define CONSUMERS  0
# define RESIZER    0
#endif
#ifndef PAIRS
# define PAIRS      1           /* a task's call may write two records (B15) */
#endif
#define NPROCS      (1 + READER + CLEARER + TOGGLER + HOTPLUG + CONSUMERS + \
                     RESIZER)

/* Buffer status (ring.c). */
#define OFF         0
#define READY       1
#define WRITING     2
#define HELD_ON     3
#define HELD_OFF    4
#define HELD(s)     (s == READY -> HELD_ON : HELD_OFF)

/* What a CPU is running. */
#define DEAD        0
#define TASK        1
#define NMI         2

byte status[NCPU];
byte written[NCPU];
byte dropped[NCPU];
bool ready[NCPU];               /* r->ready */
bool has_ring[NCPU];            /* rings[cpu] != NULL */
bool ring_cpus[NCPU];
/*
 * The records, as two halves written apart, in one of two storages per CPU
 * (a resize swaps them): slot (c * 2 + store[c]) * SIZE + i.
 */
byte recA[NCPU * 2 * SIZE];
byte recB[NCPU * 2 * SIZE];
byte store[NCPU];               /* r->rec: the storage in use */
bool freed[NCPU * 2];           /* vfree()d by a resize */
bool rings_on = true;
/* B12: the read position and the resets (holders' data, under ring_lock). */
byte rd[NCPU];
byte resets[NCPU];

/* CPU maps (Xen's cpu_add_remove_lock) and ring_lock. */
byte maps_readers;
bool maps_writer;
bool ring_lock;

/* The CPUs. */
byte owner[NCPU];               /* DEAD, TASK or NMI */
bool in_call[NCPU];             /* the task context is writing */
bool nmi_off[NCPU];             /* a reordered window: no NMI (see above) */

/* Ghost state for the properties. */
byte ev[NCPU];                  /* records accepted = id of the newest */
byte clear_floor[NCPU];         /* ev when the last completed clear began */
byte gacc[NCPU];                /* accepted since the last clear's hold */
byte inflight[NCPU];            /* refused, dropped++ not yet done */
byte gdrop_lo[NCPU];            /* refused since the clear: surely counted */
byte gdrop_hi[NCPU];            /* ... and those that may be counted */
bool clear_holds[NCPU];         /* a clear holds the buffer */
bool off_returned;              /* set_on(false) returned, not on again */
byte last_taken[NCPU];          /* id of the last record consumed, 0: none */
byte taken_resets[NCPU];        /* resets at the last commit */
byte done;                      /* finished processes (not the NMI) */
bool checked;

/*
 * dt_ring_reserve(): rings[cpu], ready, and
 * cmpxchg(status, READY, WRITING), with the slot the record goes to.  One
 * step: ready cannot change during a call (CPU_STARTING and CPU_DYING run on
 * this CPU, and the call has IRQs off), and written cannot either (holders
 * change it only while they hold the buffer, a nested writer is refused).
 */
inline first_step(c)
{
    old = OFF;
    if
    :: has_ring[c] && ready[c] ->
        old = status[c];
        if
        :: old == READY ->
            status[c] = WRITING;
            assert(!off_returned);      /* set_on(false) drained us all */
            ev[c]++;
            id = ev[c];
#ifdef BROKEN_EARLY_REC
            slot = (c * 2 + early) * SIZE + written[c] % SIZE;
#else
            slot = (c * 2 + store[c]) * SIZE + written[c] % SIZE;
#endif
            gacc[c]++
        :: old == WRITING || old == HELD_ON ->
            inflight[c]++;
            gdrop_hi[c]++;
            if
            :: !clear_holds[c] -> gdrop_lo[c]++
            :: else -> skip             /* may count before or after it */
            fi
        :: else ->
            skip                        /* OFF, HELD_OFF: not accepted */
        fi
    :: else ->
        skip                            /* not ready, or no buffer */
    fi
}

/* Each later step waits for its context (TASK or NMI) to own the CPU. */
#define STEP(c, ctx)    atomic { owner[c] == ctx ->
/* The call's last step: leave it (an NMI returns), forget its locals. */
#define DONE(c, ctx) \
    if :: ctx == TASK -> in_call[c] = false :: else -> owner[c] = TASK fi; \
    nmi_off[c] = false; old = 0; id = 0; slot = 0; early = 0; pair = false
#define NMI_OFF(c)      nmi_off[c] = true

#define SLOT_A(c, ctx, x) \
    STEP(c, ctx) assert(!freed[slot / SIZE]); recA[slot] = id; x }
#define SLOT_B(c, ctx, x) \
    STEP(c, ctx) assert(!freed[slot / SIZE]); recB[slot] = id; x }
#define COUNT(c, ctx, x)    STEP(c, ctx) written[c]++; x }
#define PUBLISH(c, ctx, x)  STEP(c, ctx) status[c] = READY; x }

/*
 * dt_ring_next(), between the first record's halves and the second's: the
 * second record is accepted (a ghost step, folded into the first record's
 * last store) and goes to the slot after the first, whose count the writer
 * alone changes while it holds WRITING.
 */
#define NEXT_REC(c) \
    ev[c]++; id = ev[c]; gacc[c]++; \
    slot = (c * 2 + store[c]) * SIZE + (written[c] + 1) % SIZE

/*
 * The first record of a pair (pair: a call's two records, B15): its halves,
 * then dt_ring_next(): smp_wmb(), the count, smp_wmb(), and the next slot,
 * whose halves and commit follow as a single record's.  Without the second
 * smp_wmb() (-DBROKEN_NEXT_NO_WMB) other CPUs may see the first count after
 * either half of the next slot (never after the second count: one location).
 */
inline first_of_pair(c, ctx)
{
    SLOT_A(c, ctx, skip);
    SLOT_B(c, ctx, NEXT_REC(c));
    /* smp_wmb() */
#ifdef BROKEN_NEXT_NO_WMB
    if
    :: COUNT(c, ctx, skip); SLOT_A(c, ctx, skip); SLOT_B(c, ctx, skip)
    :: SLOT_A(c, ctx, NMI_OFF(c)); COUNT(c, ctx, skip); SLOT_B(c, ctx, skip)
    :: SLOT_A(c, ctx, NMI_OFF(c)); SLOT_B(c, ctx, skip); COUNT(c, ctx, skip)
    fi;
#else
    COUNT(c, ctx, skip);
    /* smp_wmb() */
    SLOT_A(c, ctx, skip);
    SLOT_B(c, ctx, skip);
#endif
    /* smp_wmb() */
    COUNT(c, ctx, skip);
    /* smp_mb() */
    PUBLISH(c, ctx, DONE(c, ctx))
}

inline rest_of_call(c, ctx)
{
    if
#if PAIRS
    :: old == READY && pair ->
        first_of_pair(c, ctx)
    :: old == READY && !pair ->
#else
    :: old == READY ->
#endif
#if defined(BROKEN_WMB)
        /* Other CPUs may see the count before either half. */
        if
        :: SLOT_A(c, ctx, skip); SLOT_B(c, ctx, skip); COUNT(c, ctx, skip)
        :: COUNT(c, ctx, NMI_OFF(c)); SLOT_A(c, ctx, skip);
           SLOT_B(c, ctx, skip)
        :: SLOT_A(c, ctx, NMI_OFF(c)); COUNT(c, ctx, skip);
           SLOT_B(c, ctx, skip)
        fi;
        PUBLISH(c, ctx, DONE(c, ctx))
#elif defined(BROKEN_MB)
        SLOT_A(c, ctx, skip);
        SLOT_B(c, ctx, skip);
        /* Other CPUs may see READY before the count. */
        if
        :: COUNT(c, ctx, skip); PUBLISH(c, ctx, DONE(c, ctx))
        :: PUBLISH(c, ctx, NMI_OFF(c)); COUNT(c, ctx, DONE(c, ctx))
        fi
#else
        SLOT_A(c, ctx, skip);
        SLOT_B(c, ctx, skip);
        /* smp_wmb() */
        COUNT(c, ctx, skip);
        /* smp_mb() */
        PUBLISH(c, ctx, DONE(c, ctx))
#endif
    :: old == WRITING || old == HELD_ON ->
        /* arch_fetch_and_add(&r->dropped, 1) */
        STEP(c, ctx) dropped[c]++; inflight[c]--; DONE(c, ctx) }
    :: else ->
        STEP(c, ctx) DONE(c, ctx) }
    fi
}

/* The task context of a CPU: CALLS calls, whenever the CPU runs. */
proctype task(byte c)
{
    byte n = CALLS, old, id, slot, early;
    bool pair;

end:
    do
    :: atomic { n > 0 && owner[c] == TASK ->
                n--;
#if PAIRS
                /* Two records (B15), as graph_record() with an entry to flush. */
                if
                :: n > 0 -> n--; pair = true
                :: true -> skip
                fi;
#endif
                in_call[c] = true;
#ifdef BROKEN_EARLY_REC
                early = store[c]
    };
       atomic { owner[c] == TASK ->
#endif
                first_step(c) };
       rest_of_call(c, TASK)
    :: atomic { n == 0 -> done++; break }
    od
}

/* One NMI on a CPU, at any point of its task context (or never). */
proctype nmi(byte c)
{
    byte old, id, slot, early;
    bool pair;                          /* one record */

end:
    atomic { owner[c] == TASK && !nmi_off[c] ->
             owner[c] = NMI;
             early = store[c];
             first_step(c) };
    rest_of_call(c, NMI)
}

/*
 * ring_hold(): wait while WRITING (a spin in C; a blocking guard here, so a
 * wait that never ends is an invalid end state), then
 * cmpxchg(READY/OFF -> HELD_ON/HELD_OFF).  A clear's hold is where the ghost
 * counts restart.
 */
inline ring_hold(c, s, clearing)
{
    atomic {
#ifndef BROKEN_DRAIN
        status[c] != WRITING ->
#endif
        s = status[c];
#ifndef BROKEN_DRAIN
        assert(s == READY || s == OFF); /* ASSERT(): holders serialised */
#endif
        status[c] = HELD(s);
        released = false;
        if
        :: clearing ->
            gacc[c] = 0;                /* none in flight: the drain */
            clear_holds[c] = true;
            gdrop_lo[c] = 0;
            gdrop_hi[c] = inflight[c]   /* their dropped++ is to come */
        :: else ->
            skip
        fi
    }
}

/* ring_release(): smp_mb(); write_atomic(&r->status, v). */
#ifdef BROKEN_RELEASE
/* Other CPUs may see the release before any later step of the holder. */
# define MAYBE_EARLY(c, v) \
    if :: !released -> status[c] = v; released = true :: true -> skip fi
#else
# define MAYBE_EARLY(c, v) skip
#endif

#define RELEASE(c, v) \
    if :: !released -> status[c] = v :: else -> skip fi; released = false

/* get_cpu_maps() (a trylock), then spin_lock(&ring_lock). */
#define GET_MAPS    atomic { !maps_writer -> maps_readers++ }
#define LOCK        atomic { !ring_lock -> ring_lock = true }
#define UNLOCK_PUT  atomic { ring_lock = false; maps_readers-- }

/* One record of the snapshot's copy (oldest first). */
inline copy_rec(c, i)
{
    if
    :: i < n ->
        MAYBE_EARLY(c, s);
        a = recA[(c * 2 + store[c]) * SIZE + (w - n + i) % SIZE];
        MAYBE_EARLY(c, s);
        atomic {
            b = recB[(c * 2 + store[c]) * SIZE + (w - n + i) % SIZE];
            assert(a == b);             /* no torn record */
            assert(a > fl[c]);          /* nothing from before the clear */
            assert(a > prev);           /* acceptance order */
            prev = a;
            a = 0;
            b = 0
        }
    :: else ->
        skip
    fi
}

inline snap_cpu(c)
{
    if
    :: ring_cpus[c] ->
        ring_hold(c, s, false);
        atomic {
            w = written[c];
            assert(w == gacc[c]);       /* nothing in flight under a hold */
            n = (w < SIZE -> w : SIZE);
            n = (w - rd[c] < n -> w - rd[c] : n)
        };
        copy_rec(c, 0);
        copy_rec(c, 1);
        atomic { RELEASE(c, s); s = 0; w = 0; n = 0; prev = 0 }
    :: else ->
        skip
    fi
}

/* dt_rings_snapshot() */
proctype reader()
{
    byte s, w, n, a, b, prev, fl[NCPU];
    bool released;

    if
    :: GET_MAPS ->
        atomic {
            LOCK;
            fl[0] = clear_floor[0];
            fl[1] = clear_floor[1]
        };
        snap_cpu(0);
        snap_cpu(1);
        UNLOCK_PUT
    :: else ->
        skip                            /* -EBUSY */
    fi;
    done++
}

inline clear_cpu(c)
{
    if
#ifndef BROKEN_CLEAR_ONLINE
    :: ring_cpus[c] ->
#else
    :: ring_cpus[c] && owner[c] != DEAD ->
#endif
        ring_hold(c, s, true);
        MAYBE_EARLY(c, s);
        written[c] = 0;
        MAYBE_EARLY(c, s);
        dropped[c] = 0;
        atomic { RELEASE(c, s); clear_holds[c] = false; s = 0 }
    :: else ->
        skip
    fi
}

/* dt_rings_clear() */
proctype clearer()
{
    byte s, mark[NCPU];
    bool released;

    if
    :: GET_MAPS ->
        atomic { LOCK; mark[0] = ev[0]; mark[1] = ev[1] };
        clear_cpu(0);
        clear_cpu(1);
        UNLOCK_PUT;
        /* dt_rings_clear() has returned */
        atomic { clear_floor[0] = mark[0]; clear_floor[1] = mark[1] }
    :: else ->
        skip
    fi;
    done++
}

inline set_on_cpu(c, on)
{
    if
    :: ring_cpus[c] ->
        ring_hold(c, s, false);
        atomic { RELEASE(c, (on -> READY : OFF)); s = 0 }
    :: else ->
        skip
    fi
}

/* dt_rings_set_on() */
inline set_on(on)
{
    if
    :: GET_MAPS ->
        atomic { LOCK; off_returned = false };
        set_on_cpu(0, on);
        set_on_cpu(1, on);
        atomic {
            rings_on = on;
            UNLOCK_PUT;
            if
            :: !on ->
                /* tracing_on 0 returns: nothing is writing, none will */
                assert(status[0] != WRITING && status[1] != WRITING);
                off_returned = true
            :: else ->
                skip
            fi
        }
    :: else ->
        skip
    fi
}

proctype toggler()
{
    byte s;
    bool released;

    set_on(false);
    set_on(true);
    done++
}

/* cpu_up(): maps held for writing from CPU_UP_PREPARE to CPU_ONLINE. */
inline cpu_up(c)
{
    atomic { !maps_writer && maps_readers == 0 -> maps_writer = true };
    /* CPU_UP_PREPARE: the buffer, once (B2), with the current on/off */
    atomic {
        if
        :: !has_ring[c] ->
            status[c] = (rings_on -> READY : OFF);
            has_ring[c] = true;
            ring_cpus[c] = true
        :: else ->
            skip
        fi;
        owner[c] = TASK                 /* __cpu_up(): the AP runs */
    };
    /* CPU_STARTING, on the CPU, between two calls */
    atomic { owner[c] == TASK && !in_call[c] -> ready[c] = true };
    maps_writer = false                 /* CPU_ONLINE, cpu_hotplug_done() */
}

/* cpu_down(): CPU_DOWN_PREPARE, CPU_DYING on the CPU, CPU_DEAD. */
inline cpu_down(c)
{
    atomic { !maps_writer && maps_readers == 0 -> maps_writer = true };
    atomic { owner[c] == TASK && !in_call[c] -> ready[c] = false };
    /* play_dead: may still call the tracer (not ready), then stops */
    atomic { owner[c] == TASK && !in_call[c] -> owner[c] = DEAD };
    maps_writer = false                 /* CPU_DEAD, cpu_hotplug_done() */
}

proctype hotplug()
{
    cpu_up(1);
    cpu_down(1);
    cpu_up(1);
    done++
}

#if CONSUMERS
/*
 * A consuming read of CPU0 (B12, B13).  Snapshot: under ring_lock, without
 * holding the buffer, the oldest records not consumed, from
 * start = max(read, written - SIZE), noting read and resets; each half of
 * each copied slot is its own step (the writer may be filling it); then the
 * status and the count again, and only the records no writer can have
 * touched are kept: from w2 - SIZE + 1 if WRITING, else from w2 - SIZE.
 * Then, after the caller got its text, the commit of a chosen number of
 * them: one step under ring_lock, failing (-EAGAIN) if read or resets moved.
 *   -DBROKEN_UNHELD_CHECK  keep every copied record (no second look)
 *   -DBROKEN_UNHELD_STATUS take the second count as final (never WRITING)
 */
inline consume_once(c)
{
    if
    :: GET_MAPS ->
        LOCK;
        atomic {
            w = written[c];
            at = rd[c];
            rs = resets[c];
            start = (w > SIZE && w - SIZE > at -> w - SIZE : at);
            n = w - start
        };
        /* Each half of each slot is one step. */
        if
        :: n > 0 ->
            a = recA[(c * 2 + store[c]) * SIZE + start % SIZE];
            b = recB[(c * 2 + store[c]) * SIZE + start % SIZE];
            t0 = a;
            torn0 = (a != b)
        :: else -> skip
        fi;
        if
        :: n > 1 ->
            a = recA[(c * 2 + store[c]) * SIZE + (start + 1) % SIZE];
            b = recB[(c * 2 + store[c]) * SIZE + (start + 1) % SIZE];
            t1 = a;
            torn1 = (a != b)
        :: else -> skip
        fi;
#ifdef BROKEN_UNHELD_STATUS
        wr = false;
#else
        wr = (status[c] == WRITING);
#endif
        w2 = written[c];
#ifndef BROKEN_UNHELD_CHECK
        atomic {
            /* Drop the copied records a writer may have touched. */
            if
            :: w2 + wr > SIZE && w2 + wr - SIZE > start ->
                if
                :: w2 + wr - SIZE - start >= n ->
                    start = start + n; n = 0
                :: else ->              /* n == 2, one dropped */
                    start++; n--; t0 = t1; torn0 = torn1
                fi
            :: else -> skip
            fi
        };
#endif
        atomic {
            /* What is kept is untorn. */
            assert(n == 0 || !torn0);
            assert(n < 2 || !torn1);
            a = 0; b = 0; w2 = 0; wr = false; torn0 = false; torn1 = false
        };
        UNLOCK_PUT;
        /* The text went out: take 0, 1 or all of the copied records. */
        if
        :: take = 0
        :: n > 0 -> take = 1
        :: n > 1 -> take = 2
        fi;
        atomic {
            !ring_lock ->
#ifndef BROKEN_COMMIT
            if
            :: rd[c] == at && resets[c] == rs ->
#else
            if
            :: resets[c] == rs ->
#endif
                /* The ghost: consumed in order, once, after the lost. */
                if
                :: take > 0 ->
                    assert(t0 > last_taken[c]);
                    assert(taken_resets[c] != rs || last_taken[c] == 0 ||
                           t0 == last_taken[c] + 1 + (start - at))
                :: else -> skip
                fi;
                if
                :: taken_resets[c] != rs ->
                    assert(at == 0)     /* a resize restarted the positions */
                :: else -> skip
                fi;
                if
                :: take == 1 -> last_taken[c] = t0
                :: take == 2 -> assert(t1 == t0 + 1); last_taken[c] = t1
                :: take == 0 && n > 0 ->
                    last_taken[c] = t0 - 1  /* the overwritten are gone */
                :: take == 0 && n == 0 && start > at && last_taken[c] != 0 &&
                   taken_resets[c] == rs ->
                    /* B13: every copied record was dropped as overwritten */
                    last_taken[c] = last_taken[c] + (start - at)
                :: else -> skip
                fi;
                taken_resets[c] = rs;
                rd[c] = start + take
            :: else ->
                skip                    /* -EAGAIN: nothing consumed */
            fi;
            w = 0; at = 0; rs = 0; start = 0; n = 0; take = 0; t0 = 0; t1 = 0
        }
    :: else ->
        skip
    fi
}

proctype consumer(byte reads)
{
    byte w, w2, at, rs, start, n, take, a, b, t0, t1, k = reads;
    bool wr, torn0, torn1;

    do
    :: k > 0 -> consume_once(0); k--
    :: else -> break
    od;
    done++
}
#endif

#if RESIZER
/*
 * dt_rings_resize() of CPU0: new storage, swapped in under the hold with the
 * counts and positions reset; the old one freed after the release.
 */
proctype resizer()
{
    byte s, mark, old_store;
    bool released;

    if
    :: GET_MAPS ->
        atomic { LOCK; mark = ev[0] };
        ring_hold(0, s, true);
        atomic {
            old_store = store[0];
            store[0] = 1 - old_store;
            written[0] = 0;
            dropped[0] = 0;
            rd[0] = 0;
            last_taken[0] = 0;
            resets[0]++
        };
        atomic { RELEASE(0, s); clear_holds[0] = false; s = 0 };
        UNLOCK_PUT;
        atomic { freed[old_store] = true; clear_floor[0] = mark }
    :: else ->
        skip
    fi;
    done++
}
#endif

/* At the end (everything done, no NMI mid-call): the accounting. */
proctype final()
{
    atomic {
        done == NPROCS && owner[0] != NMI && owner[1] != NMI ->
        assert(!has_ring[WCPU] ||
               status[WCPU] == READY || status[WCPU] == OFF);
        assert(written[WCPU] == gacc[WCPU]);
        assert(inflight[WCPU] == 0);
        assert(gdrop_lo[WCPU] <= dropped[WCPU] &&
               dropped[WCPU] <= gdrop_hi[WCPU]);
        checked = true
    }
}

init
{
    atomic {
        /* dt_rings_init(): CPU0 online, with a ready buffer */
        status[0] = READY;
        has_ring[0] = true;
        ring_cpus[0] = true;
        ready[0] = true;
        owner[0] = TASK;
        run task(WCPU);
#if !CONSUMERS
        run nmi(WCPU);                  /* SCEN_PIPE: nesting is SCEN_WRITE's */
#endif
#if READER
        run reader();
#endif
#if CLEARER
        run clearer();
#endif
#if TOGGLER
        run toggler();
#endif
#if HOTPLUG
        run hotplug();
#endif
#if CONSUMERS
        run consumer(2);
        run consumer(1);
#endif
#if RESIZER
        run resizer();
#endif
        run final()
    }
}

/* The run completes: no deadlock, no endless wait. */
ltl completes { <> checked }
