/*
 * Spin model of function_graph's records (xen/common/dyntrace/graph.c,
 * docs/design.md "function_graph's records", G1, G3, G4) on one CPU: entry
 * records pending in the return stack, the writers that flush them, an NMI
 * that may come between any two steps and make calls of its own, and a
 * reader that may hold the buffer meanwhile, so that a reservation fails.
 *
 * Ordinary context, one call after the other:
 *   A { B { C(); D(); } }   C's return finds A and B pending: more than
 *                           one, graph_flush() writes both, oldest first;
 *                           D is a leaf under a B already written;
 *   E { F(); }              F's return finds E pending and nothing under
 *                           E: the usual flush, in F's own reservation
 *                           (the case x86's assembly takes).
 * NMI (whole, between two ordinary steps, at most twice): X { Y(); }.
 * Reader: holds the buffer, then gives it back, at most twice.
 *
 * Checked at every record the ordinary context writes: no entry record
 * twice; every call it is inside has its entry record written, or lost to
 * a failed reservation of graph_flush() (a lost record, counted as a
 * drop), before it (call order); a leaf only for a call none of whose
 * calls has a record; a return only after its entry's record.  An NMI
 * writes only records of its own calls (G4).  At the end every ordinary
 * call has its last record: a leaf or a return, or a drop.
 *
 * The usual flush marks the pending entry written before it reserves, and
 * marks it pending again if the reservation fails (C, graph_ret()), or
 * only once it has the reservation (-DASM_ORDER: x86's
 * dyntrace_fast_graph_return): both must pass.  Each broken variant must
 * give a counterexample: -DBROKEN_FLUSH_ONE (the usual flush taken though
 * the pending entry's caller is pending too), -DBROKEN_NMI_FLUSH (an NMI
 * flushes the entries below its own, against G4), -DBROKEN_NO_RESTORE (a
 * failed usual flush leaves its entry marked written).
 */

#define N        6      /* return stack depth */
#define NONE     255
#define X        7      /* the NMI's functions: X and up */

#define ENT      1      /* an entry record, "f() {" */
#define LEAF     2      /* "f();" */
#define RET      3      /* "}" */

#define READY    0
#define WRITING  1
#define HELD     2

/* The return stack: an entry's function, pending mark (G1). */
byte depth;
byte efn[N];
bool epend[N];

byte status = READY;    /* the buffer */
byte holds;             /* the reader's */
byte nmis;

/* Ghost state, per function (index: the function). */
byte parent[9];
bool entw[9];           /* its entry record written (or its leaf's) */
bool lost[9];           /* its entry record lost: a failed reservation */
bool childrec[9];       /* a call inside it has a record */
bool last[9];           /* its leaf or return record written, or dropped */

inline reserve(ok)
{
    atomic {
        if
        :: status == READY -> status = WRITING; ok = 1
        :: else -> ok = 0
        fi
    }
}

/* One record of f (ENT, LEAF or RET), by the ordinary context or an NMI. */
inline write(f, kind, nmi_ctx)
{
    if
    :: nmi_ctx ->
        assert(f >= X)                          /* G4 */
    :: else ->
        assert(f < X);
        a = parent[f];
        do
        :: a != 0 -> assert(entw[a] || lost[a]); a = parent[a]
        :: else -> break
        od;
        if
        :: kind == ENT -> assert(!entw[f] && !lost[f]); entw[f] = 1
        :: kind == LEAF ->
            assert(!entw[f] && !lost[f] && !childrec[f]);
            entw[f] = 1; last[f] = 1
        :: kind == RET -> assert(entw[f] || lost[f]); last[f] = 1
        fi;
        childrec[parent[f]] = 1
    fi
}

/* A call of f: reserve its slot, then fill it (R4); its record pending. */
inline call(f)
{
    d = depth;
    depth = d + 1;
    efn[d] = f;
    epend[d] = 1
}

/* graph_flush(d): the entries pending at depth d and below, oldest first. */
inline flush_all(top, nmi_ctx)
{
    i = top;
    do
    :: i > 0 && epend[i - 1] -> i--
    :: else -> break
    od;
    do
    :: i < top ->
        if
        :: epend[i] ->
            epend[i] = 0;
            reserve(ok);
            if
            :: ok -> write(efn[i], ENT, nmi_ctx); status = READY
            :: else -> lost[efn[i]] = 1
            fi
        :: else
        fi;
        i++
    :: else -> break
    od
}

/* graph_ret(): the top call returns. */
inline ret(nmi_ctx)
{
    d = depth;
    f = efn[d - 1];
    fl = NONE;
    if
#ifndef BROKEN_NMI_FLUSH
    :: !nmi_ctx && d >= 2 && epend[d - 2] ->
#else
    :: d >= 2 && epend[d - 2] ->
#endif
        if
#ifndef BROKEN_FLUSH_ONE
        :: d == 2 || !epend[d - 3] ->
#else
        :: true ->
#endif
            fl = d - 2;
#ifndef ASM_ORDER
            epend[fl] = 0
#endif
        :: else -> flush_all(d - 1, nmi_ctx)
        fi
    :: else
    fi;
    reserve(ok);
    if
    :: ok ->
        if
        :: fl != NONE ->
#ifdef ASM_ORDER
            epend[fl] = 0;
#endif
            write(efn[fl], ENT, nmi_ctx)
        :: else
        fi;
        if
        :: epend[d - 1] -> write(f, LEAF, nmi_ctx)
        :: else -> write(f, RET, nmi_ctx)
        fi;
        status = READY
    :: else ->
#if !defined(ASM_ORDER) && !defined(BROKEN_NO_RESTORE)
        if
        :: fl != NONE -> epend[fl] = 1
        :: else
        fi;
#endif
        if
        :: epend[d - 1] -> lost[f] = 1
        :: else
        fi;
        last[f] = 1                             /* dropped, counted */
    fi;
    depth = d - 1
}

active proctype cpu()
{
    byte d, f, fl, i, a;
    bool ok;

    parent[2] = 1; parent[3] = 2; parent[4] = 2; parent[6] = 5;
    parent[8] = X;

    call(1); call(2); call(3); ret(0);          /* A { B { C(); */
    call(4); ret(0);                            /* D(); */
    ret(0); ret(0);                             /* } } */
    call(5); call(6); ret(0); ret(0);           /* E { F(); } */

    assert(depth == 0);
    assert(last[1] && last[2] && last[3] && last[4] && last[5] && last[6])
}

/* Two NMIs at most, each whole between two steps of cpu. */
active proctype nmi()
{
    byte d, f, fl, i, a;
    bool ok;

    do
    :: nmis < 2 ->
        atomic {
            nmis++;
            call(X); call(X + 1); ret(1); ret(1)
        }
    :: else -> break
    od
}

/* A reader that holds the buffer for a while: a writer meanwhile fails. */
active proctype reader()
{
    do
    :: holds < 2 ->
        atomic { status == READY -> status = HELD; holds++ };
        status = READY
    :: else -> break
    od
}
