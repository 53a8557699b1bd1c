/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Timers: set_timer() records the expiry; the harness fires due timers when
 * it advances the fake clock (stub_advance_to()), on the timer's CPU.
 */
#ifndef __XEN_TIMER_H__
#define __XEN_TIMER_H__

#include <xen/types.h>

struct timer {
    s_time_t expires;
    void (*function)(void *data);
    void *data;
    unsigned int cpu;
    bool initialised, active, killed;
    struct timer *next;         /* the harness's list of initialised timers */
};

void init_timer(struct timer *timer, void (*function)(void *data), void *data,
                unsigned int cpu);
void set_timer(struct timer *timer, s_time_t expires);
void stop_timer(struct timer *timer);
void kill_timer(struct timer *timer);

#endif
