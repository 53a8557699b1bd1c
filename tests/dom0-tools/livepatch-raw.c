/*
 * livepatch-raw: upload, apply, revert and unload a livepatch payload with
 * raw XEN_SYSCTL_livepatch_op hypercalls, built against the public headers of
 * the Xen tree under test (make-initramfs.sh passes -I its xen/include,
 * for its public headers), so it speaks that hypervisor's sysctl interface
 * version.  For a base whose Debian tools speak another one (staging and
 * Debian 13's xen-livepatch); the commands and messages follow
 * xen-livepatch's:
 *
 *   livepatch-raw upload NAME FILE
 *   livepatch-raw apply|revert|unload NAME
 *
 * An action is scheduled and then polled until the hypervisor reports its
 * result.  Errors are printed as "... error N: strerror" and exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "privcmd.h"

#include "public/xen.h"
#include "public/sysctl.h"

static int fd;

static int do_sysctl(struct xen_sysctl *s)
{
    struct privcmd_hypercall h = { .op = __HYPERVISOR_sysctl };
    int rc;

    s->interface_version = XEN_SYSCTL_INTERFACE_VERSION;
    h.arg[0] = (uint64_t)(unsigned long)s;
    rc = ioctl(fd, IOCTL_PRIVCMD_HYPERCALL, &h);

    return rc < 0 ? -errno : rc;
}

static void set_name(struct xen_livepatch_name *n, const char *name)
{
    size_t len = strlen(name) + 1;
    char *buf;

    if ( len > XEN_LIVEPATCH_NAME_SIZE )
    {
        fprintf(stderr, "name too long: %s\n", name);
        exit(1);
    }
    buf = locked(len);
    memcpy(buf, name, len);
    set_xen_guest_handle(n->name, buf);
    n->size = len;
}

static int fail(const char *what, const char *name, int err)
{
    printf("%s %s failed: error %d: %s\n", what, name, err, strerror(err));
    return 1;
}

static int upload(const char *name, const char *file)
{
    struct xen_sysctl *s = locked(sizeof(*s));
    struct stat st;
    uint8_t *buf;
    int f = open(file, O_RDONLY), rc;

    if ( f < 0 || fstat(f, &st) )
        return fail("Opening", file, errno);
    buf = locked(st.st_size);
    if ( read(f, buf, st.st_size) != st.st_size )
        return fail("Reading", file, errno ?: EIO);
    close(f);

    s->cmd = XEN_SYSCTL_livepatch_op;
    s->u.livepatch.cmd = XEN_SYSCTL_LIVEPATCH_UPLOAD;
    set_name(&s->u.livepatch.u.upload.name, name);
    s->u.livepatch.u.upload.size = st.st_size;
    set_xen_guest_handle(s->u.livepatch.u.upload.payload, buf);
    rc = do_sysctl(s);
    if ( rc )
        return fail("Uploading", name, -rc);
    printf("Uploading %s... completed\n", file);

    return 0;
}

/* The payload's rc: 0, -EAGAIN while an action is in progress, or an error. */
static int status(const char *name, int *rc)
{
    struct xen_sysctl *s = locked(sizeof(*s));
    int ret;

    s->cmd = XEN_SYSCTL_livepatch_op;
    s->u.livepatch.cmd = XEN_SYSCTL_LIVEPATCH_GET;
    set_name(&s->u.livepatch.u.get.name, name);
    ret = do_sysctl(s);
    if ( ret )
        return ret;
    *rc = s->u.livepatch.u.get.status.rc;

    return 0;
}

static int action(const char *verb, const char *name)
{
    static const struct {
        const char *verb, *what;
        uint32_t cmd;
    } acts[] = {
        { "apply", "Applying", LIVEPATCH_ACTION_APPLY },
        { "revert", "Reverting", LIVEPATCH_ACTION_REVERT },
        { "unload", "Unloading", LIVEPATCH_ACTION_UNLOAD },
    };
    struct xen_sysctl *s = locked(sizeof(*s));
    unsigned int i, polls;
    int rc, prc;

    for ( i = 0; i < sizeof(acts) / sizeof(acts[0]); i++ )
        if ( !strcmp(verb, acts[i].verb) )
            break;
    if ( i == sizeof(acts) / sizeof(acts[0]) )
    {
        fprintf(stderr, "unknown command %s\n", verb);
        return 2;
    }

    s->cmd = XEN_SYSCTL_livepatch_op;
    s->u.livepatch.cmd = XEN_SYSCTL_LIVEPATCH_ACTION;
    set_name(&s->u.livepatch.u.action.name, name);
    s->u.livepatch.u.action.cmd = acts[i].cmd;
    rc = do_sysctl(s);
    if ( rc )
        return fail(acts[i].what, name, -rc);

    /* Unloading is synchronous; the others run in the rendezvous. */
    if ( acts[i].cmd == LIVEPATCH_ACTION_UNLOAD )
    {
        printf("%s %s... completed\n", acts[i].what, name);
        return 0;
    }
    for ( polls = 0; polls < 500; polls++ )
    {
        const struct timespec ten_ms = { 0, 10 * 1000 * 1000 };

        rc = status(name, &prc);
        if ( rc )
            return fail(acts[i].what, name, -rc);
        if ( prc != -EAGAIN )
            break;
        nanosleep(&ten_ms, NULL);
    }
    if ( prc )
        return fail(acts[i].what, name, prc == -EAGAIN ? ETIMEDOUT : -prc);
    printf("%s %s... completed\n", acts[i].what, name);

    return 0;
}

int main(int argc, char **argv)
{
    fd = open("/dev/xen/privcmd", O_RDWR);
    if ( fd < 0 )
    {
        perror("/dev/xen/privcmd");
        return 2;
    }
    if ( argc == 4 && !strcmp(argv[1], "upload") )
        return upload(argv[2], argv[3]);
    if ( argc == 3 )
        return action(argv[1], argv[2]);
    fprintf(stderr,
            "usage: %s upload NAME FILE | apply|revert|unload NAME\n",
            argv[0]);
    return 2;
}
