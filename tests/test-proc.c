/*
 * test-proc.c - lab/platform/proc with real child processes: exit codes, the three
 * pipes, exec failures, signals, timeouts, children that ignore SIGTERM, fork
 * grandchildren or flood their output, the environment, the working directory,
 * cancellation and the cleanup hooks.
 *
 * Each test makes its worker a child subreaper, so the grandchildren a test
 * spawns are reparented to it: it can reap them and tell that they are gone.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lab/platform/proc.h"

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
sleep_s(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

    nanosleep(&ts, NULL);
}

static void
setup(void)
{
    struct rlimit no_core = { 0, 0 };

    cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
    cr_assert_eq(setrlimit(RLIMIT_CORE, &no_core), 0);
}

TestSuite(proc, .init = setup, .timeout = 30);

/* A lab_proc running `sh -c script`. */
static void
proc_sh(lab_proc *p, const char *script)
{
    lab_proc_init(p);
    cr_assert_eq(lab_strvec_pushl(&p->argv, "sh", "-c", script, NULL), 0);
}

static void
run_ok(lab_proc *p)
{
    lab_err err = LAB_ERR_INIT;

    cr_assert_eq(lab_proc_run(p, &err), 0, "run failed: %s", err.msg);
}

/* Is pid gone (reaped by us, by its parent, or never ours) within secs? */
static bool
gone_within(pid_t pid, double secs)
{
    double until = now_s() + secs;

    do {
        pid_t r = waitpid(pid, NULL, WNOHANG);

        if ((r == pid || (r < 0 && errno == ECHILD)) && kill(pid, 0) < 0 && errno == ESRCH)
            return true;
        sleep_s(0.01);
    } while (now_s() < until);
    return false;
}

static pid_t
reported_pid(const lab_proc *p)
{
    long pid = strtol(p->report.buf, NULL, 10);

    cr_assert_gt(pid, 1, "no pid in the report: '%s'", p->report.buf);
    return (pid_t)pid;
}

Test(proc, true_and_false)
{
    lab_proc p;
    lab_proc q;

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_push(&p.argv, "true"), 0);
    run_ok(&p);
    cr_assert(p.exited);
    cr_assert_eq(p.exit_code, 0);
    cr_assert_eq(p.status, 0);
    cr_assert_eq(p.term_signal, 0);
    cr_assert(!p.timed_out && !p.cancelled);
    cr_assert_gt(p.pid, 0);
    cr_assert_lt(p.elapsed_s, 2.0);
    lab_proc_release(&p);

    lab_proc_init(&q);
    cr_assert_eq(lab_strvec_push(&q.argv, "false"), 0);
    run_ok(&q);
    cr_assert(q.exited);
    cr_assert_eq(q.exit_code, 1);
    cr_assert_eq(q.status, 1);
    lab_proc_release(&q);
}

Test(proc, exit_code)
{
    lab_proc p;
    char desc[64];

    proc_sh(&p, "exit 3");
    run_ok(&p);
    cr_assert(p.exited);
    cr_assert_eq(p.exit_code, 3);
    cr_assert_eq(p.status, 3);
    cr_assert_str_eq(lab_proc_describe(&p, desc, sizeof(desc)), "exited with status 3");
    lab_proc_release(&p);
}

Test(proc, stdout_and_stderr_apart)
{
    lab_proc p;

    proc_sh(&p, "echo out; echo err >&2; printf more");
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "out\nmore");
    cr_assert_eq(p.out.len, 8);
    cr_assert_str_eq(p.errout.buf, "err\n");
    cr_assert_eq(p.report.len, 0);
    cr_assert_eq(p.out_dropped + p.err_dropped, 0);
    lab_proc_release(&p);
}

Test(proc, report_pipe)
{
    lab_proc p;

    proc_sh(&p, "echo hello >&3; echo visible");
    p.report_fd = 3;
    run_ok(&p);
    cr_assert_str_eq(p.report.buf, "hello\n");
    cr_assert_str_eq(p.out.buf, "visible\n");
    cr_assert(p.exited && p.exit_code == 0);
    lab_proc_release(&p);
}

Test(proc, report_pipe_on_high_fd)
{
    lab_proc p;

    proc_sh(&p, "echo high >&9");
    p.report_fd = 9;
    run_ok(&p);
    cr_assert_str_eq(p.report.buf, "high\n");
    cr_assert_eq(p.exit_code, 0);
    lab_proc_release(&p);
}

Test(proc, report_fd_over_stdio_refused)
{
    lab_proc p;
    lab_err err = LAB_ERR_INIT;

    proc_sh(&p, "true");
    p.report_fd = 1;
    cr_assert_eq(lab_proc_start(&p, &err), LAB_EINVAL);
    cr_assert_neq(strstr(err.msg, "report fd 1"), NULL, "%s", err.msg);
    lab_proc_release(&p);
}

Test(proc, passed_fds_after_report_fd)
{
    lab_proc p;
    int a[2], b[2];

    cr_assert_eq(pipe2(a, O_CLOEXEC), 0);
    cr_assert_eq(pipe2(b, O_CLOEXEC), 0);
    cr_assert_eq(write(a[1], "first", 5), 5);
    cr_assert_eq(write(b[1], "second", 6), 6);
    close(a[1]);
    close(b[1]);
    proc_sh(&p, "cat <&4; echo; cat <&5; echo; [ -e /proc/self/fd/6 ] || echo no-more");
    p.report_fd = 3;
    p.pass_fd[0] = a[0];
    p.pass_fd[1] = b[0];
    p.npass = 2;
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "first\nsecond\nno-more\n");
    close(a[0]);
    close(b[0]);
    lab_proc_release(&p);
}

Test(proc, keeper_ends_as_the_program)
{
    lab_proc p;

    proc_sh(&p, "echo out; exit 7");
    p.die_with_parent = true;
    run_ok(&p);
    cr_assert(p.exited && p.exit_code == 7, "%d %d", p.exited, p.exit_code);
    cr_assert_str_eq(p.out.buf, "out\n");
    lab_proc_release(&p);

    proc_sh(&p, "kill -SEGV $$");
    p.die_with_parent = true;
    run_ok(&p);
    cr_assert(!p.exited && p.term_signal == SIGSEGV, "%d %d", p.exited, p.term_signal);
    lab_proc_release(&p);
}

/* the lab under a lower hard limit (ulimit -H): the child keeps it instead of failing to raise
 * it (# 19: every sandboxed grading failed under a hard address-space limit below 8 GiB) */
Test(proc, lower_hard_limit_is_kept)
{
    struct rlimit low = { 200, 200 };
    lab_proc p;

    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
    proc_sh(&p, "ulimit -n");
    p.limits.nofile = 1024;
    run_ok(&p);
    cr_assert(p.exited && p.exit_code == 0, "%s", p.errout.buf);
    cr_assert_str_eq(p.out.buf, "200\n");
    lab_proc_release(&p);
}

Test(proc, stdin_is_dev_null)
{
    lab_proc p;

    proc_sh(&p, "cat; echo done");
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "done\n");
    cr_assert_lt(p.elapsed_s, 2.0);
    lab_proc_release(&p);
}

/* Starts p (wait_go), waits secs as a caller waiting for a lock would, sends the go, finishes. */
static void
go_after(lab_proc *p, double secs)
{
    lab_err err = LAB_ERR_INIT;

    p->wait_go = true;
    cr_assert_eq(lab_proc_start(p, &err), 0, "%s", err.msg);
    sleep_s(secs);
    lab_proc_go(p);
    lab_proc_go(p); /* once only */
    cr_assert_eq(lab_proc_finish(p, &err), 0, "%s", err.msg);
}

/* wait_go: the child reads the go byte on stdin, then goes on */
Test(proc, go_byte_on_stdin)
{
    lab_proc p;

    proc_sh(&p, "c=$(dd bs=1 count=1 2>/dev/null); echo \"got $c\"; cat; echo done");
    go_after(&p, 0.2);
    cr_assert_str_eq(p.out.buf, "got g\ndone\n");
    lab_proc_release(&p);
}

/* no go before finish: the child reads the end of its stdin instead of waiting forever */
Test(proc, no_go_is_end_of_stdin)
{
    lab_proc p;

    proc_sh(
        &p,
        "c=$(dd bs=1 count=1 2>/dev/null); if [ -n \"$c\" ]; then echo went; else echo closed; fi");
    p.wait_go = true;
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "closed\n");
    cr_assert_lt(p.elapsed_s, 2.0);
    lab_proc_release(&p);
}

/* a go to a child that has gone is no error, and no SIGPIPE for the caller */
Test(proc, go_to_a_child_gone)
{
    lab_proc p;

    proc_sh(&p, "exec 0<&-; exit 4");
    go_after(&p, 0.3);
    cr_assert(p.exited && p.exit_code == 4);
    lab_proc_release(&p);
}

/* the timeout counts from the go, not from the start */
Test(proc, timeout_counts_from_the_go)
{
    lab_proc p;

    proc_sh(&p, "dd bs=1 count=1 2>/dev/null; sleep 0.4; echo finished");
    p.timeout_s = 0.8;
    go_after(&p, 0.6); /* waiting, as for a lock, is not running */
    cr_assert(!p.timed_out, "timed out though it ran 0.4 s of its 0.8 s");
    cr_assert_str_eq(p.out.buf, "gfinished\n");
    lab_proc_release(&p);
}

static void
count_report_done(void *ctx)
{
    double *at = ctx;

    at[0] += 1;
    at[1] = now_s();
}

/* report_done: once, when the report pipe closes, before the child has exited */
Test(proc, report_done_when_the_report_closes)
{
    lab_proc p;
    double at[2] = { 0, 0 }, t0 = now_s();

    proc_sh(&p, "echo report >&3; exec 3>&-; sleep 0.5");
    p.report_fd = 3;
    p.report_done = count_report_done;
    p.report_done_ctx = at;
    run_ok(&p);
    cr_assert_eq(at[0], 1);
    cr_assert_lt(at[1] - t0, 0.4, "called %.2f s after the start, not at the report's end",
                 at[1] - t0);
    cr_assert_geq(p.elapsed_s, 0.5);
    cr_assert_str_eq(p.report.buf, "report\n");
    lab_proc_release(&p);
}

/* report_done also when the child never wrote or closed a report: at its end, once */
Test(proc, report_done_without_a_report)
{
    lab_proc p;
    double at[2] = { 0, 0 };

    proc_sh(&p, "exit 0");
    p.report_done = count_report_done;
    p.report_done_ctx = at;
    run_ok(&p);
    cr_assert_eq(at[0], 1);
    lab_proc_release(&p);
}

Test(proc, other_fds_closed)
{
    lab_proc p;
    char script[160];
    int low = open("/dev/null", O_RDONLY); /* inheritable on purpose */
    int high;

    cr_assert_geq(low, 3);
    high = fcntl(low, F_DUPFD, 200); /* above the pipes start makes */
    cr_assert_geq(high, 200);
    snprintf(script, sizeof(script),
             "for fd in %d %d; do [ -e /proc/self/fd/$fd ] && echo $fd; done; echo checked", low,
             high);
    proc_sh(&p, script);
    p.report_fd = 3;
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "checked\n");
    close(low);
    close(high);
    lab_proc_release(&p);
}

Test(proc, default_signals_and_empty_mask)
{
    lab_proc p;
    sigset_t usr1;
    void (*old_int)(int) = signal(SIGINT, SIG_IGN);
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);

    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    cr_assert_eq(pthread_sigmask(SIG_BLOCK, &usr1, NULL), 0);

    lab_proc_init(&p);
    cr_assert_eq(
        lab_strvec_pushl(&p.argv, "grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status", NULL), 0);
    run_ok(&p);
    {
        unsigned long long blk = 1, ign = 1;
        cr_assert_eq(sscanf(p.out.buf, "SigBlk: %llx SigIgn: %llx", &blk, &ign), 2, "%s",
                     p.out.buf);
        cr_assert_eq(blk, 0, "%s", p.out.buf);
        /* glibc reserves signals 32 and 33 (its sigaction refuses them), so an
         * ignored disposition there (GNU make sets one) cannot be reset */
        cr_assert_eq(ign & ~0x180000000ULL, 0, "%s", p.out.buf);
    }
    lab_proc_release(&p);
    signal(SIGINT, old_int);
    signal(SIGPIPE, old_pipe);
    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
}

Test(proc, exec_failure_names_program)
{
    lab_proc p;
    lab_err err = LAB_ERR_INIT;

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_pushl(&p.argv, "cudalab-no-such-program", "arg", NULL), 0);
    cr_assert_eq(lab_proc_start(&p, &err), LAB_ETOOL);
    cr_assert_str_eq(err.msg, "cannot run 'cudalab-no-such-program': No such file or directory");
    cr_assert_eq(p.pid, 0);
    /* nothing to finish; release must cope */
    cr_assert_eq(lab_proc_finish(&p, NULL), LAB_EINVAL);
    lab_proc_release(&p);
}

Test(proc, exec_failure_with_path)
{
    lab_proc p;
    lab_err err = LAB_ERR_INIT;

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_push(&p.argv, "/nonexistent/cudalab"), 0);
    cr_assert_eq(lab_proc_start(&p, &err), LAB_ETOOL);
    cr_assert_str_eq(err.msg, "cannot run '/nonexistent/cudalab': No such file or directory");
    lab_proc_release(&p);
}

Test(proc, exec_failure_not_executable)
{
    lab_proc p;
    lab_err err = LAB_ERR_INIT;
    char path[] = "/tmp/cudalab-proc-XXXXXX";
    int fd = mkstemp(path);

    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "#!/bin/sh\n", 10), 10);
    close(fd);
    cr_assert_eq(chmod(path, 0644), 0);
    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_push(&p.argv, path), 0);
    cr_assert_eq(lab_proc_start(&p, &err), LAB_ETOOL);
    cr_assert_neq(strstr(err.msg, "Permission denied"), NULL, "%s", err.msg);
    cr_assert_neq(strstr(err.msg, path), NULL, "%s", err.msg);
    unlink(path);
    lab_proc_release(&p);
}

Test(proc, killed_by_signal)
{
    lab_proc p;
    char desc[64];

    proc_sh(&p, "kill -SEGV $$");
    run_ok(&p);
    cr_assert(!p.exited);
    cr_assert_eq(p.term_signal, SIGSEGV);
    cr_assert_eq(p.status, 139);
    cr_assert(!p.timed_out);
    cr_assert_str_eq(lab_proc_describe(&p, desc, sizeof(desc)),
                     "killed by signal 11 (Segmentation fault)");
    lab_proc_release(&p);
}

Test(proc, timeout)
{
    lab_proc p;
    char desc[64];

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_pushl(&p.argv, "sleep", "30", NULL), 0);
    p.timeout_s = 0.3;
    run_ok(&p);
    cr_assert(p.timed_out);
    cr_assert(!p.cancelled);
    cr_assert_eq(p.term_signal, SIGTERM);
    cr_assert_eq(p.status, 143);
    cr_assert_geq(p.elapsed_s, 0.3);
    cr_assert_lt(p.elapsed_s, 2.0);
    cr_assert_str_eq(lab_proc_describe(&p, desc, sizeof(desc)), "timed out after 0.3 s");
    lab_proc_release(&p);
}

Test(proc, sigterm_ignored_then_sigkill)
{
    lab_proc p;

    proc_sh(&p, "trap '' TERM; echo ready; sleep 30; echo survived");
    p.timeout_s = 0.2;
    p.grace_s = 0.3;
    run_ok(&p);
    cr_assert(p.timed_out);
    cr_assert_eq(p.term_signal, SIGKILL);
    cr_assert_eq(p.status, 137);
    cr_assert_str_eq(p.out.buf, "ready\n");
    cr_assert_geq(p.elapsed_s, 0.5);
    cr_assert_lt(p.elapsed_s, 3.0);
    lab_proc_release(&p);
}

Test(proc, timeout_kills_grandchild)
{
    lab_proc p;
    pid_t grandchild;

    proc_sh(&p, "sleep 1000 & echo $! >&3; wait");
    p.report_fd = 3;
    p.timeout_s = 0.3;
    run_ok(&p);
    cr_assert(p.timed_out);
    cr_assert_lt(p.elapsed_s, 2.0);
    grandchild = reported_pid(&p);
    cr_assert(gone_within(grandchild, 2.0), "grandchild %d survived", (int)grandchild);
    lab_proc_release(&p);
}

Test(proc, grandchild_holding_stdout)
{
    lab_proc p;
    pid_t grandchild;

    /* sh exits at once; sleep keeps stdout and stderr open */
    proc_sh(&p, "sleep 1000 & echo $! >&3; echo bye");
    p.report_fd = 3;
    p.timeout_s = 20;
    run_ok(&p);
    cr_assert(!p.timed_out);
    cr_assert(p.exited && p.exit_code == 0);
    cr_assert_str_eq(p.out.buf, "bye\n");
    cr_assert_lt(p.elapsed_s, 2.0);
    grandchild = reported_pid(&p);
    cr_assert(gone_within(grandchild, 2.0), "grandchild %d survived", (int)grandchild);
    lab_proc_release(&p);
}

Test(proc, escaped_grandchild_does_not_hang_finish)
{
    lab_proc p;
    pid_t escaped;
    int status;

    /* a new session is out of reach of the group kill, and holds stdout */
    proc_sh(&p, "setsid sleep 1000 & echo $! >&3; echo bye");
    p.report_fd = 3;
    run_ok(&p);
    cr_assert(p.exited && p.exit_code == 0);
    cr_assert_str_eq(p.out.buf, "bye\n");
    cr_assert_lt(p.elapsed_s, 2.0);
    escaped = reported_pid(&p);
    cr_assert_eq(kill(escaped, 0), 0, "the escaped grandchild should still be there");
    cr_assert_eq(kill(escaped, SIGKILL), 0);
    cr_assert_eq(waitpid(escaped, &status, 0), escaped);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    lab_proc_release(&p);
}

Test(proc, flood_is_capped)
{
    lab_proc p;

    proc_sh(&p, "yes | head -c 50000000");
    p.output_cap = 1000;
    run_ok(&p);
    cr_assert(p.exited && p.exit_code == 0);
    cr_assert_eq(p.out.len, 1000);
    cr_assert_eq(p.out_dropped, 50000000 - 1000);
    cr_assert_eq(strncmp(p.out.buf, "y\ny\ny\n", 6), 0);
    cr_assert_eq(strlen(p.out.buf), 1000);
    lab_proc_release(&p);
}

Test(proc, endless_flood_times_out)
{
    lab_proc p;

    proc_sh(&p, "cat /dev/zero & cat /dev/zero >&2");
    p.output_cap = 4096;
    p.timeout_s = 1.0; /* room for both cats to fill the caps on a loaded machine */
    run_ok(&p);
    cr_assert(p.timed_out);
    cr_assert_eq(p.out.len, 4096);
    cr_assert_eq(p.errout.len, 4096);
    cr_assert_gt(p.out_dropped, 0);
    cr_assert_gt(p.err_dropped, 0);
    cr_assert_lt(p.elapsed_s, 4.0);
    lab_proc_release(&p);
}

/* A printf flood: a child that prints without end to both streams (and a grandchild that
 * keeps printing) is stopped at output_limit, long before its timeout, and nothing survives. */
Test(proc, flood_stopped_at_the_output_limit)
{
    lab_proc p;

    proc_sh(&p, "sh -c 'trap \"\" TERM; while :; do echo flood; done' & "
                "trap '' TERM; cat /dev/zero >&2 & echo $! >&3; wait");
    p.report_fd = 3;
    p.output_cap = 4096;
    p.output_limit = 1 << 20;
    p.timeout_s = 25.0;
    run_ok(&p);
    cr_assert(p.flooded, "not stopped for its output");
    cr_assert_not(p.timed_out);
    cr_assert_gt(p.out.len + p.out_dropped + p.errout.len + p.err_dropped, 1 << 20);
    cr_assert_lt(p.elapsed_s, 10.0, "stopped after %.1f s", p.elapsed_s);
    cr_assert(gone_within(reported_pid(&p), 2.0), "the grandchild still runs");
    lab_proc_release(&p);
}

/* Output under the limit is no flood */
Test(proc, output_under_the_limit)
{
    lab_proc p;

    proc_sh(&p, "yes | head -c 100000");
    p.output_limit = 1 << 20;
    run_ok(&p);
    cr_assert_not(p.flooded);
    cr_assert(p.exited && p.exit_code == 0);
    lab_proc_release(&p);
}

Test(proc, environment)
{
    lab_proc p;

    cr_assert_eq(setenv("CUDALAB_INHERITED", "parent", 1), 0);
    cr_assert_eq(setenv("CUDALAB_GONE", "here", 1), 0);
    cr_assert_eq(setenv("CUDALAB_REPLACED", "old", 1), 0);
    proc_sh(&p, "printf '%s|%s|%s|%s' \"$CUDALAB_INHERITED\" \"${CUDALAB_GONE-unset}\" "
                "\"$CUDALAB_REPLACED\" \"$CUDALAB_NEW\"");
    cr_assert_eq(lab_strvec_pushl(&p.env, "CUDALAB_NEW=first", "CUDALAB_REPLACED=new",
                                  "CUDALAB_GONE", "CUDALAB_NEW=a=b", NULL),
                 0);
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "parent|unset|new|a=b");
    lab_proc_release(&p);
}

Test(proc, path_from_child_environment)
{
    lab_proc p;
    lab_err err = LAB_ERR_INIT;

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_push(&p.argv, "sh"), 0);
    cr_assert_eq(lab_strvec_push(&p.env, "PATH=/nonexistent"), 0);
    cr_assert_eq(lab_proc_start(&p, &err), LAB_ETOOL);
    cr_assert_str_eq(err.msg, "cannot run 'sh': No such file or directory");
    lab_proc_release(&p);
}

Test(proc, working_directory)
{
    lab_proc p;
    char tmpl[] = "/tmp/cudalab-proc-XXXXXX";
    char *dir = mkdtemp(tmpl);
    char *real;
    char want[4200];

    cr_assert_not_null(dir);
    real = realpath(dir, NULL);
    cr_assert_not_null(real);
    snprintf(want, sizeof(want), "%s\n", real);
    proc_sh(&p, "pwd -P");
    p.dir = dir;
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, want);
    free(real);
    rmdir(dir);
    lab_proc_release(&p);
}

Test(proc, bad_working_directory)
{
    lab_proc p;
    lab_err err = LAB_ERR_INIT;

    proc_sh(&p, "true");
    p.dir = "/nonexistent/cudalab";
    cr_assert_eq(lab_proc_start(&p, &err), LAB_ECHILD);
    cr_assert_str_eq(err.msg,
                     "cannot run 'sh' in '/nonexistent/cudalab': No such file or directory");
    lab_proc_release(&p);
}

static void *
cancel_later(void *arg)
{
    volatile sig_atomic_t *flag = arg;

    sleep_s(0.2);
    *flag = 1;
    return NULL;
}

Test(proc, cancel_from_thread)
{
    lab_proc p;
    volatile sig_atomic_t flag = 0;
    pthread_t thread;
    char desc[64];

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_pushl(&p.argv, "sleep", "30", NULL), 0);
    p.cancel = &flag;
    cr_assert_eq(pthread_create(&thread, NULL, cancel_later, (void *)&flag), 0);
    run_ok(&p);
    pthread_join(thread, NULL);
    cr_assert(p.cancelled);
    cr_assert(!p.timed_out);
    cr_assert_eq(p.term_signal, SIGTERM);
    cr_assert_geq(p.elapsed_s, 0.2);
    cr_assert_lt(p.elapsed_s, 1.0);
    cr_assert_eq(strncmp(lab_proc_describe(&p, desc, sizeof(desc)), "cancelled", 9), 0);
    lab_proc_release(&p);
}

Test(proc, cancel_preset)
{
    lab_proc p;
    volatile sig_atomic_t flag = 1;

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_pushl(&p.argv, "sleep", "30", NULL), 0);
    p.cancel = &flag;
    run_ok(&p);
    cr_assert(p.cancelled);
    cr_assert_eq(p.status, 143);
    cr_assert_lt(p.elapsed_s, 1.0);
    lab_proc_release(&p);
}

Test(proc, kill_then_finish)
{
    lab_proc p;
    lab_err err = LAB_ERR_INIT;

    lab_proc_init(&p);
    cr_assert_eq(lab_strvec_pushl(&p.argv, "sleep", "30", NULL), 0);
    cr_assert_eq(lab_proc_start(&p, &err), 0, "%s", err.msg);
    lab_proc_kill(&p);
    cr_assert_eq(lab_proc_finish(&p, &err), 0, "%s", err.msg);
    cr_assert_eq(p.term_signal, SIGKILL);
    cr_assert(!p.timed_out && !p.cancelled);
    cr_assert_lt(p.elapsed_s, 2.0);
    lab_proc_release(&p);
}

Test(proc, kill_all)
{
    lab_proc p[2];
    lab_err err = LAB_ERR_INIT;

    for (int i = 0; i < 2; i++) {
        proc_sh(&p[i], "sleep 30");
        cr_assert_eq(lab_proc_start(&p[i], &err), 0, "%s", err.msg);
    }
    lab_proc_kill_all();
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(lab_proc_finish(&p[i], &err), 0, "%s", err.msg);
        cr_assert_eq(p[i].term_signal, SIGKILL);
        lab_proc_release(&p[i]);
    }
}

Test(proc, restart_after_finish)
{
    lab_proc p;

    proc_sh(&p, "echo once");
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "once\n");
    run_ok(&p);
    cr_assert_str_eq(p.out.buf, "once\n");
    cr_assert_eq(p.exit_code, 0);
    lab_proc_release(&p);
}

Test(proc, release_unstarted_and_running)
{
    lab_proc idle;
    lab_proc running;
    lab_err err = LAB_ERR_INIT;
    pid_t pid;

    lab_proc_init(&idle);
    lab_proc_release(&idle);
    proc_sh(&idle, "true");
    lab_proc_release(&idle);

    lab_proc_init(&running);
    cr_assert_eq(lab_strvec_pushl(&running.argv, "sleep", "30", NULL), 0);
    cr_assert_eq(lab_proc_start(&running, &err), 0, "%s", err.msg);
    pid = running.pid;
    lab_proc_release(&running);
    /* killed and reaped by release: no zombie left */
    cr_assert_eq(kill(pid, 0), -1);
    cr_assert_eq(errno, ESRCH);
}

/* Runs after the cleanup hook, registered later, and skips the sanitizer's leak
 * check, which cannot suspend the (absent) threads of this fork's parent. */
static void
exit_quietly(void)
{
    _exit(0);
}

/* Start `sleep 30` in a forked helper that installs the cleanup, send the sleep's
 * pid back, then end the helper with `how`: a signal number, or 0 for exit(0). */
static pid_t
helper_with_child(int how, int *status)
{
    int fds[2];
    pid_t helper;
    pid_t child = 0;

    cr_assert_eq(pipe(fds), 0);
    helper = fork();
    cr_assert_geq(helper, 0);
    if (helper == 0) {
        lab_proc p;
        lab_err err = LAB_ERR_INIT;

        close(fds[0]);
        if (how) {
            sigset_t one;

            /* a lab started from a plain shell: the signal is neither ignored nor blocked */
            signal(how, SIG_DFL);
            sigemptyset(&one);
            sigaddset(&one, how);
            pthread_sigmask(SIG_UNBLOCK, &one, NULL);
        }
        lab_proc_init(&p);
        if (atexit(exit_quietly) != 0 || lab_strvec_pushl(&p.argv, "sleep", "30", NULL) < 0 ||
            lab_proc_install_cleanup(&err) < 0 || lab_proc_start(&p, &err) < 0)
            _exit(100);
        if (write(fds[1], &p.pid, sizeof(p.pid)) != sizeof(p.pid))
            _exit(101);
        if (how)
            raise(how);
        exit(0);
    }
    close(fds[1]);
    cr_assert_eq(read(fds[0], &child, sizeof(child)), sizeof(child));
    close(fds[0]);
    cr_assert_eq(waitpid(helper, status, 0), helper);
    return child;
}

Test(proc, cleanup_on_signal)
{
    int status;
    pid_t child = helper_with_child(SIGTERM, &status);

    cr_assert(WIFSIGNALED(status), "helper status %#x", status);
    cr_assert_eq(WTERMSIG(status), SIGTERM);
    cr_assert(gone_within(child, 2.0), "child %d outlived the helper", (int)child);
}

Test(proc, cleanup_on_sigint)
{
    int status;
    pid_t child = helper_with_child(SIGINT, &status);

    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, "helper status %#x", status);
    cr_assert(gone_within(child, 2.0), "child %d outlived the helper", (int)child);
}

Test(proc, cleanup_at_exit)
{
    int status;
    pid_t child = helper_with_child(0, &status);

    cr_assert(WIFEXITED(status), "helper status %#x", status);
    cr_assert(gone_within(child, 2.0), "child %d outlived the helper", (int)child);
}

Test(proc, cleanup_leaves_ignored_signals_ignored)
{
    pid_t helper = fork();
    int status;

    cr_assert_geq(helper, 0);
    if (helper == 0) {
        struct sigaction hup;
        struct sigaction term;

        /* as under nohup */
        signal(SIGHUP, SIG_IGN);
        signal(SIGTERM, SIG_DFL);
        if (lab_proc_install_cleanup(NULL) < 0 || sigaction(SIGHUP, NULL, &hup) < 0 ||
            sigaction(SIGTERM, NULL, &term) < 0)
            _exit(100);
        if (hup.sa_handler != SIG_IGN)
            _exit(101);
        if (term.sa_handler == SIG_DFL || term.sa_handler == SIG_IGN)
            _exit(102);
        _exit(0);
    }
    cr_assert_eq(waitpid(helper, &status, 0), helper);
    cr_assert(WIFEXITED(status), "helper status %#x", status);
    cr_assert_eq(WEXITSTATUS(status), 0);
}
