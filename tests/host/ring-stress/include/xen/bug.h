/* Host stub: ASSERT() and friends are in the stub xen/lib.h. */
#include <xen/lib.h>
