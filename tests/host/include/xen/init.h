/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Initcalls go into two sections, in link order, as in Xen; the harness
 * (unit.c, boot()) runs the presmp ones on CPU 0 alone, brings the other
 * CPUs up, then runs the others, as __start_xen() does.
 */
#ifndef __XEN_INIT_H__
#define __XEN_INIT_H__

#define __init
#define __initdata

typedef int (*initcall_t)(void);

#define presmp_initcall(fn)                                                  \
    static initcall_t __attribute__((used, section("stub_presmp_initcalls"))) \
        stub_presmp_initcall_##fn = (fn)
#define __initcall(fn)                                                       \
    static initcall_t __attribute__((used, section("stub_initcalls")))       \
        stub_initcall_##fn = (fn)

#endif
