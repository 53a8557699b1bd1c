/*
 * Spin model of return hooking (xen/common/dyntrace/return.c, docs/design.md
 * "Return hooking", invariants R1-R5): one CPU's return stack, the ordinary
 * context's pushes and pops, an NMI (and an #MC inside it) that may come
 * between any two of its steps, and the tracer being stopped meanwhile.
 *
 * Ordinary context (process cpu), frames on one stack, higher = shallower:
 *   A(10) calls B(8); B returns; A returns;             (nesting)
 *   C(10) calls D(8); the stack is abandoned;           (reset_stack_and_jump)
 *   E(10) (a new call in C's old slot); E returns;      (R2: C and D dropped)
 *   F(10) tail-calls G (same slot); G's RET returns     (R5: the trampoline
 *   through the trampoline twice, G then F.              runs once for each)
 * NMI (process nmi, run whole between two ordinary steps, at most twice):
 *   X(frame 2 or 20: its own stack, below or above) calls Y; both return;
 *   an #MC inside it may do the same with Z.
 * Stopper: tracing off, then the drain (no hook still writing a record).
 *
 * Checked: every return gets its own return address back (tokens), never
 * "no entry" (R3); the hook is told each hooked function once, in order;
 * after the drain no record is written.  -DBROKEN_FILL_FIRST (the entry
 * filled before its slot is reserved), -DBROKEN_POP_EARLY (the slot given
 * up before the entry is copied), -DBROKEN_NMI_DROPS (R4: an NMI drops
 * entries) and -DBROKEN_TAIL (R5: a frame drops an entry at its own
 * address) and -DBROKEN_NO_RECHECK (the hook does not read recording again
 * once it counts as writing, as dt_ring_reserve()'s callers do) each give a
 * counterexample.
 */

#define N        8      /* return stack depth (DT_RET_DEPTH) */
#define TRAMP    99     /* the return trampoline's address */

byte depth;
byte efr[N];            /* entry: frame */
byte eret[N];           /* entry: original return address */
byte efn[N];            /* entry: function */
bool in_nmi;
byte nmis;              /* NMIs so far */
bool recording = 1, drained;
byte writing;           /* hooks between their two reads of recording */
byte told[16];          /* the hook's log of functions: ordinary context */
byte ntold;
byte told_nmi[8];       /* and in the current NMI */
byte ntold_nmi;
byte slot[32];          /* stack memory: slot[frame] = return address */

/* dt_ret_push(&slot[fr], fn): each statement a step an NMI may come between. */
inline push(fr, fn, nmi_ctx)
{
    d = depth;
#ifndef BROKEN_NMI_DROPS
    if
    :: !nmi_ctx ->
#endif
        do
        :: d > 0 && (efr[d - 1] < fr ||
#ifndef BROKEN_TAIL
                     (efr[d - 1] == fr && slot[fr] != TRAMP)) -> d--
#else
                     efr[d - 1] == fr) -> d--
#endif
        :: else -> break
        od
#ifndef BROKEN_NMI_DROPS
    :: else
    fi;
#endif
    assert(d < N);
#ifndef BROKEN_FILL_FIRST
    depth = d + 1;
    efr[d] = fr;
    eret[d] = slot[fr];
    efn[d] = fn;
#else
    efr[d] = fr;
    eret[d] = slot[fr];
    efn[d] = fn;
    depth = d + 1;
#endif
    slot[fr] = TRAMP
}

/* The hook (graph_return): a record only while recording, drained on stop. */
inline hook(fn)
{
    if
    :: recording ->
        writing++;
#ifndef BROKEN_NO_RECHECK
        if
        :: recording -> assert(!drained)
        :: else
        fi;
#else
        assert(!drained);
#endif
        writing--
    :: else
    fi;
    /* The model's ghost log, one per context. */
    if
    :: in_nmi -> ntold_nmi++; told_nmi[ntold_nmi - 1] = fn
    :: else -> d_step { told[ntold] = fn; ntold++ }
    fi
}

/* dyntrace_return(fr): the original return address in to. */
inline pop(fr, to)
{
    d = depth;
    do
    :: d > 0 && efr[d - 1] < fr -> d--
    :: else -> break
    od;
    assert(d > 0 && efr[d - 1] == fr);          /* R3 */
#ifndef BROKEN_POP_EARLY
    to = eret[d - 1];
    f = efn[d - 1];
    depth = d - 1;
#else
    depth = d - 1;
    to = eret[d - 1];
    f = efn[d - 1];
#endif
    hook(f)
}

/* A RET through slot[fr]: the trampoline as often as it is given back. */
inline ret(fr, to)
{
    to = slot[fr];
    do
    :: to == TRAMP -> pop(fr, to)
    :: else -> break
    od
}

/* A whole call of function fn at frame fr whose caller's address is tok. */
inline call_leaf(fr, fn, tok)
{
    slot[fr] = tok;
    push(fr, fn, 1);
    ret(fr, to);
    assert(to == tok)
}

active proctype cpu()
{
    byte d, f, to, base;

    /* A(10) calls B(8), B returns, A returns. */
    base = ntold;
    slot[10] = 1; push(10, 1, 0);
    slot[8] = 2; push(8, 2, 0);
    ret(8, to); assert(to == 2);
    ret(10, to); assert(to == 1);
    assert(ntold == base + 2 && told[base] == 2 && told[base + 1] == 1);

    /* C(10) calls D(8); abandoned. E(10) is called and returns. */
    slot[10] = 3; push(10, 3, 0);
    slot[8] = 4; push(8, 4, 0);
    base = ntold;
    slot[10] = 5; push(10, 5, 0);
    ret(10, to); assert(to == 5);
    assert(ntold == base + 1 && told[base] == 5);

    /* F(10) tail-calls G: G's RET returns from both. */
    base = ntold;
    slot[10] = 6; push(10, 6, 0);
    push(10, 7, 0);
    ret(10, to); assert(to == 6);
    assert(ntold == base + 2 && told[base] == 7 && told[base + 1] == 6);
    assert(depth == 0)
}

/* Two NMIs at most, each whole between two steps of cpu; one #MC inside. */
active proctype nmi()
{
    byte d, f, to, fr;

    do
    :: nmis < 2 ->
        atomic {
            nmis++;
            in_nmi = 1;
            ntold_nmi = 0;
            if
            :: fr = 2
            :: fr = 20
            fi;
            slot[fr] = 11; push(fr, 11, 1);
            call_leaf(fr - 1, 12, 12);
            if
            :: true ->      /* an #MC inside, on a stack of its own */
                call_leaf(fr + 4, 13, 13)
            :: true
            fi;
            ret(fr, to); assert(to == 11);
            /* Its own returns were told, innermost first. */
            assert(told_nmi[0] == 12 && told_nmi[ntold_nmi - 1] == 11);
            in_nmi = 0
        }
    :: else -> break
    od
}

/* Tracing off, then the drain. */
active proctype stopper()
{
    recording = 0;
    (writing == 0);
    drained = 1
}
