/*
 * choose.c - the student picks the block shape; the driver sweeps them all
 * (see choose.h).
 */
#include "common/choose.h"
#include "common/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
label(lab_dim3 s, char *buf, size_t size)
{
    lab_dim3_format(s, "", "x", "", buf, size);
}

static void
list_shapes(const lab_driver *d, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < d->args.nblocks && used + 16 < size; i++) {
        char one[32];
        label(d->args.blocks[i], one, sizeof(one));
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", one);
    }
}

static const char *const dims[3] = { "chosenBlockX", "chosenBlockY", "chosenBlockZ" };

int
lab_choose_read(lab_driver *d, lab_role role, lab_dim3 *out, lab_err *err)
{
    unsigned v[3] = { 1, 1, 1 };
    char shapes[256], got[48];
    lab_dptr p;
    size_t bytes;
    int rc;

    for (int i = 0; i < 3; i++) {
        if (d->ops->symbol(d->module[role], dims[i], &p, &bytes, err) < 0) {
            if (i == 0)
                return lab_err_set(err, LAB_ENOENT,
                                   "defines no __device__ unsigned int chosenBlockX (the block "
                                   "size you choose)");
            continue; /* y and z default to 1 */
        }
        if (bytes != sizeof(v[i]))
            return lab_err_set(err, LAB_EINVAL, "%s is %zu bytes: it must be one unsigned int",
                               dims[i], bytes);
        if ((rc = d->ops->copy_out(d->dev, &v[i], p, bytes, err)) < 0)
            return rc;
    }
    *out = (lab_dim3){ v[0], v[1], v[2] };
    for (size_t i = 0; i < d->args.nblocks; i++)
        if (!memcmp(&d->args.blocks[i], out, sizeof(*out)))
            return 0;
    list_shapes(d, shapes, sizeof(shapes));
    label(*out, got, sizeof(got));
    return lab_err_set(err, LAB_EINVAL,
                       "chosenBlock %s is not one of the shapes this exercise sweeps: %s", got,
                       shapes);
}

void
lab_choose_check(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err)
{
    static const lab_role roles[] = { LAB_ROLE_STUDENT, LAB_ROLE_REFERENCE };

    /* The reference is the lab's own file with another constant and is never timed here: on the
     * slow simulator the student's check is all a grading needs (check-exercise grades the
     * reference as a student). */
    size_t nroles = lab_driver_is_sim(d) ? 1 : sizeof(roles) / sizeof(roles[0]);

    for (size_t i = 0; i < nroles && !d->failed; i++) {
        lab_dim3 shape;
        if (lab_choose_read(d, roles[i], &shape, err) == 0) {
            check(ctx, roles[i], shape, err);
        } else if (roles[i] == LAB_ROLE_STUDENT) {
            lab_finding f = { .first_bad = -1 };
            lab_finding_count(&f, 0, 1, 1, -1);
            snprintf(f.detail, sizeof(f.detail), "%.255s", err->msg);
            lab_driver_add_case(d, 0, roles[i], &f, err);
            return; /* nothing to check it at */
        } else {
            lab_driver_fail(d, roles[i], "setup", 0, err);
        }
    }
}

/* Theoretical occupancy of the student's kernel at shape s, -1 when the backend cannot say. */
static double
occupancy(lab_driver *d, lab_dim3 s)
{
    unsigned threads = s.x * s.y * s.z;
    lab_err err = LAB_ERR_INIT;
    lab_occupancy o;

    if (!d->ops->occupancy || d->info.max_threads_per_sm <= 0 ||
        d->ops->occupancy(d->module[LAB_ROLE_STUDENT], d->mangled[LAB_ROLE_STUDENT], threads, 0, &o,
                          &err) < 0)
        return -1;
    return (double)o.blocks_per_sm * ((threads + 31) / 32) * 32 / d->info.max_threads_per_sm;
}

static void
add_row(cJSON *rows, lab_driver *d, lab_dim3 s, const char *error, const lab_timing_result *res,
        double bytes)
{
    const lab_stats *ns = res ? &res->ns : NULL;
    cJSON *r = cJSON_CreateObject();
    char name[32];

    if (!r)
        return;
    label(s, name, sizeof(name));
    cJSON_AddStringToObject(r, "block", name);
    cJSON_AddNumberToObject(r, "threads", s.x * s.y * s.z);
    cJSON_AddBoolToObject(r, "launched", !error);
    cJSON_AddStringToObject(r, "error", error ? error : "");
    cJSON_AddNumberToObject(r, "median_ns", ns ? ns->median : 0);
    cJSON_AddNumberToObject(r, "ci_rel", ns ? ns->ci_rel : 0);
    cJSON_AddNumberToObject(r, "samples", ns ? (double)ns->samples : 0);
    cJSON_AddNumberToObject(r, "gbps", ns && ns->median > 0 ? bytes / ns->median : 0);
    cJSON_AddNumberToObject(r, "occupancy", occupancy(d, s));
    cJSON_AddNumberToObject(r, "verified", res ? (double)res->verified : 0);
    cJSON_AddBoolToObject(r, "wrong", res && res->wrong);
    if (res && res->wrong)
        cJSON_AddStringToObject(r, "wrong_detail", res->why);
    cJSON_AddItemToArray(rows, r);
}

int
lab_choose_sweep(lab_driver *d, unsigned long n, double bytes, const lab_timed_kernel *kernels,
                 size_t nk, lab_err *err)
{
    lab_timed_kernel timed[LAB_TIMING_MAX_KERNELS];
    lab_timing_result results[LAB_TIMING_MAX_KERNELS];
    char errors[LAB_TIMING_MAX_KERNELS][200];
    char name[32];
    lab_dim3 chosen;
    size_t nt = 0;
    cJSON *sweep, *rows;
    lab_timing_opts opts = d->args.timing;

    opts.checks = 0; /* the same kernel at every shape: one in 16 of each shape's samples */
    if (lab_choose_read(d, LAB_ROLE_STUDENT, &chosen, err) < 0)
        return 0; /* the cases already say why */
    for (size_t i = 0; i < nk; i++) {
        lab_err why = LAB_ERR_INIT;
        errors[i][0] = '\0';
        /* one untimed run: a shape the kernel cannot be launched with is a row, not a fault */
        if ((kernels[i].prepare && kernels[i].prepare(kernels[i].ctx, 0, err) < 0) ||
            kernels[i].launch(kernels[i].ctx, 0, &why) < 0) {
            snprintf(errors[i], sizeof(errors[i]), "%.190s", why.msg);
            continue;
        }
        if (d->ops->sync(d->dev, err) < 0)
            return lab_driver_fail(d, LAB_ROLE_STUDENT, "run", n, err);
        timed[nt++] = kernels[i];
    }
    if (nt && lab_timing_run(&d->timing, timed, nt, &opts, results, err) < 0)
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "timing", n, err);
    if (!(sweep = cJSON_AddObjectToObject(d->report, "sweep")))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    label(chosen, name, sizeof(name));
    cJSON_AddNumberToObject(sweep, "size", (double)n);
    cJSON_AddNumberToObject(sweep, "bytes", bytes);
    cJSON_AddStringToObject(sweep, "choice", name);
    cJSON_AddBoolToObject(sweep, "capped", nt && results[0].capped);
    rows = cJSON_AddArrayToObject(sweep, "rows");
    for (size_t i = 0, k = 0; i < nk; i++)
        add_row(rows, d, d->args.blocks[i], errors[i][0] ? errors[i] : NULL,
                errors[i][0] ? NULL : &results[k++], bytes);
    return 0;
}

void
lab_choose_check_size(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err)
{
    if (d->failed)
        return;
    if (d->args.choose_block)
        lab_choose_check(d, check, ctx, err);
    else
        lab_driver_check_shapes(d, check, ctx, err);
}
