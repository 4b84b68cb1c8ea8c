/*
 * model-json.c - the performance model's times as JSON, the same object in `cudalab grade
 * --json` and `cudalab inspect --json` (see cli.h).
 */
#include "lab/cli/cli.h"

#include <cJSON.h>

static void
add_counts(cJSON *o, const lab_model_counts *c)
{
    for (int i = 0; i < LAB_MODEL_C_COUNT; i++)
        cJSON_AddNumberToObject(o, lab_model_count_names[i], c->c[i]);
}

void
lab_cli_model_json(cJSON *o, const lab_modelled *m)
{
    cJSON *mo = cJSON_AddObjectToObject(o, "model"), *roles;

    cJSON_AddStringToObject(mo, "gpu", m->gpu.name);
    cJSON_AddNumberToObject(mo, "median_abs_error", m->gpu.median_abs_error);
    /* its error on kernels it was never fitted on (kernels/gpus/NAME.ini [validation]) */
    cJSON_AddNumberToObject(mo, "heldout_kernels", m->gpu.nheldout);
    cJSON_AddNumberToObject(mo, "heldout_median_abs_error", m->gpu.heldout_median_abs_error);
    cJSON_AddNumberToObject(mo, "speedup_error_p90", m->gpu.speedup_error_p90);
    cJSON_AddNumberToObject(mo, "simulated_size", (double)m->simulated);
    cJSON_AddNumberToObject(mo, "small_size", (double)m->small);
    cJSON_AddNumberToObject(mo, "timed_size", (double)m->timed);
    cJSON_AddNumberToObject(mo, "work", m->work);
    roles = cJSON_AddObjectToObject(mo, "roles");
    for (int r = 0; r < LAB_MODELLED_ROLE_COUNT; r++) {
        cJSON *ro, *bounds;
        if (!m->has[r])
            continue;
        ro = cJSON_AddObjectToObject(roles, lab_modelled_role_names[r]);
        cJSON_AddNumberToObject(ro, "ns", m->ns[r]);
        cJSON_AddStringToObject(ro, "bound", lab_model_bound_names[m->why[r].top]);
        bounds = cJSON_AddObjectToObject(ro, "bounds_ns");
        for (int b = 0; b < LAB_MODEL_BOUND_COUNT; b++)
            cJSON_AddNumberToObject(bounds, lab_model_bound_names[b], m->why[r].ns[b]);
        add_counts(cJSON_AddObjectToObject(ro, "counts"), &m->counts[r]);
        /* as simulated, the sizes' counts the timed ones were scaled from */
        add_counts(cJSON_AddObjectToObject(ro, "counts_big"), &m->at_big[r]);
        if (m->has_small[r])
            add_counts(cJSON_AddObjectToObject(ro, "counts_small"), &m->at_small[r]);
    }
    if (m->nshapes) { /* a choice exercise: the student's kernel at every shape */
        cJSON *sweep = cJSON_AddArrayToObject(mo, "sweep");
        cJSON_AddStringToObject(mo, "choice", m->shapes[m->chosen].block);
        cJSON_AddBoolToObject(mo, "wave", m->wave);
        for (size_t i = 0; i < m->nshapes; i++) {
            const lab_modelled_shape *sh = &m->shapes[i];
            cJSON *so = cJSON_CreateObject();
            cJSON_AddStringToObject(so, "block", sh->block);
            cJSON_AddNumberToObject(so, "ns", sh->ns);
            cJSON_AddStringToObject(so, "bound", lab_model_bound_names[sh->why.top]);
            add_counts(cJSON_AddObjectToObject(so, "counts"), &sh->counts);
            add_counts(cJSON_AddObjectToObject(so, "counts_simulated"), &sh->at);
            cJSON_AddItemToArray(sweep, so);
        }
    }
}
