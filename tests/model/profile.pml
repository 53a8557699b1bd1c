/*
 * Spin model of the profiler's tables (xen/common/dyntrace/profile.c,
 * docs/design.md "The profiler", P1-P3): one CPU's table of one slot, its
 * only writer (P1: the CPU itself, counting hits), a restart (P3: the
 * generation bumped in the rendezvous), and a reader copying the slot.
 *
 * The writer counts three hits.  Before each it compares the table's
 * generation with prof_gen and, if older, wipes the table itself (P3:
 * under generation 0, field by field as memset() goes, then the new
 * generation); each hit updates the slot's two counts (hits and time,
 * which it keeps equal) inside the slot's sequence count (P2).
 * The reader takes prof_gen, checks the table's generation, copies the slot
 * until it sees the same even sequence count before and after, and keeps
 * the copy only if the table's generation is still the one it took.
 *
 * Checked: a kept copy is consistent (both counts equal), and a copy of
 * the restarted generation holds only hits counted after the restart.
 * -DBROKEN_GEN_FIRST (the new generation published before the wipe, as a
 * first version did), -DBROKEN_NO_SEQ (the reader ignores the sequence
 * count) and -DBROKEN_NO_RECHECK (the reader does not look at the
 * generation again after its copy) each give a counterexample.
 */

byte prof_gen = 1;
byte tgen = 1;          /* the table's generation */
byte seq;               /* the slot's sequence count */
byte hits, time;        /* the slot's counts (the writer keeps them equal) */
byte counted2;          /* ghost: hits counted in generation 2 */

active proctype writer()
{
    byte i, g;

    for ( i : 1 .. 3 ) {
        g = prof_gen;
        if
        :: tgen != g ->
#ifndef BROKEN_GEN_FIRST
            tgen = 0;
#else
            tgen = g;
#endif
            seq = 0;
            hits = 0;
            time = 0;
#ifndef BROKEN_GEN_FIRST
            tgen = g
#endif
        :: else -> skip
        fi;
        seq++;
        atomic { hits++; if :: g == 2 -> counted2++ :: else -> skip fi };
        time++;
        seq++
    }
}

active proctype restarter()
{
    prof_gen = 2
}

active proctype reader()
{
    byte g, s, h, t;

    g = prof_gen;
    if
    :: tgen != g -> goto done
    :: else -> skip
    fi;
    do
    :: s = seq; h = hits; t = time;
#ifndef BROKEN_NO_SEQ
       if
       :: s % 2 == 0 && s == seq -> break
       :: else -> skip
       fi
#else
       break
#endif
    od;
#ifndef BROKEN_NO_RECHECK
    if
    :: tgen != g -> goto done
    :: else -> skip
    fi;
#endif
    assert(h == t);
    assert(g != 2 || h <= counted2);
done:
    skip
}
