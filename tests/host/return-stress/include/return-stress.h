/* SPDX-License-Identifier: GPL-2.0-only */
/* What the stub headers call back into (stress.c). */
#ifndef RETURN_STRESS_H
#define RETURN_STRESS_H

#include <stdbool.h>

void stub_nmi_point(void);
bool stub_in_nmi(void);
void stub_assert_failed(const char *what, const char *file, int line);
__attribute__((__noreturn__, __format__(printf, 1, 2)))
void stub_panic(const char *fmt, ...);

#endif
