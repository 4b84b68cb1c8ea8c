/*
 * report.c - building and writing the driver's JSON report (see report.h).
 */
#include "common/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

cJSON *
lab_report_new(const char *family, const char *backend)
{
    cJSON *r = cJSON_CreateObject();

    if (!r)
        return NULL;
    cJSON_AddNumberToObject(r, "version", LAB_REPORT_VERSION);
    cJSON_AddStringToObject(r, "family", family);
    cJSON_AddStringToObject(r, "backend", backend);
    cJSON_AddStringToObject(r, "status", "ok");
    return r;
}

void
lab_report_set_device(cJSON *report, const lab_dev_info *info)
{
    cJSON *d = cJSON_AddObjectToObject(report, "device");
    char cc[16];

    if (!d)
        return;
    snprintf(cc, sizeof(cc), "%d.%d", info->cc_major, info->cc_minor);
    cJSON_AddStringToObject(d, "name", info->name);
    if (*info->uuid)
        cJSON_AddStringToObject(d, "uuid", info->uuid);
    if (*info->pci_bus_id)
        cJSON_AddStringToObject(d, "pci_bus_id", info->pci_bus_id);
    cJSON_AddStringToObject(d, "cc", cc);
    cJSON_AddNumberToObject(d, "sm_count", info->sm_count);
    cJSON_AddNumberToObject(d, "mem_clock_khz", info->mem_clock_khz);
    cJSON_AddNumberToObject(d, "bus_width_bits", info->bus_width_bits);
    cJSON_AddNumberToObject(d, "sm_clock_khz", info->sm_clock_khz);
    cJSON_AddNumberToObject(d, "peak_gbps", info->peak_gbps);
    cJSON_AddNumberToObject(d, "l2_bytes", info->l2_bytes);
    cJSON_AddNumberToObject(d, "total_mem", (double)info->total_mem);
    cJSON_AddNumberToObject(d, "driver_version", info->driver_version);
}

void
lab_report_set_devices(cJSON *report, const lab_dev_ident *ids, int n)
{
    cJSON *list = cJSON_AddArrayToObject(report, "devices");

    for (int i = 0; list && i < n; i++) {
        cJSON *d = cJSON_CreateObject();

        if (!d)
            return;
        cJSON_AddNumberToObject(d, "index", ids[i].ordinal);
        cJSON_AddStringToObject(d, "name", ids[i].name);
        cJSON_AddStringToObject(d, "uuid", ids[i].uuid);
        cJSON_AddStringToObject(d, "pci_bus_id", ids[i].pci_bus_id);
        cJSON_AddItemToArray(list, d);
    }
}

void
lab_report_set_status(cJSON *report, const char *status, const char *reason)
{
    cJSON_ReplaceItemInObject(report, "status", cJSON_CreateString(status));
    cJSON_DeleteItemFromObject(report, "reason");
    cJSON_AddStringToObject(report, "reason", reason);
}

void
lab_report_set_no_gpu(cJSON *report, const lab_err *err)
{
    lab_report_set_status(report, "no_gpu", err->msg);
    cJSON_DeleteItemFromObject(report, "reason_format");
    cJSON_DeleteItemFromObject(report, "reason_args");
    if (err->format && err->args)
        lab_report_add_format(report, "reason_format", "reason_args", err->format, err->args);
}

void
lab_report_add_timing(cJSON *kernels, const char *role, const lab_stats *ns, double bytes,
                      double peak_gbps, double copy_gbps)
{
    cJSON *k = cJSON_CreateObject();
    double gbps = ns->median > 0 ? bytes / ns->median : 0; /* bytes per ns = GB/s */

    if (!k)
        return;
    cJSON_AddStringToObject(k, "role", role);
    cJSON_AddNumberToObject(k, "median_ns", ns->median);
    cJSON_AddNumberToObject(k, "mad_ns", ns->mad);
    cJSON_AddNumberToObject(k, "min_ns", ns->min);
    cJSON_AddNumberToObject(k, "max_ns", ns->max);
    cJSON_AddNumberToObject(k, "ci_rel", ns->ci_rel);
    cJSON_AddNumberToObject(k, "samples", (double)ns->samples);
    cJSON_AddNumberToObject(k, "gbps", gbps);
    cJSON_AddNumberToObject(k, "pct_peak", peak_gbps > 0 ? 100 * gbps / peak_gbps : 0);
    cJSON_AddNumberToObject(k, "pct_copy", copy_gbps > 0 ? 100 * gbps / copy_gbps : 0);
    cJSON_AddItemToArray(kernels, k);
}

int
lab_report_emit(cJSON *report, int fd, lab_err *err)
{
    char *text = cJSON_PrintUnformatted(report);
    size_t len, off = 0;
    int rc = 0;

    if (!text)
        return lab_err_set(err, LAB_ENOMEM, "out of memory printing the report");
    len = strlen(text);
    while (off < len) {
        ssize_t n = write(fd, text + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = lab_err_set(err, LAB_EIO, "cannot write the report to fd %d: %s", fd,
                             strerror(errno));
            break;
        }
        off += (size_t)n;
    }
    free(text);
    return rc;
}

cJSON *
lab_report_fmtargs(const lab_fmtargs *args)
{
    cJSON *list = cJSON_CreateArray();
    char key[2] = "";

    for (size_t i = 0; list && i < args->n; i++) {
        const lab_fmtarg *a = &args->v[i];
        cJSON *o = cJSON_CreateObject();

        key[0] = a->kind;
        if (!o)
            break;
        if (a->kind == 's')
            cJSON_AddStringToObject(o, key, a->s);
        else if (a->kind == 'f' && !isfinite(a->f)) /* JSON has no NaN or infinity */
            cJSON_AddStringToObject(o, key, isnan(a->f) ? "nan" : a->f > 0 ? "inf" : "-inf");
        else
            cJSON_AddNumberToObject(o, key,
                                    a->kind == 'i'   ? (double)a->i
                                    : a->kind == 'u' ? (double)a->u
                                                     : a->f);
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

void
lab_report_add_format(cJSON *obj, const char *format_key, const char *args_key, const char *fmt,
                      const lab_fmtargs *args)
{
    cJSON *list = lab_report_fmtargs(args);

    if (!list)
        return;
    cJSON_AddStringToObject(obj, format_key, fmt);
    cJSON_AddItemToObject(obj, args_key, list);
}
