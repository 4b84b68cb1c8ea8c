/*
 * gpus.c - the batch's GPUs: found by a device probe, chosen by --gpus, checked as a pinned
 * grader sees them, and given to graders least busy first (see gpus.h).
 */
#include "lab/batch/gpus.h"
#include "lab/batch/batch-json.h"
#include "lab/grade/runner.h"
#include "lab/grade/runreport.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_TIMEOUT_S 60 /* a driver opening a GPU beside a node's others' work */

static void
copy(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

/* What CUDA_VISIBLE_DEVICES pins a grader to g, the batch's k-th GPU: its UUID (the same GPU
 * whatever this process's numbering); without one, the k-th entry of this process's own
 * CUDA_VISIBLE_DEVICES, or k where it is unset; "" when there is no such entry (nothing to pin
 * by: the grader sees what the batch sees). */
static void
set_pin(lab_batch_gpu *g, size_t k)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES"), *p = visible;

    if (*g->uuid) {
        copy(g->pin, sizeof(g->pin), g->uuid);
        return;
    }
    if (!visible) {
        snprintf(g->pin, sizeof(g->pin), "%zu", k);
        return;
    }
    for (size_t i = 0; i < k && *p; i++)
        p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',');
    snprintf(g->pin, sizeof(g->pin), "%.*s", (int)strcspn(p, ","), p);
}

/* The probe's "devices", or for a probe without them its one "device" as GPU 0. */
static void
read_devices(const cJSON *report, lab_batch_gpus *out)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(report, "devices"), *d;

    out->n = 0;
    if (!cJSON_IsArray(list) || !cJSON_GetArraySize(list)) {
        d = cJSON_GetObjectItemCaseSensitive(report, "device");
        copy(out->gpu[0].name, sizeof(out->gpu[0].name), lab_batch__str(d, "name"));
        copy(out->gpu[0].uuid, sizeof(out->gpu[0].uuid), lab_batch__str(d, "uuid"));
        copy(out->gpu[0].pci_bus_id, sizeof(out->gpu[0].pci_bus_id),
             lab_batch__str(d, "pci_bus_id"));
        out->gpu[0].index = 0;
        out->n = 1;
        return;
    }
    cJSON_ArrayForEach(d, list)
    {
        lab_batch_gpu *g = &out->gpu[out->n];

        if (out->n == LAB_BATCH_MAX_GPUS)
            break;
        g->index = (int)lab_batch__num(d, "index");
        copy(g->name, sizeof(g->name), lab_batch__str(d, "name"));
        copy(g->uuid, sizeof(g->uuid), lab_batch__str(d, "uuid"));
        copy(g->pci_bus_id, sizeof(g->pci_bus_id), lab_batch__str(d, "pci_bus_id"));
        out->n++;
    }
}

/* "0 NVIDIA H200 (GPU-...), 1 ..." */
static void
describe_all(const lab_batch_gpus *g, lab_buf *out)
{
    for (size_t i = 0; i < g->n; i++)
        lab_buf_printf(out, "%s%d %s%s%s%s", i ? ", " : "", g->gpu[i].index, g->gpu[i].name,
                       *g->gpu[i].uuid ? " (" : "", g->gpu[i].uuid, *g->gpu[i].uuid ? ")" : "");
}

/* The GPU entry (len bytes) names: a number as the probe counts, a UUID, or the start of one
 * that only one GPU's has; -1 when none. */
static int
named(const lab_batch_gpus *all, const char *entry, size_t len)
{
    int found = -1;
    char *end;

    if (len && entry[0] >= '0' && entry[0] <= '9') {
        long k = strtol(entry, &end, 10);
        for (size_t i = 0; (size_t)(end - entry) == len && i < all->n; i++)
            if (all->gpu[i].index == k)
                return (int)i;
        return -1;
    }
    for (size_t i = 0; len >= 5 && i < all->n; i++)
        if (strlen(all->gpu[i].uuid) >= len && !strncmp(all->gpu[i].uuid, entry, len)) {
            if (found >= 0)
                return -1; /* the start of two GPUs' UUIDs names neither */
            found = (int)i;
        }
    return found;
}

/* out keeps only the GPUs list names, in its order. */
static int
choose(const char *list, lab_batch_gpus *out, lab_err *err)
{
    lab_batch_gpus all = *out;
    lab_buf known = LAB_BUF_INIT;
    bool taken[LAB_BATCH_MAX_GPUS] = { false };
    int rc = 0;

    out->n = 0;
    for (const char *p = list; rc == 0;) {
        size_t len = strcspn(p, ",");
        int i = named(&all, p, len);

        if (i < 0 || taken[i]) {
            describe_all(&all, &known);
            rc = lab_err_set(err, LAB_EINVAL,
                             i < 0 ? "--gpus: no GPU '%.*s' here; the drivers see %zu: %s"
                                   : "--gpus: GPU '%.*s' named twice; the drivers see %zu: %s",
                             (int)len, p, all.n, known.buf);
            break;
        }
        taken[i] = true;
        out->gpu[out->n++] = all.gpu[i];
        if (!p[len])
            break;
        p += len + 1;
    }
    lab_buf_release(&known);
    return rc;
}

int
lab_batch_gpus_find(lab *l, const char *list, lab_batch_gpus *out, lab_err *err)
{
    lab_strvec args = LAB_STRVEC_INIT;
    cJSON *report = NULL;
    lab_proc p;
    char how[128];
    int rc;

    memset(out, 0, sizeof(*out));
    lab_strvec_push(&args, "--backend=cuda");
    rc = lab_runner_run(l, "device-probe", &args, PROBE_TIMEOUT_S, NULL, false, &p, err);
    lab_strvec_release(&args);
    if (rc < 0 || (rc = lab_runner_not_started("device-probe", &p, err)) < 0)
        goto out;
    if (!(report = cJSON_ParseWithLength(p.report.buf, p.report.len))) {
        rc = lab_err_set(err, LAB_EPARSE, "the device probe %s without a report",
                         lab_proc_describe(&p, how, sizeof(how)));
        goto out;
    }
    if (strcmp(lab_batch__str(report, "status"), "ok")) {
        copy(out->why_none, sizeof(out->why_none), lab_batch__str(report, "reason"));
        if (list)
            rc = lab_err_set(err, LAB_ENODEV, "--gpus %s: no GPU here: %s", list, out->why_none);
        goto out;
    }
    read_devices(report, out);
    if (list && (rc = choose(list, out, err)) < 0)
        goto out;
    for (size_t i = 0; i < out->n; i++)
        set_pin(&out->gpu[i], (size_t)out->gpu[i].index);
out:
    cJSON_Delete(report);
    lab_proc_release(&p);
    return rc;
}

/* The pinned probe of g ended: it must have opened g. */
static int
check_one(const lab_batch_gpu *g, bool sandboxed, lab_proc *p, lab_err *err)
{
    const char *where = sandboxed ? " in the sandbox" : "";
    lab_runreport r;
    char how[128];
    int rc;

    if ((rc = lab_runner_not_started("device-probe", p, err)) < 0)
        return lab_err_wrap(err, "GPU %d (%s)%s", g->index, g->name, where);
    if (lab_runreport_parse(p->report.buf, p->report.len, &r, err) < 0)
        return lab_err_wrap(err, "GPU %d (%s)%s: the device probe %s", g->index, g->name, where,
                            lab_proc_describe(p, how, sizeof(how)));
    if (strcmp(r.status, "ok"))
        rc = lab_err_set(err, LAB_ENODEV, "GPU %d (%s): a driver pinned to it%s finds no GPU: %s",
                         g->index, g->name, where, r.reason);
    else if (*g->uuid && strcmp(r.device_uuid, g->uuid))
        rc = lab_err_set(err, LAB_ENODEV,
                         "GPU %d (%s): a driver pinned to it (CUDA_VISIBLE_DEVICES=%s)%s opens "
                         "%s instead",
                         g->index, g->uuid, g->pin, where,
                         *r.device_uuid ? r.device_uuid : "a GPU without a UUID");
    lab_runreport_release(&r);
    return rc;
}

int
lab_batch_gpus_check(lab *l, const lab_batch_gpus *g, lab_err *err)
{
    lab_strvec args = LAB_STRVEC_INIT;
    lab_proc p[LAB_BATCH_MAX_GPUS];
    size_t started = 0;
    int rc = 0;

    lab_strvec_push(&args, "--backend=cuda");
    /* all at once: each opens its own GPU */
    while (started < g->n) {
        const char *pin = g->gpu[started].pin;

        if ((rc = lab_runner_start_pinned(l, "device-probe", &args, *pin ? pin : NULL,
                                          PROBE_TIMEOUT_S, true, &p[started], err)) < 0) {
            lab_proc_release(&p[started]);
            break;
        }
        started++;
    }
    for (size_t i = 0; i < started; i++) {
        lab_err ignored = LAB_ERR_INIT;
        int finished = lab_proc_finish(&p[i], rc < 0 ? &ignored : err);

        if (rc == 0)
            rc = finished < 0 ? finished : check_one(&g->gpu[i], lab_sandboxed(l), &p[i], err);
        lab_proc_release(&p[i]);
    }
    lab_strvec_release(&args);
    return rc;
}

size_t
lab_batch_gpus_pick(const size_t *working, const size_t *given, size_t n)
{
    size_t best = 0;

    for (size_t i = 1; i < n; i++)
        if (working[i] < working[best] || (working[i] == working[best] && given[i] < given[best]))
            best = i;
    return best;
}
