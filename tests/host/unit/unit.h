/* SPDX-License-Identifier: GPL-2.0-only */
/* The host unit tests: TAP output, boot, and the tool's view of /tracing. */
#ifndef UNIT_H
#define UNIT_H

#include <xen/types.h>

#include "unit-stub.h"

/* ---- TAP (unit.c numbers nothing: test-unit numbers the lines) ---- */
/*
 * One result line.  It fails too if the stubs saw an anomaly since the
 * previous result line (the anomaly is then named).
 */
bool ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- Boot ---- */
/* Give the image's functions no site (only init-text sites remain). */
extern bool boot_no_sites;
/* The fake image (nfuncs functions with sites), then Xen's boot order. */
void boot(unsigned int ncpus, unsigned int nfuncs);

/* ---- The tool ---- */
#define WRITER_CPU 1            /* the CPU the control domain's writes run on */
struct vcpu *dom0(unsigned int vcpu);
/* One HypFS write of /tracing/leaf by v on cpu: the hypercall's own rc. */
int hyp_write(struct vcpu *v, unsigned int cpu, const char *leaf,
              const void *data, unsigned int len);
/* Run queued tasklets until v's continuation is over (or none is left). */
void finish_hcall(struct vcpu *v);
/*
 * A write as the tool sees it: the string with its NUL, by dom0's vCPU 0,
 * continuations run; the result is the last run's when there was one.
 * last_runs: the tasklet runs it took (0: none).
 */
long tool_write(const char *leaf, const char *s);
long tool_write_bool(const char *leaf, uint8_t val);
long tool_write_u32(const char *leaf, uint32_t val);
long tool_write_raw(const char *leaf, const void *data, unsigned int len);
extern unsigned int last_runs;
/*
 * One HypFS read of path into a content buffer of cap bytes; *len gets the
 * size the header reports; content (may be NULL) gets the content.
 */
int hyp_read(const char *path, void *content, unsigned int cap,
             unsigned int *len);
/* A read as the tool does it (retried with the reported size): malloc'd. */
char *tool_read(const char *leaf);

/* ---- Tracing ---- */
/* Filter, tracer "function", recording on: each must succeed. */
bool start_tracing(const char *filter);
/*
 * A call of function fn from function caller on cpu at time t (>= now),
 * logged for names_match() (times must then be distinct microseconds).
 */
void record(unsigned int cpu, unsigned int fn, unsigned int caller,
            s_time_t t);
/* Are exactly the functions whose bit is set in want traced (CALL bytes)? */
bool traced_exactly(const unsigned long *want);

struct trace_info {
    unsigned long long entries, written;    /* from the header */
    unsigned long lines;                    /* record lines */
    bool header_ok;
    bool sorted;                            /* by timestamp, non-decreasing */
    unsigned long bad_lines;                /* not in the record format */
    unsigned long long first_us, last_us;
};
void parse_trace(const char *text, struct trace_info *ti);

/* One record line: its CPU, time (us) and the two names. */
struct trace_line {
    unsigned int cpu;
    unsigned long long us;
    char fn[48], caller[48];
};
/* Parse the line at p (up to its newline); false if not a record line. */
bool parse_line(const char *p, struct trace_line *l);
/*
 * Does every record line of text name the function and caller that
 * record() was given for that time?  *bad: the lines that do not.
 */
bool names_match(const char *text, unsigned long *bad);

/* ---- Calls through the dispatcher, returns through the return hook ---- */
/* return.c: what x86's switch_stack_and_jump() calls (asm/current.h). */
void dyntrace_stack_reset(void);
/*
 * Each CPU's simulated stack of return slots, the outermost call's
 * highest (R1): the slot of the call at depth (0: outermost).
 */
extern unsigned long unit_stacks[NR_CPUS][16];
#define UNIT_SLOT(cpu, depth) (&unit_stacks[cpu][15 - (depth)])
/* Where a call of fn returns to: into the next function, its caller. */
unsigned long unit_ret_of(unsigned int fn);
/*
 * A call of function fn on cpu by v, its return address waiting at slot,
 * as the x86 trampoline passes it to the dispatcher.  True if its return
 * was hooked.
 */
bool unit_call_at(unsigned int cpu, struct vcpu *v, unsigned int fn,
             unsigned long *slot);
/*
 * The call of fn whose return waits at slot returns, on cpu in v, through
 * dyntrace_return() as the return trampoline calls it: true if it got its
 * own return address back.
 */
bool unit_return_at(unsigned int cpu, struct vcpu *v, unsigned int fn,
               unsigned long *slot);

/* ---- Tests ---- */
void t_boot(void);
void t_names(void);
void t_clear_read_small(void);
void t_retry_cache(void);
void t_pending_op(void);
void t_rendezvous_retry(void);
void t_boot_errors(void);
void t_counters(void);
void t_anchors(void);
void t_anchor_after(void);
void t_permission(void);
void t_overlap(void);
void t_rollback(void);
void t_rollback_fails(void);
void t_filter_language(void);
void t_error_log(void);
void t_error_log_sizes(void);
void t_enabled_functions(void);
void t_scope(void);
void t_scope_cpu_not_ready(void);
void t_scope_cpu_parked(void);
void t_fast_targets(void);
/* returns.c */
void t_return_wait_queue(void);
void t_return_backtrace(void);
void t_buffer_size(void);
void t_trace_pipe(void);
void t_per_cpu(void);
void t_functions_addrs(void);
void t_scale(void);
/* graphs.c */
void t_graph_nested(void);
void t_graph_max_depth(void);
void t_graph_thresh(void);
void t_graph_function(void);
void t_graph_abandoned(void);
/* profiler.c */
void t_profile_abandoned(void);
void t_profile_returned(void);
void t_profile_trim(void);
void t_profile_variance(void);

#endif
