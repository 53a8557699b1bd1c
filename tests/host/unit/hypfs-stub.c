/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HypFS for the host tests where Xen's own common/hypfs.c is not at hand
 * (test-unit builds that one when it can: hypfs-xen.c): the node helpers
 * of Xen's common/hypfs.c that the tracer uses, and stub_hypfs_op(), which
 * runs one operation in the order do_hypfs_op() does:
 *
 *   lock; walk the path, entering each directory on it (enter, findentry);
 *   enter the node;
 *   READ:  getsize; direntry header to the caller; if the caller's buffer
 *          cannot hold header + content: -ENOBUFS; else read;
 *   WRITE: write (the node's write handler checks the size: Xen's generic
 *          handlers against max_size, the tracer's in copy_string());
 *   exit every entered node, innermost first; unlock.
 */
#include <string.h>

#include <xen/err.h>
#include <xen/hypfs.h>
#include <xen/lib.h>
#include <xen/sched.h>
#include <xen/xmalloc.h>

#include "unit-stub.h"

static const struct hypfs_funcs root_funcs = {
    .enter = hypfs_node_enter,
    .exit = hypfs_node_exit,
    .read = hypfs_read_dir,
    .write = hypfs_write_deny,
    .getsize = hypfs_getsize,
    .findentry = hypfs_dir_findentry,
};

struct hypfs_entry_dir hypfs_root = {
    .e.type = XEN_HYPFS_TYPE_DIR,
    .e.encoding = XEN_HYPFS_ENC_PLAIN,
    .e.name = "",
    .e.funcs = &root_funcs,
};

enum { UNLOCKED, READ_LOCKED, WRITE_LOCKED };
static unsigned int locked[NR_CPUS];
static const struct hypfs_entry *last_entered[NR_CPUS];
static void *dyndata[NR_CPUS];

static int add_entry(struct hypfs_entry_dir *parent, struct hypfs_entry *new)
{
    struct hypfs_entry **pp;

    for ( pp = &parent->children; *pp; pp = &(*pp)->next )
    {
        int cmp = strcmp(new->name, (*pp)->name);

        if ( !cmp )
            return -EEXIST;
        if ( cmp < 0 )
            break;
    }
    new->next = *pp;
    *pp = new;
    new->parent = &parent->e;
    parent->e.size += DIRENTRY_SIZE(strlen(new->name));

    return 0;
}

int hypfs_add_dir(struct hypfs_entry_dir *parent, struct hypfs_entry_dir *dir,
                  bool nofault)
{
    int rc = add_entry(parent, &dir->e);

    BUG_ON(rc && nofault);

    return rc;
}

int hypfs_add_leaf(struct hypfs_entry_dir *parent,
                   struct hypfs_entry_leaf *leaf, bool nofault)
{
    int rc;

    /* As Xen: a leaf has content, or is a writable variable-size one. */
    if ( !leaf->u.content )
        stub_anomaly("hypfs_add_leaf(%s) without content", leaf->e.name);
    rc = add_entry(parent, &leaf->e);
    BUG_ON(rc && nofault);

    return rc;
}

const struct hypfs_entry *hypfs_node_enter(const struct hypfs_entry *entry)
{
    return entry;
}

void hypfs_node_exit(const struct hypfs_entry *entry)
{
    (void)entry;
}

static int node_enter(const struct hypfs_entry *entry)
{
    const struct hypfs_entry **last = &last_entered[smp_processor_id()];

    entry = entry->funcs->enter(entry);
    if ( IS_ERR(entry) )
        return PTR_ERR(entry);
    ASSERT(entry);
    ASSERT(!*last || *last == entry->parent);
    *last = entry;

    return 0;
}

static void node_exit(const struct hypfs_entry *entry)
{
    const struct hypfs_entry **last = &last_entered[smp_processor_id()];

    ASSERT(*last == entry);
    *last = entry->parent;
    entry->funcs->exit(entry);
}

static void node_exit_all(void)
{
    const struct hypfs_entry **last = &last_entered[smp_processor_id()];

    while ( *last )
        node_exit(*last);
}

unsigned int hypfs_getsize(const struct hypfs_entry *entry)
{
    return entry->size;
}

int hypfs_read_leaf(const struct hypfs_entry *entry,
                    XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    const struct hypfs_entry_leaf *l =
        container_of(entry, const struct hypfs_entry_leaf, e);

    ASSERT(locked[smp_processor_id()] != UNLOCKED);

    return copy_to_guest(uaddr, (const char *)l->u.content,
                         entry->funcs->getsize(entry)) ? -EFAULT : 0;
}

/* A listing: every child is entered, sized and exited. */
int hypfs_read_dir(const struct hypfs_entry *entry,
                   XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    const struct hypfs_entry_dir *d =
        container_of(entry, const struct hypfs_entry_dir, e);
    const struct hypfs_entry *e;
    char *out = uaddr;

    ASSERT(locked[smp_processor_id()] != UNLOCKED);

    for ( e = d->children; e; e = e->next )
    {
        struct xen_hypfs_dirlistentry de;
        unsigned int namelen = strlen(e->name);
        unsigned int len = DIRENTRY_SIZE(namelen);
        int rc = node_enter(e);

        if ( rc )
            return rc;
        memset(&de, 0, sizeof(de));
        de.e.type = e->type;
        de.e.encoding = e->encoding;
        de.e.content_len = e->funcs->getsize(e);
        de.e.max_write_len = e->max_size;
        de.off_next = e->next ? len : 0;
        node_exit(e);

        if ( copy_to_guest(out, &de, 1) ||
             copy_to_guest(out + DIRENTRY_NAME_OFF, e->name, namelen + 1) )
            return -EFAULT;
        out += len;
    }

    return 0;
}

int hypfs_write_deny(struct hypfs_entry_leaf *leaf,
                     XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                     unsigned int ulen)
{
    (void)leaf, (void)uaddr, (void)ulen;
    return -EACCES;
}

struct hypfs_entry *hypfs_leaf_findentry(const struct hypfs_entry_dir *dir,
                                         const char *name,
                                         unsigned int name_len)
{
    (void)dir, (void)name, (void)name_len;
    return ERR_PTR(-ENOTDIR);
}

struct hypfs_entry *hypfs_dir_findentry(const struct hypfs_entry_dir *dir,
                                        const char *name,
                                        unsigned int name_len)
{
    struct hypfs_entry *e;

    for ( e = dir->children; e; e = e->next )
    {
        int cmp = strncmp(name, e->name, name_len);

        if ( cmp < 0 )
            break;
        if ( !cmp && strlen(e->name) == name_len )
            return e;
    }

    return ERR_PTR(-ENOENT);
}

void *(hypfs_alloc_dyndata)(unsigned long size)
{
    unsigned int cpu = smp_processor_id();

    ASSERT(locked[cpu] != UNLOCKED);
    ASSERT(!dyndata[cpu]);
    dyndata[cpu] = xzalloc_array(unsigned char, size);

    return dyndata[cpu];
}

void *hypfs_get_dyndata(void)
{
    unsigned int cpu = smp_processor_id();

    ASSERT(locked[cpu] != UNLOCKED);
    ASSERT(dyndata[cpu]);

    return dyndata[cpu];
}

void hypfs_free_dyndata(void)
{
    unsigned int cpu = smp_processor_id();

    ASSERT(locked[cpu] != UNLOCKED);
    xfree(dyndata[cpu]);
    dyndata[cpu] = NULL;
}

/*
 * Dynamic directories, as Xen's hypfs.c has them: a template linked to its
 * parent but not listed in it; the parent's findentry() generates the
 * directory for an id into the operation's dyndata, whose enter(),
 * findentry() and read() are the template's (enter() returning the
 * template: its children's parent).
 */
void hypfs_add_dyndir(struct hypfs_entry_dir *parent,
                      struct hypfs_entry_dir *template)
{
    template->e.parent = &parent->e;
}

static const struct hypfs_entry *dyndir_enter(const struct hypfs_entry *entry)
{
    const struct hypfs_dyndir_id *d = hypfs_get_dyndata();

    (void)entry;
    return d->template->e.funcs->enter(&d->template->e);
}

static struct hypfs_entry *dyndir_findentry(const struct hypfs_entry_dir *dir,
                                            const char *name,
                                            unsigned int name_len)
{
    const struct hypfs_dyndir_id *d = hypfs_get_dyndata();

    (void)dir;
    return d->template->e.funcs->findentry(d->template, name, name_len);
}

static int dyndir_read(const struct hypfs_entry *entry,
                       XEN_GUEST_HANDLE_PARAM(void) uaddr)
{
    const struct hypfs_dyndir_id *d = hypfs_get_dyndata();

    (void)entry;
    return d->template->e.funcs->read(&d->template->e, uaddr);
}

struct hypfs_entry *hypfs_gen_dyndir_id_entry(
    const struct hypfs_entry_dir *template, unsigned int id, void *data)
{
    struct hypfs_dyndir_id *d = hypfs_get_dyndata();

    d->template = template;
    d->id = id;
    d->data = data;
    snprintf(d->name, sizeof(d->name), template->e.name, id);
    d->dir = *template;
    d->dir.e.name = d->name;
    d->funcs = *template->e.funcs;
    d->funcs.enter = dyndir_enter;
    d->funcs.findentry = dyndir_findentry;
    d->funcs.read = dyndir_read;
    d->dir.e.funcs = &d->funcs;

    return &d->dir.e;
}

unsigned int hypfs_dynid_entry_size(const struct hypfs_entry *template,
                                    unsigned int id)
{
    return DIRENTRY_SIZE(snprintf(NULL, 0, template->name, id));
}

int hypfs_read_dyndir_id_entry(const struct hypfs_entry_dir *template,
                               unsigned int id, bool is_last,
                               XEN_GUEST_HANDLE_PARAM(void) *uaddr)
{
    struct xen_hypfs_dirlistentry de;
    char name[HYPFS_DYNDIR_ID_NAMELEN];
    unsigned int namelen, len;
    char *out = *uaddr;

    namelen = snprintf(name, sizeof(name), template->e.name, id);
    ASSERT(namelen < sizeof(name));
    len = DIRENTRY_SIZE(namelen);
    memset(&de, 0, sizeof(de));
    de.e.type = template->e.type;
    de.e.encoding = template->e.encoding;
    de.e.content_len = template->e.size;
    de.e.max_write_len = template->e.max_size;
    de.off_next = is_last ? 0 : len;
    if ( copy_to_guest(out, &de, 1) ||
         copy_to_guest(out + DIRENTRY_NAME_OFF, name, namelen + 1) )
        return -EFAULT;
    *uaddr = out + len;

    return 0;
}

/* Xen's hypfs_get_entry_rel(): enter each directory on the way. */
static struct hypfs_entry *get_entry(const char *path)
{
    struct hypfs_entry_dir *dir = &hypfs_root;

    if ( *path++ != '/' )
        return ERR_PTR(-EINVAL);

    for ( ;; )
    {
        const char *end;
        struct hypfs_entry *entry;
        int rc;

        if ( dir->e.type != XEN_HYPFS_TYPE_DIR )
            return ERR_PTR(-ENOENT);
        if ( !*path )
            return &dir->e;
        for ( end = path; *end && *end != '/'; end++ )
            ;
        rc = node_enter(&dir->e);
        if ( rc )
            return ERR_PTR(rc);
        entry = dir->e.funcs->findentry(dir, path, end - path);
        if ( IS_ERR(entry) || !*end )
            return entry;
        path = end + 1;
        dir = container_of(entry, struct hypfs_entry_dir, e);
    }
}

/* Xen's hypfs_read(): the direntry header, then the content. */
static int read_node(const struct hypfs_entry *entry, void *buf,
                     unsigned long ulen)
{
    struct xen_hypfs_direntry e;
    unsigned int size = entry->funcs->getsize(entry);

    if ( ulen < sizeof(e) )
        return -EINVAL;
    memset(&e, 0, sizeof(e));
    e.type = entry->type;
    e.encoding = entry->encoding;
    e.content_len = size;
    e.max_write_len = entry->max_size;
    if ( copy_to_guest(buf, &e, 1) )
        return -EFAULT;
    if ( ulen < size + sizeof(e) )
        return -ENOBUFS;

    return entry->funcs->read(entry, (char *)buf + sizeof(e));
}

int stub_hypfs_op(bool write, const char *path, void *buf, unsigned long ulen)
{
    unsigned int cpu = smp_processor_id();
    struct hypfs_entry *entry;
    int rc;

    if ( current->hcall && current->hcall->paused )
        stub_anomaly("a hypercall from a vCPU paused by its continuation");
    ASSERT(locked[cpu] == UNLOCKED && !last_entered[cpu]);
    locked[cpu] = write ? WRITE_LOCKED : READ_LOCKED;

    entry = get_entry(path);
    rc = IS_ERR(entry) ? PTR_ERR(entry) : node_enter(entry);
    if ( !rc )
        rc = write ? entry->funcs->write(
                         container_of(entry, struct hypfs_entry_leaf, e),
                         buf, ulen)
                   : read_node(entry, buf, ulen);

    node_exit_all();
    locked[cpu] = UNLOCKED;
    if ( dyndata[cpu] )
        stub_anomaly("HypFS dynamic data left allocated after %s %s",
                     write ? "writing" : "reading", path);

    return rc;
}

int stub_hypfs_children(const char *path)
{
    const struct hypfs_entry_dir *d = &hypfs_root;
    const struct hypfs_entry *e;
    int n = 0;

    if ( strcmp(path, "/") )
    {
        for ( e = hypfs_root.children; e; e = e->next )
            if ( !strcmp(e->name, path + 1) && e->type == XEN_HYPFS_TYPE_DIR )
                break;
        if ( !e )
            return -ENOENT;
        d = container_of(e, const struct hypfs_entry_dir, e);
    }
    for ( e = d->children; e; e = e->next )
        n++;

    return n;
}
