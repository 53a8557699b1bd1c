/* SPDX-License-Identifier: GPL-2.0-only */
/* Xen's errno values are Linux's, as glibc's are on Linux. */
#include <errno.h>
