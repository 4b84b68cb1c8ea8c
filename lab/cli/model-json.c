/*
 * model-json.c - the performance model's times as JSON, the same object in `cudalab grade
 * --json` and `cudalab inspect --json` (see cli.h).
 */
#include "lab/cli/cli.h"

#include <cJSON.h>

void
lab_cli_model_json(cJSON *o, const lab_modelled *m)
{
    cJSON *mo = cJSON_AddObjectToObject(o, "model"), *roles;

    cJSON_AddStringToObject(mo, "gpu", m->gpu.name);
    cJSON_AddNumberToObject(mo, "median_abs_error", m->gpu.median_abs_error);
    cJSON_AddNumberToObject(mo, "simulated_size", (double)m->simulated);
    cJSON_AddNumberToObject(mo, "timed_size", (double)m->timed);
    cJSON_AddNumberToObject(mo, "work", m->work);
    roles = cJSON_AddObjectToObject(mo, "roles");
    for (int r = 0; r < LAB_MODELLED_ROLE_COUNT; r++) {
        cJSON *ro, *bounds, *counts;
        if (!m->has[r])
            continue;
        ro = cJSON_AddObjectToObject(roles, lab_modelled_role_names[r]);
        cJSON_AddNumberToObject(ro, "ns", m->ns[r]);
        cJSON_AddStringToObject(ro, "bound", lab_model_bound_names[m->why[r].top]);
        bounds = cJSON_AddObjectToObject(ro, "bounds_ns");
        for (int b = 0; b < LAB_MODEL_BOUND_COUNT; b++)
            cJSON_AddNumberToObject(bounds, lab_model_bound_names[b], m->why[r].ns[b]);
        counts = cJSON_AddObjectToObject(ro, "counts");
        for (int c = 0; c < LAB_MODEL_C_COUNT; c++)
            cJSON_AddNumberToObject(counts, lab_model_count_names[c], m->counts[r].c[c]);
    }
}
