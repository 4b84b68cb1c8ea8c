/*
 * test-sandbox.c - lab/platform/sandbox: the one table of limits against the docs that quote it,
 * what a confined child gets (its environment, limits, status pipe, sized and read-only mounts),
 * and how a sandbox's own failure is told from the program's.
 */
#include "lab/platform/sandbox.h"
#include "lab/util/buf.h"

#include <criterion/criterion.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

/* A size as the docs write it: "4 GiB", "256 MiB"; 0 is none. */
static void
bytes(lab_buf *b, unsigned long long v, const char *none)
{
    if (!v)
        lab_buf_adds(b, none);
    else if (v % GIB == 0)
        lab_buf_printf(b, "%llu GiB", v / GIB);
    else
        lab_buf_printf(b, "%llu MiB", v / MIB);
}

/* limits.def's row as docs/design/batch-and-slurm.md's table row. */
static void
doc_row(lab_sandbox_job job, lab_buf *b)
{
    const lab_sandbox_limits *l = lab_sandbox_limits_of(job);

    lab_buf_printf(b, "| %s | %lu s | ", l->label, l->rlimits.cpu_s);
    bytes(b, l->rlimits.as_bytes, "none");
    lab_buf_adds(b, " | ");
    bytes(b, l->rlimits.fsize_bytes, "none");
    lab_buf_printf(b, " | %lu | %lu | ", l->rlimits.nproc, l->rlimits.nofile);
    if (l->tmpfs) {
        bytes(b, l->tmpfs, "");
        lab_buf_adds(b, " each");
    } else {
        lab_buf_adds(b, "the driver's");
    }
    lab_buf_printf(b, " | %s |", l->gpu ? "yes" : "no");
}

Test(sandbox, docs_quote_the_one_table_of_limits)
{
    const char *src = getenv("CUDALAB_DATADIR_TEST");
    lab_buf path = LAB_BUF_INIT, doc = LAB_BUF_INIT, row = LAB_BUF_INIT;
    size_t rows = 0;

    cr_assert_not_null(src, "run through make test: CUDALAB_DATADIR_TEST is not set");
    lab_buf_printf(&path, "%s/docs/design/batch-and-slurm.md", src);
    cr_assert_eq(lab_buf_read_file(&doc, path.buf, NULL), 0);
    for (int job = 0; job < LAB_SANDBOX_JOB_COUNT; job++) {
        lab_buf_reset(&row);
        doc_row((lab_sandbox_job)job, &row);
        lab_buf_addch(&row, '\n');
        cr_expect_not_null(strstr(doc.buf, row.buf), "the docs lack limits.def's row: %s", row.buf);
    }
    /* and no other row: the table ends at its first line that is not one */
    for (const char *at = strstr(doc.buf, "| job | CPU time |"); at && *at == '|'; rows++)
        at = strchr(at, '\n') ? strchr(at, '\n') + 1 : "";
    cr_expect_eq(rows, 2 + LAB_SANDBOX_JOB_COUNT, "the table has %zu lines", rows);
    lab_buf_release(&path);
    lab_buf_release(&doc);
    lab_buf_release(&row);
}

static bool
has(const lab_strvec *v, const char *s)
{
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->v[i], s))
            return true;
    return false;
}

/* The argument after the first one that is opt, then (when then is not NULL) the one after
 * that equal to then. */
static bool
has_pair(const lab_strvec *v, const char *opt, const char *next)
{
    for (size_t i = 0; i + 1 < v->n; i++)
        if (!strcmp(v->v[i], opt) && !strcmp(v->v[i + 1], next))
            return true;
    return false;
}

Test(sandbox, a_confined_child_gets_the_allow_list_its_row_and_a_status_pipe)
{
    lab_sandbox_plan plan = { .job = LAB_SANDBOX_DRIVER };
    const lab_sandbox_limits *row = lab_sandbox_limits_of(LAB_SANDBOX_DRIVER);
    lab_err err = LAB_ERR_INIT;
    char size[32], nproc[32];
    lab_proc p;

    setenv("SECRET_TOKEN", "hunter2", 1);
    setenv("PATH", "/usr/bin:/bin", 1);
    setenv("LC_TIME", "C", 1);
    setenv("FAKE_X", "1", 1);
    setenv("CUDALAB_SANDBOX_KEEP_ENV", "NOPE,FAKE_*", 1);
    lab_proc_init(&p);
    p.report_fd = 3;
    lab_strvec_pushl(&p.argv, "prog", "--flag", NULL);
    lab_strvec_push(&p.env, "OWN=1");
    cr_assert_eq(lab_sandbox_confine(&plan, &p, &err), 0, "%s", err.msg);

    cr_expect(p.env_only, "nothing of the lab's environment but the allow-list");
    cr_expect(has(&p.env, "PATH=/usr/bin:/bin") && has(&p.env, "LC_TIME=C"));
    cr_expect(has(&p.env, "FAKE_X=1"), "CUDALAB_SANDBOX_KEEP_ENV's prefix");
    cr_expect(has(&p.env, "OWN=1"), "the proc's own entries");
    for (size_t i = 0; i < p.env.n; i++)
        cr_expect_null(strstr(p.env.v[i], "SECRET_TOKEN"), "%s", p.env.v[i]);

    snprintf(size, sizeof(size), "%llu", row->tmpfs);
    cr_expect(has_pair(&p.argv, "--size", size) && has_pair(&p.argv, "--tmpfs", "/tmp") &&
              has_pair(&p.argv, "--tmpfs", "/dev/shm"));
    cr_expect(has_pair(&p.argv, "--remount-ro", "/") && has_pair(&p.argv, "--remount-ro", "/dev"));
    snprintf(nproc, sizeof(nproc), "--nproc=%lu", row->rlimits.nproc);
    cr_expect(has(&p.argv, "prlimit") && has(&p.argv, nproc), "the process limit, inside");
    cr_expect_eq(p.limits.nproc, 0, "and not outside, where it caps the lab's user");
    cr_expect_eq(p.limits.cpu_s, row->rlimits.cpu_s);
    cr_expect_eq(p.limits.fsize_bytes, row->rlimits.fsize_bytes);
    cr_expect(p.status_pipe);
    cr_expect(has_pair(&p.argv, "--json-status-fd", "4"), "after the report pipe");
    cr_expect_str_eq(p.argv.v[p.argv.n - 2], "prog", "the program last");
    lab_proc_release(&p);
    unsetenv("SECRET_TOKEN");
    unsetenv("CUDALAB_SANDBOX_KEEP_ENV");
}

Test(sandbox, a_failure_is_the_sandboxs_only_without_the_programs_exit)
{
    lab_buf why = LAB_BUF_INIT;
    lab_proc p;

    lab_proc_init(&p);
    lab_strvec_pushl(&p.argv, "bwrap", "--", "nvcc", NULL);
    p.exited = true;
    p.exit_code = 1;
    lab_buf_adds(&p.errout, "bwrap: Can't fork for pid 1: Resource temporarily unavailable\n");
    lab_buf_adds(&p.status_text, "{ \"child-pid\": 5 }\n");
    cr_expect(lab_sandbox_failed(&p, &why));
    cr_expect_not_null(strstr(why.buf, "the sandbox could not run 'nvcc'"), "%s", why.buf);
    cr_expect_not_null(strstr(why.buf, "Can't fork"), "%s", why.buf);
    lab_buf_adds(&p.status_text, "{ \"exit-code\": 1 }\n");
    cr_expect_not(lab_sandbox_failed(&p, &why), "the program ran and exited: its own outcome");
    lab_buf_reset(&p.status_text);
    p.timed_out = true;
    cr_expect_not(lab_sandbox_failed(&p, &why), "the lab stopped it: a timeout");
    lab_buf_release(&why);
    lab_proc_release(&p);
}

static void *
uid_of_thread(void *uid)
{
    *(uid_t *)uid = lab_sandbox_uid();
    return NULL;
}

/* a batch grades on threads: as root, two of its jobs running at once must not share a user,
 * or one's fork bomb counts against the other's process limit (# 34, B2: it was the lab's pid) */
Test(sandbox, as_root_each_job_its_own_user)
{
    uid_t here = lab_sandbox_uid(), there = 0;
    pthread_t t;

    cr_assert_eq(pthread_create(&t, NULL, uid_of_thread, &there), 0);
    cr_assert_eq(pthread_join(t, NULL), 0);
    if (geteuid() != 0) {
        cr_expect_eq(here, 65534);
        cr_expect_eq(there, 65534);
    } else {
        cr_expect_eq(here, LAB_SANDBOX_UID_BASE + (unsigned)gettid());
        cr_expect_neq(here, there, "two threads' jobs share uid %u", (unsigned)here);
        cr_expect_geq(there, LAB_SANDBOX_UID_BASE);
    }
}
