/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef __XEN_PARAM_H__
#define __XEN_PARAM_H__

/* Boot parameters: the host tests keep each variable's default. */
#define size_param(name, var)
#define integer_param(name, var)

/* For Xen's common/hypfs.c (its runtime parameters' write handler). */
#define MAX_PARAM_SIZE 128
#ifdef __XEN_HYPFS_H__
struct param_hypfs {
    struct hypfs_entry_leaf hypfs;
    void (*init_leaf)(struct param_hypfs *par);
    int (*func)(const char *);
};
#endif

#endif
