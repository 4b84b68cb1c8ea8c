/*
 * modelled.c - speed verdicts on the simulator from the performance model (see modelled.h).
 */
#include "lab/grade/modelled.h"
#include "lab/util/i18n.h"

#include <cJSON.h>
#include <stdio.h>
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

/* The role's counts at size from sim_metrics, its grid from the cases: false if missing. */
static bool
role_counts(const cJSON *root, const char *role, unsigned long size, double block_threads,
            lab_model_counts *out)
{
    const cJSON *m, *c;
    const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(root, "sim_metrics");
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
    bool found = false;

    memset(out, 0, sizeof(*out));
    cJSON_ArrayForEach(m, metrics)
    {
        if (!is(m, role, size))
            continue;
        for (size_t i = 0; i < LAB_MODEL_C_COUNT; i++)
            out->c[i] = number(m, lab_model_count_names[i]);
        found = true;
        break;
    }
    if (!found)
        return false;
    found = false;
    cJSON_ArrayForEach(c, cases)
    {
        if (is(c, role, size)) {
            out->c[LAB_MODEL_C_BLOCKS] = number(c, "grid");
            found = true;
            break;
        }
    }
    out->c[LAB_MODEL_C_BLOCK_THREADS] = block_threads;
    return found && out->c[LAB_MODEL_C_BLOCKS] > 0;
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
        if (!role_counts(root, lab_modelled_role_names[r], big, block, &out->at_big[r]))
            continue;
        out->has_small[r] = small < big && role_counts(root, lab_modelled_role_names[r], small,
                                                       block, &out->at_small[r]);
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

void
lab_modelled_judge(const lab_exercise *ex, const char *baseline_name, const lab_modelled *m,
                   lab_grade_result *out)
{
    const double st = m->ns[LAB_MODELLED_STUDENT], rt = m->ns[LAB_MODELLED_REFERENCE];
    char error[96];
    bool pass;

    snprintf(error, sizeof(error), "%s", _("its error not yet measured"));
    if (m->gpu.nvalidated > 0)
        snprintf(error, sizeof(error),
                 ngettext("median error %.0f%% on %d kernel of the course",
                          "median error %.0f%% on %d kernels of the course", m->gpu.nvalidated),
                 100 * m->gpu.median_abs_error, m->gpu.nvalidated);
    if (m->has[LAB_MODELLED_BASELINE]) {
        const double bt = m->ns[LAB_MODELLED_BASELINE];
        double speedup = bt / st, ref = bt / rt, fraction = speedup / ref;

        pass = speedup >= ex->min_speedup && fraction >= ex->min_fraction_of_reference;
        lab_grade_set(out, ex, pass ? LAB_VERDICT_PASS : LAB_VERDICT_SLOW,
                      _("modelled for an %s, not measured (%s): %.2fx over %s (needs %.2fx); "
                        "%.0f%% of the reference's %.2fx (needs %.0f%%)"),
                      m->gpu.name, error, speedup, baseline_name, ex->min_speedup, 100 * fraction,
                      ref, 100 * ex->min_fraction_of_reference);
        out->speedup = speedup;
        out->reference_speedup = ref;
        out->fraction = fraction;
    } else { /* over the CPU: the CPU is not modelled */
        double fraction = rt / st;

        pass = fraction >= ex->min_fraction_of_reference;
        lab_grade_set(out, ex, pass ? LAB_VERDICT_PASS : LAB_VERDICT_SLOW,
                      _("modelled for an %s, not measured (%s): %.1f us, %.0f%% of the reference's "
                        "speed (needs %.0f%%); %s is not modelled"),
                      m->gpu.name, error, st / 1e3, 100 * fraction,
                      100 * ex->min_fraction_of_reference, baseline_name);
        out->fraction = fraction;
    }
    out->median_ns = st;
}
