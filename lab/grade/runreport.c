/*
 * runreport.c - parsing a driver's JSON report with cJSON (see runreport.h).
 */
#include "lab/grade/runreport.h"
#include "lab/util/i18n.h"

#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
copy_string(char *dst, size_t size, const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    snprintf(dst, size, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

static double
number(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* The report comes from a child that ran a student's code: a number that does not fit its
 * field (negative, too large, not a number) reads as 0, never as undefined behaviour. */
static unsigned long
count(const cJSON *obj, const char *key)
{
    double v = number(obj, key);

    return v >= 0 && v < (double)ULONG_MAX ? (unsigned long)v : 0;
}

static long
integer(const cJSON *obj, const char *key)
{
    double v = number(obj, key);

    return v >= (double)LONG_MIN && v < (double)LONG_MAX ? (long)v : 0;
}

static int
small(const cJSON *obj, const char *key)
{
    double v = number(obj, key);

    return v >= INT_MIN && v <= INT_MAX ? (int)v : 0;
}

static bool
boolean(const cJSON *obj, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, key));
}

/* One of detail_args: {"i": n}, {"u": n}, {"f": x} (x a number, or "nan", "inf", "-inf": JSON
 * has none of these) or {"s": text}, into *t; false for anything no driver writes, such as an
 * integer that is not whole or does not fit its kind. */
static bool
detail_arg(const cJSON *a, lab_fmtarg *t)
{
    static const struct {
        const char *name;
        double value;
    } not_finite[] = { { "nan", NAN }, { "inf", INFINITY }, { "-inf", -INFINITY } };
    const cJSON *x = cJSON_IsObject(a) ? a->child : NULL;
    double n;

    if (!x || x->next || !x->string || strlen(x->string) != 1)
        return false;
    memset(t, 0, sizeof(*t));
    t->kind = x->string[0];
    n = cJSON_IsNumber(x) ? x->valuedouble : NAN;
    switch (t->kind) {
    case 's':
        if (!cJSON_IsString(x))
            return false;
        snprintf(t->s, sizeof(t->s), "%s", x->valuestring);
        return true;
    case 'f':
        t->f = n;
        if (cJSON_IsNumber(x))
            return true;
        for (size_t i = 0; cJSON_IsString(x) && i < ARRAY_SIZE(not_finite); i++)
            if (!strcmp(x->valuestring, not_finite[i].name)) {
                t->f = not_finite[i].value;
                return true;
            }
        return false;
    case 'i':
        if (n != floor(n) || n < -0x1p63 || n >= 0x1p63)
            return false;
        t->i = (long long)n;
        return true;
    case 'u':
        if (n != floor(n) || n < 0 || n >= 0x1p64)
            return false;
        t->u = (unsigned long long)n;
        return true;
    default:
        return false;
    }
}

/* format_key and args_key of obj (common/report.h) into fmt and v, where they are whole. */
static bool
read_format(const cJSON *obj, const char *format_key, const char *args_key, char *fmt, size_t size,
            lab_fmtargs *v)
{
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(obj, args_key), *a;

    v->n = 0;
    copy_string(fmt, size, obj, format_key);
    if (!fmt[0] || !cJSON_IsArray(args))
        goto none;
    cJSON_ArrayForEach(a, args)
    {
        if (v->n == LAB_FMTARGS_MAX || !detail_arg(a, &v->v[v->n]))
            goto none;
        v->n++;
    }
    return true;
none:
    fmt[0] = '\0';
    v->n = 0;
    return false;
}

bool
lab_fmtmsg_read(lab_fmtmsg *out, const cJSON *obj, const char *format_key, const char *args_key)
{
    return read_format(obj, format_key, args_key, out->format, sizeof(out->format), &out->args);
}

const char *
lab_fmtmsg_show(const lab_fmtmsg *m, const char *english, char *buf, size_t size)
{
    if (m->format[0] && lab_fmtargs_format(_(m->format), &m->args, buf, size))
        return buf;
    return english;
}

/* A case's simulator finding in parts, where they are whole. */
static void
read_finding(lab_case *k, const cJSON *c)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(c, "finding");
    const cJSON *who[2] = { cJSON_GetObjectItemCaseSensitive(f, "thread"),
                            cJSON_GetObjectItemCaseSensitive(f, "block") };
    unsigned *xyz[2] = { k->finding_thread, k->finding_block };

    if (!cJSON_IsObject(f) || !lab_fmtmsg_read(&k->finding, f, "format", "args"))
        return;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++) {
            const cJSON *x = cJSON_GetArrayItem(who[i], j);
            if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > UINT_MAX) {
                k->finding.format[0] = '\0';
                return;
            }
            xyz[i][j] = (unsigned)x->valuedouble;
        }
    copy_string(k->finding_where, sizeof(k->finding_where), f, "where");
}

const char *
lab_case_detail(const lab_case *c, char *buf, size_t size)
{
    char what[512];

    if (c->check[0] && c->finding.format[0]) {
        const char *w = lab_fmtmsg_show(&c->finding, NULL, what, sizeof(what));
        if (w) {
            /* TRANSLATORS: a finding of the simulator's checks: the check's name, what
             * happened, the thread and block (x,y,z) that did it, and the source line */
            snprintf(buf, size, _("%s: %s, thread (%u,%u,%u) of block (%u,%u,%u) at %s"),
                     _(c->check), w, c->finding_thread[0], c->finding_thread[1],
                     c->finding_thread[2], c->finding_block[0], c->finding_block[1],
                     c->finding_block[2], c->finding_where);
            return buf;
        }
        return c->detail;
    }
    if (c->detail_format[0] && lab_fmtargs_format(_(c->detail_format), &c->detail_args, buf, size))
        return buf;
    return c->detail;
}

const char *
lab_runreport_reason(const lab_runreport *r, char *buf, size_t size)
{
    return lab_fmtmsg_show(&r->reason_msg, r->reason, buf, size);
}

static int
parse_cases(const cJSON *cases, lab_runreport *r, lab_err *err)
{
    const cJSON *c;
    size_t n = (size_t)cJSON_GetArraySize(cases), i = 0;

    if (n == 0)
        return 0;
    if (!(r->cases = calloc(n, sizeof(*r->cases))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    cJSON_ArrayForEach(c, cases)
    {
        lab_case *k = &r->cases[i++];
        k->size = count(c, "size");
        copy_string(k->role, sizeof(k->role), c, "role");
        k->grid = count(c, "grid");
        k->correct = boolean(c, "correct");
        k->expected = number(c, "expected");
        k->got = number(c, "got");
        k->bad = integer(c, "bad");
        k->first_bad = integer(c, "first_bad");
        copy_string(k->detail, sizeof(k->detail), c, "detail");
        k->round = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(c, "round"))
                       ? (unsigned)count(c, "round")
                       : 1;
        copy_string(k->check, sizeof(k->check), c, "check");
        copy_string(k->block, sizeof(k->block), c, "block");
        read_format(c, "detail_format", "detail_args", k->detail_format, sizeof(k->detail_format),
                    &k->detail_args);
        read_finding(k, c);
        k->printf_bytes = number(c, "printf_bytes");
        k->printf_cut = boolean(c, "printf_cut");
    }
    r->ncases = n;
    return 0;
}

static void
parse_checked(const cJSON *k, lab_timed_check *out)
{
    out->verified = count(k, "verified");
    out->wrong = boolean(k, "wrong");
    out->wrong_launch = count(k, "wrong_launch");
    copy_string(out->wrong_detail, sizeof(out->wrong_detail), k, "wrong_detail");
}

static int
parse_timings(const cJSON *timings, lab_runreport *r, lab_err *err)
{
    const cJSON *t;
    size_t n = (size_t)cJSON_GetArraySize(timings), i = 0;

    if (n == 0)
        return 0;
    if (!(r->timings = calloc(n, sizeof(*r->timings))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    cJSON_ArrayForEach(t, timings)
    {
        lab_size_timing *s = &r->timings[i++];
        const cJSON *k;
        s->size = count(t, "size");
        s->bytes = number(t, "bytes");
        s->copy_gbps = number(t, "copy_gbps");
        s->capped = boolean(t, "capped");
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(t, "kernels"))
        {
            lab_kernel_time *kt;
            if (s->nkernels == LAB_RUNREPORT_MAX_KERNELS)
                return lab_err_set(err, LAB_EPARSE, "report times more than %d kernels",
                                   LAB_RUNREPORT_MAX_KERNELS);
            kt = &s->kernels[s->nkernels++];
            copy_string(kt->role, sizeof(kt->role), k, "role");
            kt->cpu = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(k, "where"));
            kt->median_ns = number(k, "median_ns");
            kt->mad_ns = number(k, "mad_ns");
            kt->min_ns = number(k, "min_ns");
            kt->max_ns = number(k, "max_ns");
            kt->ci_rel = number(k, "ci_rel");
            kt->gbps = number(k, "gbps");
            kt->pct_peak = number(k, "pct_peak");
            kt->pct_copy = number(k, "pct_copy");
            kt->samples = count(k, "samples");
            parse_checked(k, &kt->checked);
        }
    }
    r->ntimings = n;
    return 0;
}

static int
parse_sweep(const cJSON *s, lab_sweep *out, lab_err *err)
{
    const cJSON *row;

    if (!cJSON_IsObject(s))
        return 0;
    out->present = true;
    out->size = count(s, "size");
    out->bytes = number(s, "bytes");
    out->capped = boolean(s, "capped");
    copy_string(out->choice, sizeof(out->choice), s, "choice");
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(s, "rows"))
    {
        lab_sweep_row *r;
        if (out->nrows == LAB_RUNREPORT_MAX_SWEEP)
            return lab_err_set(err, LAB_EPARSE, "report sweeps more than %d shapes",
                               LAB_RUNREPORT_MAX_SWEEP);
        r = &out->rows[out->nrows++];
        copy_string(r->block, sizeof(r->block), row, "block");
        copy_string(r->error, sizeof(r->error), row, "error");
        r->threads = count(row, "threads");
        r->launched = boolean(row, "launched");
        r->median_ns = number(row, "median_ns");
        r->ci_rel = number(row, "ci_rel");
        r->gbps = number(row, "gbps");
        r->occupancy = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(row, "occupancy"))
                           ? number(row, "occupancy")
                           : -1;
        r->samples = count(row, "samples");
        parse_checked(row, &r->checked);
    }
    return 0;
}

int
lab_runreport_parse(const char *json, size_t len, lab_runreport *out, lab_err *err)
{
    cJSON *root = NULL;
    const cJSON *v, *e, *dev;
    const char *end = NULL;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (len == 0)
        return lab_err_set(err, LAB_EPARSE, "the driver sent no report");
    if (!(root = cJSON_ParseWithLengthOpts(json, len, &end, false)))
        return lab_err_set(err, LAB_EPARSE, "the driver's report is not JSON (near byte %ld)",
                           (long)(cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() - json : -1));
    while (end < json + len && (*end == ' ' || *end == '\n' || *end == '\t' || *end == '\r'))
        end++;
    if (end < json + len || !cJSON_IsObject(root)) {
        rc = lab_err_set(err, LAB_EPARSE,
                         "the driver's report is not one JSON object (%zu bytes after it)",
                         (size_t)(json + len - end));
        goto out;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "version");
    if (!cJSON_IsNumber(v)) {
        rc = lab_err_set(err, LAB_EPARSE, "the driver's report has no version");
        goto out;
    }
    out->version = v->valueint;
    if (out->version > LAB_RUNREPORT_VERSION) {
        rc = lab_err_set(err, LAB_EPARSE, "report version %d is newer than this lab reads (%d)",
                         out->version, LAB_RUNREPORT_VERSION);
        goto out;
    }
    copy_string(out->family, sizeof(out->family), root, "family");
    copy_string(out->backend, sizeof(out->backend), root, "backend");
    copy_string(out->status, sizeof(out->status), root, "status");
    copy_string(out->reason, sizeof(out->reason), root, "reason");
    lab_fmtmsg_read(&out->reason_msg, root, "reason_format", "reason_args");
    if (strcmp(out->status, "ok") && strcmp(out->status, "no_gpu") &&
        strcmp(out->status, "error")) {
        rc = lab_err_set(err, LAB_EPARSE, "the driver's report has an unknown status '%s'",
                         out->status);
        goto out;
    }
    if ((e = cJSON_GetObjectItemCaseSensitive(root, "error")) && cJSON_IsObject(e)) {
        out->has_error = true;
        copy_string(out->error.role, sizeof(out->error.role), e, "role");
        copy_string(out->error.stage, sizeof(out->error.stage), e, "stage");
        out->error.size = count(e, "size");
        out->error.code = small(e, "code");
        copy_string(out->error.name, sizeof(out->error.name), e, "name");
        copy_string(out->error.message, sizeof(out->error.message), e, "message");
    }
    if ((dev = cJSON_GetObjectItemCaseSensitive(root, "device"))) {
        copy_string(out->device, sizeof(out->device), dev, "name");
        copy_string(out->device_uuid, sizeof(out->device_uuid), dev, "uuid");
        copy_string(out->cc, sizeof(out->cc), dev, "cc");
        out->peak_gbps = number(dev, "peak_gbps");
        out->sm_clock_khz = number(dev, "sm_clock_khz");
        out->mem_clock_khz = number(dev, "mem_clock_khz");
    }
    if ((dev = cJSON_GetObjectItemCaseSensitive(root, "driver"))) {
        out->driver_found = boolean(dev, "found");
        out->driver_version = small(dev, "version");
        copy_string(out->driver_library, sizeof(out->driver_library), dev, "library");
    } else if (out->device[0]) {
        /* a report without "driver" (older probes, grading drivers): a device opened, so
         * the library loaded; its version is the device's */
        out->driver_found = true;
        out->driver_version =
            small(cJSON_GetObjectItemCaseSensitive(root, "device"), "driver_version");
        snprintf(out->driver_library, sizeof(out->driver_library), "libcuda.so.1");
    }
    out->copy_gbps = number(root, "copy_gbps");
    out->seed = number(root, "seed");
    out->block = count(root, "block");
    out->unroll = count(root, "unroll");
    if ((rc = parse_cases(cJSON_GetObjectItemCaseSensitive(root, "cases"), out, err)) < 0 ||
        (rc = parse_timings(cJSON_GetObjectItemCaseSensitive(root, "timings"), out, err)) < 0 ||
        (rc = parse_sweep(cJSON_GetObjectItemCaseSensitive(root, "sweep"), &out->sweep, err)) < 0)
        goto out;
out:
    cJSON_Delete(root);
    return rc;
}

void
lab_runreport_release(lab_runreport *r)
{
    free(r->cases);
    free(r->timings);
    r->cases = NULL;
    r->timings = NULL;
    r->ncases = r->ntimings = 0;
}

const lab_size_timing *
lab_runreport_last_timing(const lab_runreport *r)
{
    const lab_size_timing *best = NULL;

    for (size_t i = 0; i < r->ntimings; i++)
        if (!best || r->timings[i].size > best->size)
            best = &r->timings[i];
    return best;
}

const lab_kernel_time *
lab_runreport_time(const lab_runreport *r, const char *role)
{
    const lab_size_timing *t = lab_runreport_last_timing(r);

    for (size_t i = 0; t && i < t->nkernels; i++)
        if (!strcmp(t->kernels[i].role, role))
            return &t->kernels[i];
    return NULL;
}

/* A parsed report whose status is "ok", or NULL. */
static cJSON *
parse_ok(const char *json, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(root, "status");

    if (cJSON_IsString(status) && !strcmp(status->valuestring, "ok"))
        return root;
    cJSON_Delete(root);
    return NULL;
}

static bool
has_string(const cJSON *obj, const char *key, const char *value)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    return cJSON_IsString(v) && !strcmp(v->valuestring, value);
}

/* A timing's kernels when none of them is the baseline, else NULL. */
static cJSON *
kernels_without_baseline(const cJSON *timing)
{
    cJSON *kernels = cJSON_GetObjectItemCaseSensitive(timing, "kernels");
    const cJSON *k;

    if (!cJSON_IsArray(kernels))
        return NULL;
    cJSON_ArrayForEach(k, kernels)
    {
        if (has_string(k, "role", "baseline"))
            return NULL;
    }
    return kernels;
}

bool
lab_runreport_lacks_baseline(const char *json, size_t len)
{
    cJSON *root = parse_ok(json, len);
    const cJSON *t;
    bool lacks = false;

    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(root, "timings"))
    {
        lacks |= kernels_without_baseline(t) != NULL;
    }
    cJSON_Delete(root);
    return lacks;
}

/* The CPU's baseline row at size n in a --cpu-baseline-only report, with a positive median;
 * NULL when there is none. */
static const cJSON *
cpu_row(const cJSON *cpu, unsigned long n)
{
    const cJSON *timings = cJSON_GetObjectItemCaseSensitive(cpu, "timings"), *t, *k;

    if (!cJSON_IsArray(timings))
        return NULL;
    cJSON_ArrayForEach(t, timings)
    {
        const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(t, "kernels");
        if (count(t, "size") != n || !cJSON_IsArray(kernels))
            continue;
        cJSON_ArrayForEach(k, kernels)
        {
            if (has_string(k, "role", "baseline") && has_string(k, "where", "cpu") &&
                number(k, "median_ns") > 0)
                return k;
        }
    }
    return NULL;
}

/* obj's number key set to v, in its place. */
static void
set_number(cJSON *obj, const char *key, double v)
{
    cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

    if (cJSON_IsNumber(item))
        cJSON_SetNumberValue(item, v);
    else
        cJSON_ReplaceItemInObjectCaseSensitive(obj, key, cJSON_CreateNumber(v));
}

/* A copy of the CPU's row for a timing of bytes against the GPU's peak and copy bandwidth, as
 * lab_report_add_timing computes them; NULL when out of memory. */
static cJSON *
cpu_row_for(const cJSON *row, double bytes, double peak_gbps, double copy_gbps)
{
    cJSON *k = cJSON_Duplicate(row, true);
    double gbps = bytes / number(row, "median_ns"); /* bytes per ns = GB/s */

    if (!k)
        return NULL;
    set_number(k, "gbps", gbps);
    set_number(k, "pct_peak", peak_gbps > 0 ? 100 * gbps / peak_gbps : 0);
    set_number(k, "pct_copy", copy_gbps > 0 ? 100 * gbps / copy_gbps : 0);
    return k;
}

/* The CPU's row added to every timing of root that lacks a baseline. */
static int
add_cpu_rows(cJSON *root, const cJSON *cpu, lab_err *err)
{
    const double peak = number(cJSON_GetObjectItemCaseSensitive(root, "device"), "peak_gbps");
    const cJSON *t;

    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(root, "timings"))
    {
        cJSON *kernels = kernels_without_baseline(t), *k;
        const cJSON *row;
        if (!kernels)
            continue;
        if (!(row = cpu_row(cpu, count(t, "size"))))
            return lab_err_set(err, LAB_EPARSE, "the CPU's report has no time at n = %lu",
                               count(t, "size"));
        if (!(k = cpu_row_for(row, number(t, "bytes"), peak, number(t, "copy_gbps"))))
            return lab_err_set(err, LAB_ENOMEM, "out of memory");
        cJSON_AddItemToArray(kernels, k);
    }
    return 0;
}

int
lab_runreport_add_cpu_baseline(const char *json, size_t len, const char *cpu, size_t cpu_len,
                               lab_buf *out, lab_err *err)
{
    cJSON *root = cJSON_ParseWithLength(json, len), *c = cJSON_ParseWithLength(cpu, cpu_len);
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(c, "reason");
    char *text = NULL;
    int rc;

    lab_buf_reset(out);
    if (!root || !c)
        rc = lab_err_set(err, LAB_EPARSE, "the %s report is not JSON", root ? "CPU's" : "GPU's");
    else if (!has_string(c, "status", "ok"))
        rc = lab_err_set(err, LAB_EPARSE, "the CPU's run failed: %.400s",
                         cJSON_IsString(reason) ? reason->valuestring : "its report has no status");
    else if ((rc = add_cpu_rows(root, c, err)) == 0 &&
             (!(text = cJSON_PrintUnformatted(root)) || lab_buf_adds(out, text) < 0))
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    free(text);
    cJSON_Delete(root);
    cJSON_Delete(c);
    return rc;
}
