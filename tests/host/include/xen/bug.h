/* SPDX-License-Identifier: GPL-2.0-only */
/* ASSERT, BUG_ON and BUILD_BUG_ON are in the stub xen/lib.h. */
#include <xen/lib.h>
