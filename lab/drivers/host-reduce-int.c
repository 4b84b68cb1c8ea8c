/*
 * host-reduce-int.c - the driver for host-code integer reductions:
 *
 *     int recursiveReduce(int *data, int const size)
 *
 * the notes' CPU oracle, written by the student.  The function may overwrite
 * data[0..size) and returns the sum of its size elements (32-bit wrap-around,
 * as the GPU adds).  It runs in a child process of its own (lab/harness/host.h);
 * data lives in memory shared with the driver, followed by a guard zone that
 * must stay untouched.  Graded on correctness: each size once for the student
 * and once for the reference.
 */
#include "lab/harness/driver.h"
#include "lab/harness/host.h"
#include "lab/harness/report.h"
#include "lab/harness/rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64
#define POISON 0x00100001u
#define CALL_TIMEOUT_S 20.0

typedef int (*reduce_fn)(int *data, int size);

/* The report's error stage for each outcome (lab/grade/policy.c maps it to a verdict). */
static const char *const stage_of[LAB_HOST_STATUS_COUNT] = {
    [LAB_HOST_OK] = "run",
    [LAB_HOST_NO_FUNCTION] = "load",
    [LAB_HOST_CRASHED] = "run",
    [LAB_HOST_TIMEOUT] = "timeout",
};

/* Shared with the child: the data it reduces, then the guard zone; the result before them. */
typedef struct call_area {
    int32_t result;
    uint32_t n;
    uint32_t data[]; /* n + GUARD */
} call_area;

static void
call_reduce(void *function, void *shared)
{
    call_area *a = shared;

    a->result = ((reduce_fn)function)((int *)a->data, (int)a->n);
}

static void
add_case(lab_driver *d, lab_role role, unsigned long n, bool correct, uint32_t expected,
         uint32_t got, const char *detail)
{
    cJSON *c = cJSON_CreateObject();

    if (!c)
        return;
    cJSON_AddNumberToObject(c, "size", (double)n);
    cJSON_AddStringToObject(c, "role", lab_role_names[role]);
    cJSON_AddNumberToObject(c, "grid", 0);
    cJSON_AddBoolToObject(c, "correct", correct);
    cJSON_AddNumberToObject(c, "expected", (int32_t)expected);
    cJSON_AddNumberToObject(c, "got", (int32_t)got);
    cJSON_AddNumberToObject(c, "bad", correct ? 0 : 1);
    cJSON_AddNumberToObject(c, "first_bad", correct ? -1 : 0);
    cJSON_AddStringToObject(c, "detail", detail);
    cJSON_AddItemToArray(d->cases, c);
}

/* Calls role's function on input[0..n); records the case, or fails the report. */
static int
check_role(lab_driver *d, lab_role role, const uint32_t *input, unsigned long n, uint32_t sum,
           lab_err *err)
{
    char mangled[256], detail[256] = "";
    const char *symbols[] = { mangled, d->args.kernel[role] };
    const size_t bytes = sizeof(call_area) + (n + GUARD) * sizeof(uint32_t);
    call_area *a;
    lab_host_outcome out;
    lab_host_call call = { d->args.module[role], symbols, 2, call_reduce, NULL, CALL_TIMEOUT_S };
    bool correct;
    int rc;

    snprintf(mangled, sizeof(mangled), "_Z%zu%sPii", strlen(d->args.kernel[role]),
             d->args.kernel[role]);
    if (!(a = lab_host_shared_alloc(bytes, err)))
        return lab_driver_fail(d, role, "setup", n, err);
    a->n = (uint32_t)n;
    memcpy(a->data, input, n * sizeof(uint32_t));
    for (size_t i = n; i < n + GUARD; i++)
        a->data[i] = POISON;
    call.shared = a;
    if ((rc = lab_host_run(&call, &out, err)) < 0) {
        lab_host_shared_free(a, bytes);
        return lab_driver_fail(d, role, "run", n, err);
    }
    if (out.status != LAB_HOST_OK) {
        if (out.status == LAB_HOST_NO_FUNCTION)
            lab_err_set(err, LAB_ENOENT, "the file %s", out.detail);
        else
            lab_err_set(err, LAB_EDEVICE, "%s %s", d->args.kernel[role], out.detail);
        lab_host_shared_free(a, bytes);
        return lab_driver_fail(d, role, stage_of[out.status], n, err);
    }
    correct = (uint32_t)a->result == sum;
    if (!correct)
        snprintf(detail, sizeof(detail), "returned %d for %lu elements whose sum is %d", a->result,
                 n, (int32_t)sum);
    for (size_t i = n; i < n + GUARD && correct; i++)
        if (a->data[i] != POISON) {
            correct = false;
            snprintf(detail, sizeof(detail), "wrote data[%zu], past the %lu elements", i, n);
        }
    add_case(d, role, n, correct, sum, (uint32_t)a->result, detail);
    lab_host_shared_free(a, bytes);
    return 0;
}

static void
run(lab_driver *d)
{
    lab_err err = LAB_ERR_INIT;
    const lab_role roles[] = { LAB_ROLE_STUDENT, LAB_ROLE_REFERENCE };
    lab_rng rng;

    lab_rng_seed(&rng, d->args.seed);
    for (size_t s = 0; s < d->args.nsizes && !d->failed; s++) {
        unsigned long n = d->args.sizes[s];
        uint32_t *input = malloc(n * sizeof(uint32_t)), sum = 0;

        if (!input) {
            lab_err_set(&err, LAB_ENOMEM, "out of memory for %lu elements", n);
            lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", n, &err);
            break;
        }
        lab_rng_fill_bytes(&rng, input, n);
        for (size_t i = 0; i < n; i++)
            sum += input[i];
        for (size_t r = 0; r < ARRAY_SIZE(roles) && !d->failed; r++)
            check_role(d, roles[r], input, n, sum, &err);
        free(input);
    }
}

int
main(int argc, char **argv)
{
    lab_driver d;

    if (lab_driver_start(&d, argc, argv, "host-reduce-int", "Pii") == 0 && !d.args.probe)
        run(&d);
    return lab_driver_finish(&d);
}
