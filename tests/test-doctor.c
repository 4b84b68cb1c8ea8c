/*
 * test-doctor.c - lab/instruments/doctor on this machine: the real lab (the
 * source tree's catalog and sanitized drivers, from CUDALAB_DATADIR_TEST and
 * CUDALAB_LIBEXECDIR_TEST as `make test` exports them), real nvcc, the real
 * device probe (no GPU here), and a lab that did not open.
 */
#include "lab/instruments/doctor.h"
#include "lab/util/buf.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const names[] = {
    "catalog",   "progress store", "lab drivers",       "nvcc",       "NVIDIA driver", "GPU",
    "simulator", "Nsight Compute", "compute-sanitizer", "bubblewrap",
};

static char tmpdir[4096];

static void
setup(void)
{
    const char *data = getenv("CUDALAB_DATADIR_TEST"), *libexec = getenv("CUDALAB_LIBEXECDIR_TEST");
    const char *tmp = getenv("TMPDIR");

    snprintf(tmpdir, sizeof(tmpdir), "%s/cudalab-test-doctor-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
    cr_assert_not_null(data, "run through make test: CUDALAB_DATADIR_TEST is not set");
    cr_assert_not_null(libexec, "run through make test: CUDALAB_LIBEXECDIR_TEST is not set");
    setenv("CUDALAB_DATADIR", data, 1);
    setenv("CUDALAB_LIBEXECDIR", libexec, 1);
    setenv("XDG_DATA_HOME", tmpdir, 1);
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    unsetenv("CUDALAB_DB");
}

/* each test's folder goes with it (# 34: make test left one in /tmp per test) */
static void
teardown(void)
{
    lab_remove_tree(tmpdir, NULL);
}

TestSuite(doctor, .init = setup, .fini = teardown);

static const lab_check *
find(const lab_doctor *d, const char *name)
{
    for (size_t i = 0; i < d->nchecks; i++)
        if (!strcmp(d->checks[i].name, name))
            return &d->checks[i];
    cr_assert_fail("no check '%s'", name);
    return NULL;
}

static void
assert_every_check(const lab_doctor *d)
{
    cr_assert_eq(d->nchecks, ARRAY_SIZE(names));
    for (size_t i = 0; i < d->nchecks; i++) {
        const lab_check *c = &d->checks[i];
        cr_assert_str_eq(c->name, names[i]);
        cr_assert_gt(c->found.len, 0, "%s found nothing", c->name);
        cr_assert_null(strchr(c->found.buf, '\n'), "%s: %s", c->name, c->found.buf);
        cr_assert_eq(c->state == LAB_CHECK_OK, c->fix.len == 0, "%s: %s / fix '%s'", c->name,
                     c->found.buf, c->fix.buf);
    }
}

Test(doctor, here_compiles_but_has_no_gpu)
{
    lab_err err = LAB_ERR_INIT;
    lab_doctor d;
    lab *l;

    cr_assert_eq(lab_open(&l, &err), 0, "%s", err.msg);
    lab_doctor_init(&d);
    lab_doctor_run(l, NULL, &d, NULL, NULL);
    assert_every_check(&d);
    cr_assert_eq(find(&d, "catalog")->state, LAB_CHECK_OK);
    cr_assert_eq(find(&d, "progress store")->state, LAB_CHECK_OK);
    cr_assert_not_null(strstr(find(&d, "progress store")->found.buf, "quick_check ok"));
    cr_assert_eq(find(&d, "lab drivers")->state, LAB_CHECK_OK);
    cr_assert_eq(find(&d, "nvcc")->state, LAB_CHECK_OK, "%s", find(&d, "nvcc")->found.buf);
    cr_assert_gt(strlen(d.nvcc_version), 0);
    cr_assert_eq(find(&d, "GPU")->state, LAB_CHECK_FAIL);
    /* the PTX simulator grades correctness without a GPU */
    cr_assert_eq(find(&d, "simulator")->state, LAB_CHECK_OK, "%s",
                 find(&d, "simulator")->found.buf);
    cr_assert_eq(d.can, LAB_CAN_SIM);
    cr_assert(d.can_build);
    cr_assert_not(d.gpu.present);
    lab_doctor_release(&d);
    lab_close(l);
}

Test(doctor, a_lab_that_did_not_open)
{
    lab_doctor d;

    lab_doctor_init(&d);
    lab_doctor_run(NULL, "cannot open '/nowhere/exercises'", &d, NULL, NULL);
    assert_every_check(&d);
    cr_assert_eq(find(&d, "catalog")->state, LAB_CHECK_FAIL);
    cr_assert_str_eq(find(&d, "catalog")->found.buf, "cannot open '/nowhere/exercises'");
    cr_assert_eq(find(&d, "progress store")->state, LAB_CHECK_FAIL);
    cr_assert_eq(find(&d, "GPU")->state, LAB_CHECK_FAIL);
    cr_assert_eq(d.can, LAB_CAN_NOTHING);
    cr_assert_not(d.can_build);
    lab_doctor_release(&d);
}

/* on_check hears every check's name, in order, before it runs. */
static void
heard(const char *name, void *arg)
{
    size_t *n = arg;

    cr_assert_lt(*n, ARRAY_SIZE(names));
    cr_assert_str_eq(name, names[*n]);
    (*n)++;
}

Test(doctor, progress_names_each_check)
{
    lab_doctor d;
    size_t n = 0;

    lab_doctor_init(&d);
    lab_doctor_run(NULL, "not opened", &d, heard, &n);
    cr_assert_eq(n, ARRAY_SIZE(names));
    lab_doctor_release(&d);
}
