/*
 * timesize.c - timing one size of a family (see timesize.h).
 */
#include "common/timesize.h"
#include "common/report.h"
#include "lab/core/clock.h"

#define CPU_MIN_SAMPLES 5
#define CPU_MAX_SAMPLES 30
#define CPU_TIME_CAP_S 1.5

bool
lab_driver_is_timing_size(const lab_driver *d, unsigned long n)
{
    for (size_t i = 0; i < d->args.ntiming_sizes; i++)
        if (d->args.timing_sizes[i] == n)
            return true;
    return false;
}

static void
time_cpu(const lab_size_timing *s, lab_stats *out)
{
    double ns[CPU_MAX_SAMPLES];
    double start = lab_clock_now();
    size_t k = 0;

    while (k < CPU_MAX_SAMPLES &&
           (k < CPU_MIN_SAMPLES || lab_clock_now() - start < CPU_TIME_CAP_S)) {
        double t0;
        if (s->cpu_restore)
            s->cpu_restore(s->cpu_ctx); /* not timed */
        t0 = lab_clock_now();
        s->cpu(s->cpu_ctx);
        ns[k++] = (lab_clock_now() - t0) * 1e9;
    }
    lab_stats_summarize(ns, k, out);
}

int
lab_driver_time_size(lab_driver *d, const lab_size_timing *s, lab_err *err)
{
    lab_timed_kernel kernels[LAB_ROLE_COUNT];
    lab_timing_result results[LAB_ROLE_COUNT];
    lab_role roles[LAB_ROLE_COUNT];
    size_t nk = 0;
    cJSON *t, *list;
    int rc;

    for (int r = 0; r < LAB_ROLE_COUNT; r++) {
        if (!lab_driver_is_gpu_role(d, (lab_role)r))
            continue;
        kernels[nk] = (lab_timed_kernel){ lab_role_names[r], s->prepare, s->launch, s->ctx[r] };
        roles[nk++] = (lab_role)r;
    }
    if ((rc = lab_timing_run(&d->timing, kernels, nk, &d->args.timing, results, err)) < 0)
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "timing", s->n, err);
    if (!(t = cJSON_CreateObject()))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    cJSON_AddItemToArray(d->timings, t);
    cJSON_AddNumberToObject(t, "size", (double)s->n);
    cJSON_AddNumberToObject(t, "bytes", s->bytes);
    cJSON_AddNumberToObject(t, "copy_gbps", d->copy_gbps);
    cJSON_AddBoolToObject(t, "capped", results[0].capped);
    list = cJSON_AddArrayToObject(t, "kernels");
    for (size_t i = 0; i < nk; i++)
        lab_report_add_timing(list, lab_role_names[roles[i]], &results[i].ns, s->bytes,
                              d->info.peak_gbps, d->copy_gbps);
    if (!lab_driver_is_gpu_role(d, LAB_ROLE_BASELINE) && s->cpu) {
        lab_stats cpu;
        time_cpu(s, &cpu);
        lab_report_add_timing(list, "baseline", &cpu, s->bytes, d->info.peak_gbps, d->copy_gbps);
        cJSON_AddStringToObject(cJSON_GetArrayItem(list, cJSON_GetArraySize(list) - 1), "where",
                                "cpu");
    }
    return 0;
}
