/* Stub for return.c's host build: nothing used on the per-CPU path. */
