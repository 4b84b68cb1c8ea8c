/*
 * test-gpus.c - which GPU a batch's next grader goes to (lab/batch/gpus.h), and what a sandbox
 * must carry for the driver program (lab/platform/libs.h, lab/platform/sandbox.h).  The whole
 * batch over several GPUs runs in tests/e2e/test-batch-gpus.sh.
 */
#include "lab/batch/gpus.h"
#include "lab/platform/libs.h"
#include "lab/platform/sandbox.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pick_case {
    size_t working[4];
    size_t given[4];
    size_t n;
    size_t want;
} pick_case;

ParameterizedTestParameters(gpus, pick)
{
    static pick_case cases[] = {
        { { 0 }, { 0 }, 1, 0 },                    /* one GPU: always it */
        { { 0, 0 }, { 0, 0 }, 2, 0 },              /* all idle and fresh: the first */
        { { 1, 0 }, { 1, 0 }, 2, 1 },              /* the one with no grader at work */
        { { 1, 1 }, { 5, 3 }, 2, 1 },              /* as busy: the one given fewer so far */
        { { 2, 1, 1, 2 }, { 9, 9, 4, 0 }, 4, 2 },  /* fewest at work first, then fewest given */
        { { 3, 3, 3 }, { 7, 7, 7 }, 3, 0 },        /* a tie everywhere: the first */
        { { 0, 4, 4, 4 }, { 50, 0, 0, 0 }, 4, 0 }, /* a GPU that finishes faster gets more */
    };

    return cr_make_param_array(pick_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(pick_case *c, gpus, pick)
{
    cr_expect_eq(lab_batch_gpus_pick(c->working, c->given, c->n), c->want);
}

Test(gpus, pick_spreads_evenly)
{
    size_t working[3] = { 0 }, given[3] = { 0 };

    /* six graders started before any ends: two on each GPU, in turn */
    for (size_t i = 0; i < 6; i++) {
        size_t k = lab_batch_gpus_pick(working, given, 3);

        cr_expect_eq(k, i % 3, "grader %zu went to GPU %zu", i, k);
        working[k]++;
        given[k]++;
    }
}

Test(gpus, sandbox_system)
{
    cr_expect(lab_sandbox_in_system("/usr/lib/x86_64-linux-gnu/libcjson.so.1"));
    cr_expect(lab_sandbox_in_system("/lib64/ld-linux-x86-64.so.2"));
    cr_expect_not(lab_sandbox_in_system("/root/.gpu/35/lib/libcjson.so.1"));
    cr_expect_not(lab_sandbox_in_system("/usrlocal/lib/x.so"), "a folder's name, not a prefix");
    cr_expect_not(lab_sandbox_in_system("/tmp/fake/libcuda.so.1"));
}

/* libcuda.so.1 from a folder of LD_LIBRARY_PATH is what dlopen would load: listed by its path, as
 * are the program's own libraries, each once. */
Test(gpus, libs_from_library_path)
{
    char dir[] = "/tmp/cudalab-test-libs-XXXXXX", lib[128], cmd[512];
    lab_strvec libs = LAB_STRVEC_INIT;
    lab_err err = LAB_ERR_INIT;
    const char *const dlopened[] = { "libcuda.so.1", NULL };
    bool found = false, libc = false;

    cr_assert_not_null(mkdtemp(dir));
    snprintf(lib, sizeof(lib), "%s/libcuda.so.1", dir);
    /* any shared object stands for it: ldd lists what it needs */
    snprintf(cmd, sizeof(cmd),
             "cp \"$(ldd /bin/sh | sed -n 's/.*libc.so.6 => \\([^ ]*\\).*/\\1/p')\" %s", lib);
    cr_assert_eq(system(cmd), 0);
    setenv("LD_LIBRARY_PATH", dir, 1);
    cr_assert_eq(lab_libs_needed("/bin/sh", dlopened, &libs, &err), 0, "%s", err.msg);
    for (size_t i = 0; i < libs.n; i++) {
        found |= !strcmp(libs.v[i], lib);
        libc |= strstr(libs.v[i], "libc.so.6") != NULL;
        for (size_t j = 0; j < i; j++)
            cr_expect_str_neq(libs.v[i], libs.v[j], "listed twice");
    }
    cr_expect(found, "the libcuda of LD_LIBRARY_PATH is listed");
    cr_expect(libc, "the program's libc is listed");
    lab_strvec_release(&libs);
    unlink(lib);
    rmdir(dir);
}
