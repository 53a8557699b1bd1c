/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host stand-in for Xen's xen/config.h, forced on every file with -include
 * as Xen's build does.  NR_CPUS may be given on the command line
 * (test-unit builds the scale variant with -DNR_CPUS=4095, x86's maximum).
 */
#ifndef __XEN_CONFIG_H__
#define __XEN_CONFIG_H__

#define CONFIG_X86 1
#define CONFIG_X86_64 1
#define CONFIG_HYPFS 1
#define CONFIG_LIVEPATCH 1
#define CONFIG_LIVEPATCH_TRACER 1
#define CONFIG_TRACEBUFFER 1

/*
 * x86_64's Xen image, where its text and livepatches' lie (asm/config.h;
 * function_graph's return values, public/dyntrace.h).
 */
#define XEN_VIRT_START 0xffff82d040000000UL
#define XEN_VIRT_END   (XEN_VIRT_START + (1UL << 30))

#ifndef NR_CPUS
#define NR_CPUS 8
#endif

#endif
