/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The command that record -- COMMAND and profile -- COMMAND trace for its
 * lifetime.  It is forked before tracing starts and held on a pipe until
 * the tracer is on (xdt_command_go()), so that nothing it does is missed;
 * its end interrupts the caller's sleep (SIGCHLD), so that tracing stops
 * right after it.  Its exit status becomes the caller's, as a shell's:
 * the command's own, 128 + N if signal N killed it, 127 if it could not be
 * run.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "xen-dyntrace.h"

static void on_child(int sig)
{
    (void)sig;                  /* Only to end a sleep early. */
}

int xdt_command_start(struct xdt_command *cmd, char **argv,
                      const cpu_set_t *cpus, bool stdout_is_ours)
{
    static const int reset[] = { SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGCHLD };
    struct sigaction sa = { .sa_handler = on_child };
    int go[2];
    unsigned int i;
    char c;

    cmd->pid = -1;
    cmd->go = -1;
    cmd->done = false;
    cmd->forwarded = 0;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGCHLD, &sa, NULL);
    if ( pipe2(go, O_CLOEXEC) )
    {
        xdt_err("command: pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    cmd->pid = fork();
    if ( cmd->pid < 0 )
    {
        xdt_err("command: fork: %s", strerror(errno));
        close(go[0]);
        close(go[1]);
        return -1;
    }
    if ( !cmd->pid )
    {
        sigset_t none;
        ssize_t got;

        close(go[1]);
        for ( i = 0; i < sizeof(reset) / sizeof(reset[0]); i++ )
            signal(reset[i], SIG_DFL);
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        if ( cpus )
            sched_setaffinity(0, sizeof(*cpus), cpus);
        /* Standard output is the capture: the command writes to stderr. */
        if ( stdout_is_ours && dup2(STDERR_FILENO, STDOUT_FILENO) < 0 )
            _exit(126);
        /* Run only once the tracer is on: a byte, not EOF. */
        c = 0;
        do
            got = read(go[0], &c, 1);
        while ( got < 0 && errno == EINTR );
        if ( got != 1 || c != 'g' )
            _exit(125);
        execvp(argv[0], argv);
        xdt_err("%s: %s", argv[0], strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    close(go[0]);
    cmd->go = go[1];

    return 0;
}

int xdt_command_go(struct xdt_command *cmd)
{
    int rc = write(cmd->go, "g", 1) == 1 ? 0 : -1;

    close(cmd->go);
    cmd->go = -1;

    return rc;
}

/*
 * Has it ended (a status in cmd->status)?  wait: until it has, passing on
 * each stop signal that comes meanwhile (*stops counts them; NULL: none).
 */
/*
 * Pass on the stop signals counted in *count since the last passed on (the
 * last of them, *last), if it still runs.
 */
void xdt_command_forward(struct xdt_command *cmd,
                         const volatile sig_atomic_t *count,
                         const volatile sig_atomic_t *last)
{
    if ( !count || *count == cmd->forwarded || cmd->pid <= 0 || cmd->done )
        return;
    cmd->forwarded = *count;
    kill(cmd->pid, *last ? *last : SIGTERM);
}

bool xdt_command_wait(struct xdt_command *cmd, bool wait,
                      const volatile sig_atomic_t *count,
                      const volatile sig_atomic_t *last)
{
    struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };
    pid_t p;

    if ( cmd->done || cmd->pid < 0 )
        return true;
    /*
     * Polled, so that a stop signal (which ends the sleep, or comes just
     * before it) is passed on within 100 ms.
     */
    for ( ;; )
    {
        xdt_command_forward(cmd, count, last);
        p = waitpid(cmd->pid, &cmd->status, WNOHANG);
        if ( (p < 0 && errno != EINTR) || p == cmd->pid || !wait )
            break;
        nanosleep(&ts, NULL);
    }
    if ( p == cmd->pid || p < 0 )
    {
        if ( p < 0 )
            cmd->status = 1 << 8;
        cmd->done = true;
    }

    return cmd->done;
}

/* Never started (the tracer could not be set up): it exits unrun. */
void xdt_command_cancel(struct xdt_command *cmd)
{
    if ( cmd->go >= 0 )
    {
        close(cmd->go);
        cmd->go = -1;
    }
    xdt_command_wait(cmd, true, NULL, NULL);
}

/* Pass a stop signal on to it, if it still runs. */
void xdt_command_signal(struct xdt_command *cmd, int sig)
{
    if ( cmd->pid > 0 && !cmd->done )
        kill(cmd->pid, sig);
}

int xdt_command_exit_status(const struct xdt_command *cmd)
{
    if ( WIFEXITED(cmd->status) )
        return WEXITSTATUS(cmd->status);
    if ( WIFSIGNALED(cmd->status) )
        return XDT_EXIT_SIGNAL + WTERMSIG(cmd->status);

    return XDT_EXIT_FAIL;
}
