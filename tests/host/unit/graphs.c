/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * function_graph's tests: graph.c with return.c.  Calls come through the
 * dispatcher with the address of their return slot and return through
 * dyntrace_return() (unit_call_at(), unit_return_at()), on a fake clock;
 * what counts is /tracing/trace in the function_graph layout: which lines,
 * in which order, with which durations and nesting.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/dyntrace.h>
#include <xen/sched.h>
#include <xen/time.h>

#include "unit.h"

#define NF    64
#define NCPUS 4
#define CPU   1

/* function_graph on gfunc_002 and gfunc_003, recording: each must work. */
static bool graph_on(void)
{
    long r1 = tool_write("set_function_filter", "gfunc_002 gfunc_003");
    long r2 = tool_write("current_tracer", "function_graph");
    long r3 = tool_write_bool("tracing_on", 1);

    if ( r1 || r2 || r3 )
        diag("graph_on: %ld %ld %ld", r1, r2, r3);

    return !r1 && !r2 && !r3;
}

/*
 * d1v0 on CPU 1: f2 is called, calls f3 1 us later, which returns after
 * 0.5 us; f2 returns 2.5 us after that (4 us in all).  hooked3: whether
 * f3's return is expected to be hooked.
 */
static bool nested_calls(bool hooked3)
{
    struct vcpu *d1 = stub_guest_vcpu(1, 0);
    bool good = unit_call_at(CPU, d1, 2, UNIT_SLOT(CPU, 0));

    stub_advance_to(stub_now_ns + 1000);
    good &= unit_call_at(CPU, d1, 3, UNIT_SLOT(CPU, 1)) == hooked3;
    stub_advance_to(stub_now_ns + 500);
    if ( hooked3 )
        good &= unit_return_at(CPU, d1, 3, UNIT_SLOT(CPU, 1));
    stub_advance_to(stub_now_ns + 2500);
    good &= unit_return_at(CPU, d1, 2, UNIT_SLOT(CPU, 0));

    return good;
}

/*
 * Are the function_graph lines of text exactly want[] (n of them), in
 * order, after the header?  Shows the text if not.
 */
static bool lines_are(const char *text, const char *const *want,
                      unsigned int n)
{
    const char *p = text;
    unsigned int i = 0;
    bool good = text != NULL;

    for ( ; good && p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL )
    {
        size_t len = strchrnul(p, '\n') - p;

        if ( *p == '#' )
            continue;
        good = i < n && strlen(want[i]) == len && !strncmp(p, want[i], len);
        i++;
    }
    good &= i == n;
    if ( !good )
        diag("want %u lines, starting \"%s\"; trace:\n%s", n,
             n ? want[0] : "", text ? text : "(no trace)");

    return good;
}

void t_graph_nested(void)
{
    static const char *const want[] = {
        "  1)       d1v0 |                 |  gfunc_002() {",
        "  1)       d1v0 |        0.500 us |    gfunc_003();",
        "  1)       d1v0 |        4.000 us |  } /* gfunc_002 */",
    };
    char *text;
    bool good;

    boot(NCPUS, NF);
    good = graph_on() && nested_calls(true);
    text = tool_read("trace");
    good &= lines_are(text, want, 3);
    ok(good, "function_graph: a call inside a call is 'f() {', the inner "
       "one a leaf 'g();' one level deeper with its 0.500 us, then '}' with "
       "the outer 4.000 us and its name (G1)");
    free(text);
}

void t_graph_max_depth(void)
{
    static const char *const want[] = {
        "  1)       d1v0 |        4.000 us |  gfunc_002();",
    };
    char *text;
    bool good;

    boot(NCPUS, NF);
    good = !tool_write_u32("max_graph_depth", 1) && graph_on() &&
           nested_calls(false);
    text = tool_read("trace");
    good &= lines_are(text, want, 1);
    ok(good, "function_graph: max_graph_depth 1: the inner call's return is "
       "not hooked and it has no line; the outer one is a leaf of 4 us");
    free(text);
}

void t_graph_thresh(void)
{
    static const char *const want[] = {
        "  1)       d1v0 |        4.000 us |  } /* gfunc_002 */",
    };
    char *text;
    bool good;

    boot(NCPUS, NF);
    good = !tool_write_u32("tracing_thresh", 1) && graph_on() &&
           nested_calls(true);
    text = tool_read("trace");
    good &= lines_are(text, want, 1);
    ok(good, "function_graph: tracing_thresh 1 (us): the 0.5 us call has no "
       "line, the 4 us one only its '}' with its duration and name");
    free(text);
}

void t_graph_function(void)
{
    static const char *const want[] = {
        "  1)       d1v0 |                 |  gfunc_002() {",
        "  1)       d1v0 |        0.500 us |    gfunc_003();",
        "  1)       d1v0 |        4.000 us |  } /* gfunc_002 */",
    };
    struct vcpu *d1 = stub_guest_vcpu(1, 0);
    char *text;
    bool good;

    boot(NCPUS, NF);
    good = !tool_write("set_graph_function", "gfunc_002") && graph_on();
    /* f3 alone, outside any call of f2: not hooked, no line. */
    good &= !unit_call_at(CPU, d1, 3, UNIT_SLOT(CPU, 0));
    stub_advance_to(stub_now_ns + 700);
    good &= nested_calls(true);
    text = tool_read("trace");
    good &= lines_are(text, want, 3);
    ok(good, "function_graph: set_graph_function gfunc_002: gfunc_003 "
       "called alone is not hooked, called inside gfunc_002 it is nested "
       "there");
    free(text);
}

void t_graph_abandoned(void)
{
    static const char *const want[] = {
        "  1)       d1v0 |                 |  gfunc_002() {",
    };
    struct vcpu *d1 = stub_guest_vcpu(1, 0);
    struct stub_ctx ctx;
    char *text;
    bool good;

    boot(NCPUS, NF);
    good = graph_on() && unit_call_at(CPU, d1, 2, UNIT_SLOT(CPU, 0));
    stub_advance_to(stub_now_ns + 1000);
    /* x86's context switch drops the stack (R7). */
    ctx = stub_ctx_enter(CPU, stub_idle_vcpu(CPU), false);
    dyntrace_stack_reset();
    stub_ctx_restore(ctx);
    text = tool_read("trace");
    good &= lines_are(text, want, 1);
    ok(good, "function_graph: a call whose frame is dropped (a context "
       "switch's stack reset) keeps its entry line 'f() {', with no end "
       "(G2)");
    free(text);
}
