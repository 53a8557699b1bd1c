/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The out-of-line part of the stub "Xen" that ring.c is built against: CPU
 * maps, the CPU notifier chain, vmalloc and printk.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <xen/cpu.h>
#include <xen/cpumask.h>
#include <xen/lib.h>
#include <xen/vmap.h>

unsigned int nr_cpu_ids = NR_CPUS;
cpumask_t cpu_online_map, cpu_present_map;
__thread unsigned int stub_alloc_fail_in;

static pthread_rwlock_t cpu_add_remove_lock;
static struct notifier_block *cpu_chain;
static unsigned int printk_count;

void stub_init(void)
{
    pthread_rwlockattr_t attr;

    /* Like Xen's rwlocks: a waiting writer makes read_trylock fail. */
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr,
                                  PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&cpu_add_remove_lock, &attr);
    pthread_rwlockattr_destroy(&attr);
}

bool get_cpu_maps(void)
{
    return pthread_rwlock_tryrdlock(&cpu_add_remove_lock) == 0;
}

void put_cpu_maps(void)
{
    pthread_rwlock_unlock(&cpu_add_remove_lock);
}

void cpu_hotplug_begin(void)
{
    pthread_rwlock_wrlock(&cpu_add_remove_lock);
}

void cpu_hotplug_done(void)
{
    pthread_rwlock_unlock(&cpu_add_remove_lock);
}

void register_cpu_notifier(struct notifier_block *nb)
{
    cpu_hotplug_begin();
    nb->next = cpu_chain;
    cpu_chain = nb;
    cpu_hotplug_done();
}

int stub_cpu_notify(unsigned int cpu, unsigned long action)
{
    struct notifier_block *nb;

    for ( nb = cpu_chain; nb; nb = nb->next )
    {
        int rc = nb->notifier_call(nb, action, (void *)(unsigned long)cpu);

        if ( rc != NOTIFY_DONE )
            return rc;
    }

    return NOTIFY_DONE;
}

/* A header in front of each block records its size (stub_alloc_size). */
struct alloc_hdr {
    size_t size;
    size_t pad;
};

static void *stub_alloc(size_t size, bool zero)
{
    struct alloc_hdr *h;

    if ( stub_alloc_fail_in && --stub_alloc_fail_in == 0 )
        return NULL;

    h = zero ? calloc(1, sizeof(*h) + size) : malloc(sizeof(*h) + size);
    if ( !h )
        return NULL;
    h->size = size;

    return h + 1;
}

void *vmalloc(size_t size)
{
    return stub_alloc(size, false);
}

void *vzalloc(size_t size)
{
    return stub_alloc(size, true);
}

void vfree(void *va)
{
    if ( va )
        free((struct alloc_hdr *)va - 1);
}

size_t stub_alloc_size(const void *p)
{
    return ((const struct alloc_hdr *)p - 1)->size;
}

void stub_printk(const char *fmt, ...)
{
    va_list ap;

    /* Failure injection makes ring.c warn often: show the first few only. */
    if ( __atomic_fetch_add(&printk_count, 1, __ATOMIC_RELAXED) >= 3 )
        return;
    va_start(ap, fmt);
    fputs("# (XEN) ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
}
