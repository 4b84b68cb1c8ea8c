/*
 * gpu.c - a GPU's model parameters from its data file (see model.h): kernels/gpus/NAME.ini,
 * written by tests/model/fit.py.
 *
 *   [gpu]         name, then any parameter of model.def by its name
 *   [validation]  what the model's times were measured against on this GPU (model.h):
 *                 median_abs_error, within_20, kernels (the kernels it was fitted on);
 *                 heldout_kernels, heldout_median_abs_error, speedup_error_p90 (kernels it was
 *                 never fitted on: the grader's error band, lab/grade/policy.h)
 */
#include "lab/model/model.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/util/buf.h"
#include "lab/util/dirlist.h"
#include "lab/util/i18n.h"
#include "lab/util/inifile.h"

/* The keys of [validation]: fractions, or counts of kernels. */
static const struct validation_key {
    const char *name;
    size_t offset;
    bool count;
} validation_keys[] = {
    { "median_abs_error", offsetof(lab_model_gpu, median_abs_error), false },
    { "within_20", offsetof(lab_model_gpu, within_20), false },
    { "kernels", offsetof(lab_model_gpu, nvalidated), true },
    { "heldout_kernels", offsetof(lab_model_gpu, nheldout), true },
    { "heldout_median_abs_error", offsetof(lab_model_gpu, heldout_median_abs_error), false },
    { "speedup_error_p90", offsetof(lab_model_gpu, speedup_error_p90), false },
};

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
        for (size_t i = 0; i < ARRAY_SIZE(validation_keys); i++) {
            const struct validation_key *k = &validation_keys[i];
            if (strcmp(name, k->name))
                continue;
            if (k->count)
                *(int *)((char *)gpu + k->offset) = (int)v;
            else
                *(double *)((char *)gpu + k->offset) = v;
            return 1;
        }
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

int
lab_model_gpu_names(const char *dir, lab_strvec *out)
{
    return lab_dirlist(dir, ".ini", false, out);
}

/* A name made of lower-case letters, digits and '-': never a path. */
static bool
is_gpu_name(const char *name)
{
    if (!*name || strlen(name) > 32)
        return false;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
            return false;
    return true;
}

int
lab_model_gpu_find(const char *dir, const char *name, lab_model_gpu *gpu, lab_err *err)
{
    lab_buf path = LAB_BUF_INIT, known = LAB_BUF_INIT;
    lab_strvec names = LAB_STRVEC_INIT;
    int rc;

    lab_buf_printf(&path, "%s/%s.ini", dir, name);
    if (is_gpu_name(name) && access(path.buf, F_OK) == 0) {
        rc = lab_model_gpu_load(path.buf, gpu, err);
        goto out;
    }
    lab_model_gpu_names(dir, &names);
    for (size_t i = 0; i < names.n; i++)
        lab_buf_printf(&known, "%s%s", i ? ", " : "", names.v[i]);
    rc = names.n ? lab_err_set(err, LAB_EINVAL, _("unknown GPU '%s': the model knows %s"), name,
                               known.buf)
                 : lab_err_set(err, LAB_EINVAL,
                               _("unknown GPU '%s': the model knows none (no kernels/gpus/*.ini)"),
                               name);
out:
    lab_strvec_release(&names);
    lab_buf_release(&known);
    lab_buf_release(&path);
    return rc;
}
