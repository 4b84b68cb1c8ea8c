/*
 * demomodel.c - a demo's times on the simulator, modelled (see demomodel.h): each launch run on
 * the simulator at the sizes it can afford, its counts scaled to the launch's own work and
 * given to the performance model.
 */
#include "common/demomodel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int
lab_demomodel_open(lab_demodrv *d, const char *path, lab_err *err)
{
    cJSON *m;
    int rc;

    if ((rc = lab_model_gpu_load(path, &d->model_gpu, err)) < 0)
        return rc;
    d->modelled = true;
    /* the simulator stands for the GPU modelled: its datasheet figures, and a copy's rate as
     * the model's DRAM bound reaches it */
    d->info.peak_gbps = d->model_gpu.p[LAB_MODEL_P_DRAM_GBPS];
    d->info.sm_clock_khz = (int)(d->model_gpu.p[LAB_MODEL_P_CLOCK_GHZ] * 1e6);
    d->info.l2_bytes = (int)d->model_gpu.p[LAB_MODEL_P_L2_BYTES];
    d->copy_gbps = d->model_gpu.p[LAB_MODEL_P_DRAM_GBPS] * d->model_gpu.p[LAB_MODEL_P_DRAM_EFF];
    cJSON_ReplaceItemInObject(d->report, "timing", cJSON_CreateString("modelled"));
    if (!(m = cJSON_AddObjectToObject(d->report, "model")))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    cJSON_AddStringToObject(m, "gpu", d->model_gpu.name);
    cJSON_AddStringToObject(m, "file", path);
    cJSON_AddNumberToObject(m, "median_abs_error", d->model_gpu.median_abs_error);
    cJSON_AddNumberToObject(m, "within_20", d->model_gpu.within_20);
    cJSON_AddNumberToObject(m, "kernels", d->model_gpu.nvalidated);
    cJSON_AddNumberToObject(m, "counted_work", (double)LAB_DEMOMODEL_WORK);
    return 0;
}

void
lab_demomodel_counts(const lab_sim_metrics *m, const lab_demodrv_launch *l, lab_model_counts *out)
{
    static const struct {
        lab_model_count count;
        size_t offset;
    } fields[] = {
        { LAB_MODEL_C_WARPS, offsetof(lab_sim_metrics, warps) },
        { LAB_MODEL_C_WARP_INSTS, offsetof(lab_sim_metrics, warp_insts) },
        { LAB_MODEL_C_BRANCHES, offsetof(lab_sim_metrics, branches) },
        { LAB_MODEL_C_DIVERGENT, offsetof(lab_sim_metrics, divergent) },
        { LAB_MODEL_C_GLD_REQUESTS, offsetof(lab_sim_metrics, gld_requests) },
        { LAB_MODEL_C_GLD_SECTORS, offsetof(lab_sim_metrics, gld_sectors) },
        { LAB_MODEL_C_GLD_BLOCK_SECTORS, offsetof(lab_sim_metrics, gld_block_sectors) },
        { LAB_MODEL_C_GLD_ROUNDS, offsetof(lab_sim_metrics, gld_rounds) },
        { LAB_MODEL_C_INT_DIVS, offsetof(lab_sim_metrics, int_divs) },
        { LAB_MODEL_C_GST_REQUESTS, offsetof(lab_sim_metrics, gst_requests) },
        { LAB_MODEL_C_GST_SECTORS, offsetof(lab_sim_metrics, gst_sectors) },
        { LAB_MODEL_C_SHARED_REQUESTS, offsetof(lab_sim_metrics, shared_requests) },
        { LAB_MODEL_C_SHARED_WAVEFRONTS, offsetof(lab_sim_metrics, shared_wavefronts) },
        { LAB_MODEL_C_GATOM_REQUESTS, offsetof(lab_sim_metrics, gatom_requests) },
        { LAB_MODEL_C_GATOM_SECTORS, offsetof(lab_sim_metrics, gatom_sectors) },
        { LAB_MODEL_C_SATOM_REQUESTS, offsetof(lab_sim_metrics, shared_atom_requests) },
        { LAB_MODEL_C_SATOM_SERIAL, offsetof(lab_sim_metrics, shared_atom_serial) },
        { LAB_MODEL_C_CHILD_GRIDS, offsetof(lab_sim_metrics, child_grids) },
    };

    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
        out->c[fields[i].count] = (double)*(const uint64_t *)((const char *)m + fields[i].offset);
    out->c[LAB_MODEL_C_BLOCKS] = (double)l->grid.x * l->grid.y * l->grid.z;
    out->c[LAB_MODEL_C_BLOCK_THREADS] = (double)l->block.x * l->block.y * l->block.z;
    out->c[LAB_MODEL_C_IN_BYTES] = l->in_bytes;
    out->c[LAB_MODEL_C_OUT_BYTES] = l->out_bytes;
}

/* One run of l on the simulator, its counts into out. */
static int
count(lab_demodrv *d, lab_demodrv_launch *l, lab_model_counts *out, lab_err *err)
{
    lab_sim_result res;
    int rc;

    (void)lab_dev_sim_take(d->dev, &res, NULL); /* the launches before are not this one's */
    if ((rc = d->ops->launch(l->m, l->kernel, l->grid, l->block, 0, l->args, err)) < 0 ||
        (rc = d->ops->sync(d->dev, err)) < 0)
        return rc;
    if (!lab_dev_sim_take(d->dev, &res, NULL))
        return lab_err_set(err, LAB_EDEVICE, "the simulator counted no launch of %s", l->kernel);
    if (res.fatal || res.first.kind != LAB_SIM_CHECK_NONE)
        return lab_err_set(err, LAB_EDEVICE, "%s on the simulator: %s", l->kernel, res.first.msg);
    lab_demomodel_counts(&res.metrics, l, out);
    return 0;
}

/* l's counts at its own work: simulated as it is, or at two smaller works and scaled. */
static int
counts_at_work(lab_demodrv *d, lab_demodrv_launch *l, lab_model_counts *out, double counted[2],
               lab_err *err)
{
    const double sm_ratio =
        d->model_gpu.p[LAB_MODEL_P_SM_COUNT] / (d->info.sm_count > 0 ? d->info.sm_count : 1);
    lab_model_counts small, big;
    double ws, wb = 0;
    int rc;

    counted[0] = counted[1] = l->work;
    if (!l->resize || l->work <= (double)LAB_DEMOMODEL_WORK)
        return count(d, l, out, err);
    ws = l->resize(l, (double)LAB_DEMOMODEL_WORK / 4);
    if ((rc = count(d, l, &small, err)) == 0) {
        wb = l->resize(l, (double)LAB_DEMOMODEL_WORK);
        rc = count(d, l, &big, err);
    }
    l->resize(l, l->work);
    if (rc < 0)
        return rc;
    lab_model_scale(&small, ws, &big, wb, l->work, sm_ratio, out);
    out->c[LAB_MODEL_C_IN_BYTES] = l->in_bytes;
    out->c[LAB_MODEL_C_OUT_BYTES] = l->out_bytes;
    counted[0] = ws;
    counted[1] = wb;
    return 0;
}

static void
add_launch(lab_demodrv *d, const lab_demodrv_launch *l, double us, const lab_model_why *why,
           const double counted[2])
{
    cJSON *o = cJSON_CreateObject(), *c;
    char shape[32];

    if (!o)
        return;
    cJSON_AddStringToObject(o, "kernel", l->kernel);
    lab_dim3_format(l->grid, "", "x", "", shape, sizeof(shape));
    cJSON_AddStringToObject(o, "grid", shape);
    lab_dim3_format(l->block, "", "x", "", shape, sizeof(shape));
    cJSON_AddStringToObject(o, "block", shape);
    cJSON_AddNumberToObject(o, "us", us);
    cJSON_AddStringToObject(o, "bound", lab_model_bound_names[why->top]);
    cJSON_AddNumberToObject(o, "work", l->work);
    if ((c = cJSON_AddArrayToObject(o, "counted"))) {
        cJSON_AddItemToArray(c, cJSON_CreateNumber(counted[0]));
        if (counted[1] != counted[0])
            cJSON_AddItemToArray(c, cJSON_CreateNumber(counted[1]));
    }
    if (!d->model_launches)
        d->model_launches = cJSON_CreateArray();
    cJSON_AddItemToArray(d->model_launches, o);
}

int
lab_demomodel_time(lab_demodrv *d, lab_demodrv_launch *launches, size_t n, double *us, lab_err *err)
{
    for (size_t i = 0; i < n; i++) {
        lab_model_counts c;
        lab_model_why why;
        double counted[2];
        int rc;

        if ((rc = counts_at_work(d, &launches[i], &c, counted, err)) < 0)
            return rc;
        us[i] = lab_model_time(&d->model_gpu, &c, &why) / 1e3;
        add_launch(d, &launches[i], us[i], &why, counted);
    }
    return 0;
}

double
lab_demodrv_resize_grid(lab_demodrv_launch *l, double work)
{
    const double threads = l->block.x > 0 ? l->block.x : 1;

    l->grid.x = (unsigned)(work / threads > 1 ? work / threads : 1);
    return l->grid.x * threads;
}

cJSON *
lab_demomodel_take(lab_demodrv *d)
{
    cJSON *l = d->model_launches;

    d->model_launches = NULL;
    return l;
}
