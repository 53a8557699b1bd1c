/* Host stub: smp_processor_id() is the stub of ring-stress.h (via xen/sched.h). */
#include <xen/sched.h>
