/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Xen's own common/hypfs.c, unmodified (found through -iquote: test-unit),
 * and a look at its per-CPU state for the harness: after an operation,
 * nothing may be left locked, entered or allocated on the CPU, which Xen
 * itself would only notice at the CPU's next operation.  Built with the
 * flags of the hypervisor's files.
 */
#include "hypfs.c"

bool stub_hypfs_idle(unsigned int cpu);

bool stub_hypfs_idle(unsigned int cpu)
{
    return per_cpu(hypfs_locked, cpu) == hypfs_unlocked &&
           !per_cpu(hypfs_dyndata, cpu) &&
           !per_cpu(hypfs_last_node_entered, cpu);
}
