/*
 * modelled.c - speed verdicts on the simulator from the performance model (see modelled.h).
 */
#include "lab/grade/modelled.h"
#include "lab/util/buf.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const lab_modelled_role_names[LAB_MODELLED_ROLE_COUNT] = {
    [LAB_MODELLED_STUDENT] = "student",
    [LAB_MODELLED_BASELINE] = "baseline",
    [LAB_MODELLED_REFERENCE] = "reference",
};

double
lab_modelled_work(const lab_family *fam, unsigned long n)
{
    if (fam->size == LAB_FAMILY_SIZE_MATRIX_SIDE)
        return (double)n * (double)(n / 2 + 3);
    return (double)n;
}

int
lab_modelled_gpu(const char *datadir, const char *name, lab_model_gpu *out, lab_err *err)
{
    lab_buf dir = LAB_BUF_INIT;
    int rc;

    lab_buf_printf(&dir, "%s/" LAB_MODEL_GPU_DIR, datadir);
    rc = lab_model_gpu_find(dir.buf, name ? name : LAB_MODEL_GPU_DEFAULT, out, err);
    lab_buf_release(&dir);
    return rc;
}

unsigned long
lab_modelled_largest(const unsigned long *sizes, size_t n)
{
    unsigned long m = 0;

    for (size_t i = 0; i < n; i++)
        m = sizes[i] > m ? sizes[i] : m;
    return m;
}

void
lab_modelled_sizes(const lab_family *fam, unsigned long largest, unsigned long out[2])
{
    unsigned long elements = LAB_MODELLED_ELEMENTS;

    while (elements > 4 && lab_family_sim_limit(fam, elements) > largest)
        elements /= 2;
    out[0] = lab_family_sim_limit(fam, elements / 4);
    out[1] = lab_family_sim_limit(fam, elements);
}

static double
number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static bool
is(const cJSON *o, const char *role, unsigned long size)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "role");

    return cJSON_IsString(r) && !strcmp(r->valuestring, role) &&
           (unsigned long)number(o, "size") == size;
}

/* o is role's at size, and at the block named when block is not NULL (a sweep's). */
static bool
is_at(const cJSON *o, const char *role, unsigned long size, const char *block)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "block");

    return is(o, role, size) && (!block || (cJSON_IsString(b) && !strcmp(b->valuestring, block)));
}

/* The role's counts at size (and block) from sim_metrics, its grid from the cases: false if
 * missing.  The caller sets the threads per block. */
static bool
role_counts(const cJSON *root, const char *role, unsigned long size, const char *block,
            lab_model_counts *out)
{
    const cJSON *m, *c;
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(root, "sim_metrics");
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    bool found = false;

    memset(out, 0, sizeof(*out));
    cJSON_ArrayForEach(m, metrics)
    {
        if (!is_at(m, role, size, block))
            continue;
        for (size_t i = 0; i < LAB_MODEL_C_COUNT; i++)
            out->c[i] = number(m, lab_model_count_names[i]);
        found = true;
        break;
    }
    if (!found)
        return false;
    cJSON_ArrayForEach(c, cases)
    {
        if (is_at(c, role, size, block)) {
            out->c[LAB_MODEL_C_BLOCKS] = number(c, "grid");
            return out->c[LAB_MODEL_C_BLOCKS] > 0;
        }
    }
    return false;
}

int
lab_modelled_from_report(const char *json, size_t len, const lab_family *fam,
                         const lab_model_gpu *gpu, unsigned long small, unsigned long big,
                         unsigned long timed, lab_modelled *out, lab_err *err)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    double block, sim_sms;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (!root)
        return lab_err_set(err, LAB_EPARSE, "the simulator's report for the model does not parse");
    out->gpu = *gpu;
    out->simulated = big;
    out->small = small < big ? small : big;
    out->timed = timed;
    out->work = lab_modelled_work(fam, timed) / lab_modelled_work(fam, big);
    block = number(root, "block");
    sim_sms = number(cJSON_GetObjectItemCaseSensitive(root, "device"), "sm_count");
    for (int r = 0; r < LAB_MODELLED_ROLE_COUNT; r++) {
        if (!role_counts(root, lab_modelled_role_names[r], big, NULL, &out->at_big[r]))
            continue;
        out->at_big[r].c[LAB_MODEL_C_BLOCK_THREADS] = block;
        out->has_small[r] = small < big && role_counts(root, lab_modelled_role_names[r], small,
                                                       NULL, &out->at_small[r]);
        out->at_small[r].c[LAB_MODEL_C_BLOCK_THREADS] = block;
        lab_model_scale(out->has_small[r] ? &out->at_small[r] : NULL, lab_modelled_work(fam, small),
                        &out->at_big[r], lab_modelled_work(fam, big), lab_modelled_work(fam, timed),
                        gpu->p[LAB_MODEL_P_SM_COUNT] / (sim_sms > 0 ? sim_sms : 1),
                        &out->counts[r]);
        out->ns[r] = lab_model_time(&out->gpu, &out->counts[r], &out->why[r]);
        out->has[r] = true;
    }
    if (!out->has[LAB_MODELLED_STUDENT] || !out->has[LAB_MODELLED_REFERENCE])
        rc = lab_err_set(err, LAB_EPARSE,
                         "the simulator's report has no counts of the %s's kernel at n = %lu",
                         out->has[LAB_MODELLED_STUDENT] ? "reference" : "student", big);
    cJSON_Delete(root);
    return rc;
}

bool
lab_modelled_same_counts(const lab_modelled *m, lab_modelled_role role)
{
    const lab_model_counts *mine = &m->counts[LAB_MODELLED_STUDENT], *theirs = &m->counts[role];

    if (!m->has[LAB_MODELLED_STUDENT] || !m->has[role])
        return false;
    for (size_t i = 0; i < LAB_MODEL_C_COUNT; i++)
        if (fabs(mine->c[i] - theirs->c[i]) > 1e-9 * fabs(theirs->c[i]))
            return false;
    return true;
}

unsigned long
lab_modelled_sweep_size(const lab_family *fam, unsigned long timed)
{
    unsigned long side, keep = timed % 64;

    if (fam->size != LAB_FAMILY_SIZE_MATRIX_SIDE)
        return LAB_MODELLED_ELEMENTS / 128;
    /* a row of the timed matrix starts keep x 4 bytes past a multiple of 256 from the last: the
     * sweep's rows meet the sectors as the timed one's do (4099 x 4099/2: 3 floats past) */
    side = lab_family_sim_limit(fam, LAB_MODELLED_ELEMENTS);
    return side > 64 + keep ? (side - keep) / 64 * 64 + keep : side;
}

/* The threads of a shape named "128x2" (or "128", "8x8x4"). */
static double
shape_threads(const char *block)
{
    double threads = 1;
    char *end;

    for (const char *p = block; *p; p = end + (*end == 'x')) {
        threads *= strtod(p, &end);
        if (end == p)
            return 0;
    }
    return threads;
}

/* The graded run's part of every count per unit of work, from the student's two largest sizes
 * when its grid was the same at both (a fixed grid); false otherwise. */
static bool
graded_per_work(const char *graded, size_t len, const lab_family *fam, lab_model_counts *out)
{
    cJSON *root = cJSON_ParseWithLength(graded, len);
    const cJSON *m;
    unsigned long top[2] = { 0, 0 };
    lab_model_counts c[2];
    bool ok = false;

    if (!root)
        return false;
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(root, "sim_metrics"))
    {
        unsigned long size = (unsigned long)number(m, "size");
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(m, "role");
        if (!cJSON_IsString(r) || strcmp(r->valuestring, "student"))
            continue;
        if (size > top[1])
            top[0] = top[1], top[1] = size;
        else if (size > top[0] && size < top[1])
            top[0] = size;
    }
    if (top[0] && role_counts(root, "student", top[0], NULL, &c[0]) &&
        role_counts(root, "student", top[1], NULL, &c[1]) &&
        c[0].c[LAB_MODEL_C_BLOCKS] == c[1].c[LAB_MODEL_C_BLOCKS]) {
        double dw = lab_modelled_work(fam, top[1]) - lab_modelled_work(fam, top[0]);
        for (size_t i = 0; i < LAB_MODEL_C_COUNT; i++)
            out->c[i] = (c[1].c[i] - c[0].c[i]) / dw;
        out->c[LAB_MODEL_C_BLOCKS] = out->c[LAB_MODEL_C_WARPS] = 0;
        ok = true;
    }
    cJSON_Delete(root);
    return ok;
}

int
lab_modelled_sweep_from_report(const char *json, size_t len, const char *graded, size_t graded_len,
                               const lab_family *fam, const lab_model_gpu *gpu, unsigned long size,
                               unsigned long timed, double smem_block, const char *choice,
                               lab_modelled *out, lab_err *err)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    const cJSON *m;
    lab_model_counts per_work;
    const double work = lab_modelled_work(fam, size), timed_work = lab_modelled_work(fam, timed);
    int rc = 0;

    memset(out, 0, sizeof(*out));
    out->chosen = -1;
    if (!root)
        return lab_err_set(err, LAB_EPARSE, "the simulator's report for the model does not parse");
    out->gpu = *gpu;
    out->simulated = out->small = size;
    out->timed = timed;
    out->work = timed_work / work;
    out->wave = graded_per_work(graded, graded_len, fam, &per_work);
    cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(root, "sim_metrics"))
    {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(m, "block");
        lab_modelled_shape *s = &out->shapes[out->nshapes];
        if (!cJSON_IsString(b) || !is(m, "student", size) ||
            out->nshapes == LAB_MODELLED_MAX_SHAPES)
            continue;
        snprintf(s->block, sizeof(s->block), "%s", b->valuestring);
        if (!role_counts(root, "student", size, s->block, &s->at))
            continue;
        s->at.c[LAB_MODEL_C_BLOCK_THREADS] = shape_threads(s->block);
        s->at.c[LAB_MODEL_C_SMEM_BLOCK] = smem_block;
        if (out->wave)
            lab_model_scale_wave(gpu->p, &s->at, work, &per_work, timed_work,
                                 ceil(timed_work / s->at.c[LAB_MODEL_C_BLOCK_THREADS]), &s->counts);
        else
            lab_model_scale(NULL, 0, &s->at, work, timed_work, 1, &s->counts);
        s->ns = lab_model_time(&out->gpu, &s->counts, &s->why);
        if (!strcmp(s->block, choice))
            out->chosen = (int)out->nshapes;
        out->nshapes++;
    }
    if (out->chosen < 0) {
        rc = lab_err_set(err, LAB_EPARSE,
                         "the simulator's report has no counts of the student's kernel at block "
                         "%s at n = %lu",
                         choice, size);
    } else {
        const lab_modelled_shape *s = &out->shapes[out->chosen];
        out->at_big[LAB_MODELLED_STUDENT] = s->at;
        out->counts[LAB_MODELLED_STUDENT] = s->counts;
        out->ns[LAB_MODELLED_STUDENT] = s->ns;
        out->why[LAB_MODELLED_STUDENT] = s->why;
        out->has[LAB_MODELLED_STUDENT] = true;
    }
    cJSON_Delete(root);
    return rc;
}
