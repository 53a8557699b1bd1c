/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * HypFS as the tracer's hypfs.c sees it, where Xen's own xen/hypfs.h and
 * common/hypfs.c are not at hand (test-unit puts Xen's header before this
 * one when they are): Xen's node types, callbacks and helpers
 * (hypfs-stub.c), with the children of a directory in a sorted singly
 * linked list instead of Xen's list_head.  stub_hypfs_op() (unit-stub.h)
 * runs one operation the way Xen's do_hypfs_op() does.
 */
#ifndef __XEN_HYPFS_H__
#define __XEN_HYPFS_H__

#include <xen/guest_access.h>
#include <xen/lib.h>
#include <xen/types.h>

/* public/hypfs.h */
#define XEN_HYPFS_TYPE_DIR     0
#define XEN_HYPFS_TYPE_BLOB    1
#define XEN_HYPFS_TYPE_STRING  2
#define XEN_HYPFS_TYPE_UINT    3
#define XEN_HYPFS_TYPE_INT     4
#define XEN_HYPFS_TYPE_BOOL    5
#define XEN_HYPFS_ENC_PLAIN    0
#define XEN_HYPFS_ENC_GZIP     1

struct xen_hypfs_direntry {
    uint8_t type;
    uint8_t encoding;
    uint16_t pad;
    uint32_t content_len;
    uint32_t max_write_len;
};

/* Xen's layout: entries are not aligned (the name starts at offset 14). */
struct xen_hypfs_dirlistentry {
    struct xen_hypfs_direntry e;
    uint16_t off_next;
    char name[];
};

#define DIRENTRY_NAME_OFF offsetof(struct xen_hypfs_dirlistentry, name)
#define DIRENTRY_SIZE(name_len)                                         \
    (DIRENTRY_NAME_OFF +                                                \
     ROUNDUP((name_len) + 1, _Alignof(struct xen_hypfs_direntry)))

struct hypfs_entry_leaf;
struct hypfs_entry_dir;
struct hypfs_entry;

struct hypfs_funcs {
    const struct hypfs_entry *(*enter)(const struct hypfs_entry *entry);
    void (*exit)(const struct hypfs_entry *entry);
    int (*read)(const struct hypfs_entry *entry,
                XEN_GUEST_HANDLE_PARAM(void) uaddr);
    int (*write)(struct hypfs_entry_leaf *leaf,
                 XEN_GUEST_HANDLE_PARAM(const_void) uaddr, unsigned int ulen);
    unsigned int (*getsize)(const struct hypfs_entry *entry);
    struct hypfs_entry *(*findentry)(const struct hypfs_entry_dir *dir,
                                     const char *name, unsigned int name_len);
};

struct hypfs_entry {
    unsigned short type;
    unsigned short encoding;
    unsigned int size;
    unsigned int max_size;
    const char *name;
    struct hypfs_entry *parent;
    struct hypfs_entry *next;       /* next sibling, by name */
    const struct hypfs_funcs *funcs;
};

struct hypfs_entry_leaf {
    struct hypfs_entry e;
    union {
        const void *content;
        void *write_ptr;
    } u;
};

struct hypfs_entry_dir {
    struct hypfs_entry e;
    struct hypfs_entry *children;   /* sorted by name */
};

#define HYPFS_DIR_INIT_FUNC(var, nam, fn)         \
    struct hypfs_entry_dir var = {                \
        .e.type = XEN_HYPFS_TYPE_DIR,             \
        .e.encoding = XEN_HYPFS_ENC_PLAIN,        \
        .e.name = (nam),                          \
        .e.size = 0,                              \
        .e.max_size = 0,                          \
        .e.funcs = (fn),                          \
    }

/*
 * A directory generated per id from a template (Xen's dynamic directories):
 * the operation's dyndata starts with this.
 */
struct hypfs_dyndir_id {
    struct hypfs_entry_dir dir;             /* the template, renamed */
    struct hypfs_funcs funcs;
    const struct hypfs_entry_dir *template;
#define HYPFS_DYNDIR_ID_NAMELEN 12
    char name[HYPFS_DYNDIR_ID_NAMELEN];
    unsigned int id;
    void *data;
};

static inline void hypfs_string_set_reference(struct hypfs_entry_leaf *leaf,
                                              const char *str)
{
    leaf->u.content = str;
    leaf->e.size = strlen(str) + 1;
}

extern struct hypfs_entry_dir hypfs_root;

int hypfs_add_dir(struct hypfs_entry_dir *parent,
                  struct hypfs_entry_dir *dir, bool nofault);
int hypfs_add_leaf(struct hypfs_entry_dir *parent,
                   struct hypfs_entry_leaf *leaf, bool nofault);
const struct hypfs_entry *hypfs_node_enter(const struct hypfs_entry *entry);
void hypfs_node_exit(const struct hypfs_entry *entry);
int hypfs_read_dir(const struct hypfs_entry *entry,
                   XEN_GUEST_HANDLE_PARAM(void) uaddr);
int hypfs_read_leaf(const struct hypfs_entry *entry,
                    XEN_GUEST_HANDLE_PARAM(void) uaddr);
int hypfs_write_deny(struct hypfs_entry_leaf *leaf,
                     XEN_GUEST_HANDLE_PARAM(const_void) uaddr,
                     unsigned int ulen);
unsigned int hypfs_getsize(const struct hypfs_entry *entry);
struct hypfs_entry *hypfs_leaf_findentry(const struct hypfs_entry_dir *dir,
                                         const char *name,
                                         unsigned int name_len);
struct hypfs_entry *hypfs_dir_findentry(const struct hypfs_entry_dir *dir,
                                        const char *name,
                                        unsigned int name_len);
void *hypfs_alloc_dyndata(unsigned long size);
#define hypfs_alloc_dyndata(type) ((type *)hypfs_alloc_dyndata(sizeof(type)))
void *hypfs_get_dyndata(void);
void hypfs_free_dyndata(void);
void hypfs_add_dyndir(struct hypfs_entry_dir *parent,
                      struct hypfs_entry_dir *template);
int hypfs_read_dyndir_id_entry(const struct hypfs_entry_dir *template,
                               unsigned int id, bool is_last,
                               XEN_GUEST_HANDLE_PARAM(void) *uaddr);
struct hypfs_entry *hypfs_gen_dyndir_id_entry(
    const struct hypfs_entry_dir *template, unsigned int id, void *data);
unsigned int hypfs_dynid_entry_size(const struct hypfs_entry *template,
                                    unsigned int id);

#endif
