/*
 * gpu.c - a GPU's model parameters from its data file (see model.h): kernels/gpus/NAME.ini,
 * written by tests/model/fit.py.
 *
 *   [gpu]         name, then any parameter of model.def by its name
 *   [validation]  median_abs_error, within_20 (fractions), kernels (how many it was measured on)
 */
#include "lab/model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/util/inifile.h"

struct parse {
    lab_inifile ini;
    const char *path;
    lab_model_gpu *gpu;
    lab_err *err;
    int rc;
};

static int
on_key(void *user, const char *section, const char *name, const char *value)
{
    struct parse *ps = user;
    lab_model_gpu *gpu = ps->gpu;
    double v = 0;

    if (ps->rc < 0)
        return 0;
    if (!strcmp(section, "gpu") && !strcmp(name, "name")) {
        snprintf(gpu->name, sizeof(gpu->name), "%s", value);
        return 1;
    }
    if (!lab_inifile_number(value, &v) || v < 0) {
        ps->rc = lab_err_set(ps->err, LAB_EPARSE, "%s:%d: '%s' is not a number >= 0", ps->path,
                             ps->ini.line, value);
        return 0;
    }
    if (!strcmp(section, "gpu")) {
        for (size_t i = 0; i < LAB_MODEL_P_COUNT; i++)
            if (!strcmp(name, lab_model_param_names[i])) {
                gpu->p[i] = v;
                return 1;
            }
    } else if (!strcmp(section, "validation")) {
        if (!strcmp(name, "median_abs_error"))
            return gpu->median_abs_error = v, 1;
        if (!strcmp(name, "within_20"))
            return gpu->within_20 = v, 1;
        if (!strcmp(name, "kernels"))
            return gpu->nvalidated = (int)v, 1;
    }
    ps->rc = lab_err_set(ps->err, LAB_EPARSE, "%s:%d: unknown key '%s' in [%s]", ps->path,
                         ps->ini.line, name, section);
    return 0;
}

int
lab_model_gpu_load(const char *path, lab_model_gpu *gpu, lab_err *err)
{
    struct parse ps = { .path = path, .gpu = gpu, .err = err };
    int rc;

    lab_model_gpu_defaults(gpu);
    if ((rc = lab_inifile_parse(path, &ps.ini, on_key, &ps, err)) < 0 && ps.rc == 0)
        return rc;
    if (ps.rc < 0)
        return ps.rc;
    if (rc != 0)
        return lab_err_set(err, LAB_EPARSE, "%s:%d: not an INI line", path, rc);
    return 0;
}
