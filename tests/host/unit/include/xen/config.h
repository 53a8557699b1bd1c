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

#ifndef NR_CPUS
#define NR_CPUS 8
#endif

#endif
