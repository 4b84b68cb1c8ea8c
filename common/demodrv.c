/*
 * demodrv.c - the shared skeleton of the demo drivers (see demodrv.h).
 */
#include "common/demodrv.h"
#include "common/demomodel.h"
#include "common/driver.h"
#include "common/report.h"
#include "lab/util/buf.h"
#include "lab/util/i18n.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_BACKEND = 256,
    OPT_REPORT_FD,
    OPT_LAB_KERNELS,
    OPT_STEP,
    OPT_NCU_CHILD,
    OPT_MODEL_GPU,
    OPT_NUMBERS
};

static const struct option options[] = {
    { "backend", required_argument, NULL, OPT_BACKEND },
    { "report-fd", required_argument, NULL, OPT_REPORT_FD },
    { "lab-kernels", required_argument, NULL, OPT_LAB_KERNELS },
    { "step", required_argument, NULL, OPT_STEP },
    { "ncu-child", no_argument, NULL, OPT_NCU_CHILD },
    { "model-gpu", required_argument, NULL, OPT_MODEL_GPU },
    { "numbers", required_argument, NULL, OPT_NUMBERS },
    { NULL, 0, NULL, 0 },
};

static int
usage(const char *prog, const char *what)
{
    fprintf(stderr, "cudalab-driver %s: %s\n", prog, what);
    fprintf(stderr,
            "usage: cudalab-driver %s --backend cuda|sim --report-fd N --lab-kernels PTX "
            "[--step ID,KERNEL,FAMILY,BLOCK,UNROLL,MODULE,entry=MANGLED[,KEY=VALUE...]]... "
            "[--ncu-child] [--model-gpu GPU.ini] [--numbers numbers.ini]\n",
            prog);
    return -2;
}

/* "output=total,grid_per_sm=4,entry=_Z..." (split in place) into s. */
static int
parse_step_options(char *p, lab_demodrv_step *s)
{
    for (char *save = NULL, *kv = strtok_r(p, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *end;
        if (!strcmp(kv, "output=total"))
            s->total = true;
        else if (!strcmp(kv, "output=partials"))
            s->total = false;
        else if (!strncmp(kv, "grid_per_sm=", 12)) {
            s->grid_per_sm = (unsigned)strtoul(kv + 12, &end, 10);
            if (*end || end == kv + 12)
                return -1;
        } else if (!strncmp(kv, "entry=", 6) && kv[6])
            s->entry = kv + 6;
        else
            return -1;
    }
    return 0;
}

/* "ID,KERNEL,FAMILY,BLOCK,UNROLL,MODULE,entry=MANGLED[,KEY=VALUE...]" into s. */
static int
parse_step(const char *arg, lab_demodrv_step *s)
{
    char *f[6], *p, *end;
    size_t n = 0;
    unsigned long u;

    if (!(s->text = strdup(arg)))
        return -1;
    for (p = s->text; n < 5; n++) {
        f[n] = p;
        if (!(p = strchr(p, ',')))
            return -1;
        *p++ = '\0';
    }
    f[5] = p;
    if ((p = strchr(p, ','))) { /* optional KEY=VALUE fields after the module */
        *p++ = '\0';
        if (parse_step_options(p, s) < 0)
            return -1;
    }
    size_t nshapes;
    if (lab_driver_parse_shapes(f[3], &s->block, 1, &nshapes) < 0)
        return -1;
    errno = 0;
    u = strtoul(f[4], &end, 10);
    if (errno || end == f[4] || *end || u == 0 || !*f[0] || !*f[1] || !*f[2] || !*f[5] || !s->entry)
        return -1;
    s->id = f[0];
    s->kernel = f[1];
    s->family = f[2];
    s->unroll = (unsigned)u;
    s->module = f[5];
    return 0;
}

static int
parse_args(lab_demodrv *d, const char *prog, int argc, char **argv)
{
    unsigned long v;
    char *end;
    int c;

    d->backend = "cuda";
    d->report_fd = -1;
    while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (c) {
        case OPT_BACKEND:
            d->backend = optarg;
            break;
        case OPT_REPORT_FD:
            errno = 0;
            v = strtoul(optarg, &end, 10);
            if (errno || end == optarg || *end || v < 3 || v > 1024)
                return usage(prog, "--report-fd needs a descriptor >= 3");
            d->report_fd = (int)v;
            break;
        case OPT_LAB_KERNELS:
            d->lab_kernels = optarg;
            break;
        case OPT_NCU_CHILD:
            d->ncu_child = true;
            break;
        case OPT_MODEL_GPU:
            d->model_gpu_path = optarg;
            break;
        case OPT_NUMBERS:
            d->numbers_path = optarg;
            break;
        case OPT_STEP:
            if (d->nsteps == LAB_DEMODRV_MAX_STEPS ||
                parse_step(optarg, &d->steps[d->nsteps++]) < 0)
                return usage(prog,
                             "--step needs ID,KERNEL,FAMILY,BLOCK,UNROLL,MODULE,entry=MANGLED "
                             "(32 at most)");
            break;
        default:
            return usage(prog, "unknown option");
        }
    }
    if (optind < argc)
        return usage(prog, "unexpected argument");
    if ((d->report_fd < 0 && !d->ncu_child) || !d->lab_kernels)
        return usage(prog, "--report-fd and --lab-kernels are required");
    return 0;
}

bool
lab_demodrv_is_sim(const lab_demodrv *d)
{
    return d->ops == &lab_dev_sim;
}

int
lab_demodrv_load_path(lab_demodrv *d, const char *path, lab_module **out, lab_err *err)
{
    return lab_dev_load_file(d->ops, d->dev, path, out, err);
}

int
lab_demodrv_entry(lab_demodrv *d, const char *name, const char *kernel, char *out, size_t size,
                  lab_err *err)
{
    const char *slash = strrchr(d->lab_kernels, '/'), *at, *end;
    lab_buf path = LAB_BUF_INIT, text = LAB_BUF_INIT, prefix = LAB_BUF_INIT;
    int rc;

    lab_buf_printf(&path, "%.*s%s%s", slash ? (int)(slash - d->lab_kernels) : 0, d->lab_kernels,
                   slash ? "/" : "", name);
    lab_buf_printf(&prefix, ".entry _Z%zu%s", strlen(kernel), kernel);
    if ((rc = lab_buf_read_file(&text, path.buf, err)) < 0)
        goto out;
    if (!(at = strstr(text.buf, prefix.buf))) {
        rc = lab_err_set(err, LAB_ENOENT, "'%s' has no kernel %s", path.buf, kernel);
        goto out;
    }
    at += strlen(".entry ");
    end = at + strcspn(at, "( \t\n");
    if ((size_t)(end - at) >= size)
        rc = lab_err_set(err, LAB_EINVAL, "the entry of %s is too long", kernel);
    else
        snprintf(out, size, "%.*s", (int)(end - at), at);
out:
    lab_buf_release(&path);
    lab_buf_release(&text);
    lab_buf_release(&prefix);
    return rc;
}

int
lab_demodrv_load(lab_demodrv *d, const char *name, lab_module **out, lab_err *err)
{
    return lab_dev_load_beside(d->ops, d->dev, d->lab_kernels, name, out, err);
}

static int
start(lab_demodrv *d, int argc, char **argv, const char *program, const char *chapter)
{
    lab_err err = LAB_ERR_INIT;
    lab_fmtargs why;
    int rc;

    memset(d, 0, sizeof(*d));
    if (parse_args(d, program, argc, argv) < 0) {
        d->report_fd = -1;
        d->ncu_child = false;
        return -2;
    }
    d->report = cJSON_CreateObject();
    cJSON_AddNumberToObject(d->report, "version", 1);
    cJSON_AddStringToObject(d->report, "kind", "demo");
    cJSON_AddStringToObject(d->report, "chapter", chapter);
    cJSON_AddStringToObject(d->report, "backend", d->backend);
    cJSON_AddStringToObject(d->report, "status", "ok");
    cJSON_AddStringToObject(d->report, "timing", "measured");
    d->sections = cJSON_AddArrayToObject(d->report, "sections");
    d->notes = cJSON_AddArrayToObject(d->report, "notes");
    d->notes_format = cJSON_AddArrayToObject(d->report, "notes_format");
    /* the recorded figures only fill the columns beside this GPU's: without them the demo
     * still runs, and says why those columns are empty */
    if (d->numbers_path && lab_numbers_load(d->numbers_path, &d->numbers, &err) < 0) {
        lab_demodrv_note(d, N_("the recorded figures are not shown: %s"), err.msg);
        err = (lab_err)LAB_ERR_INIT;
    }
    if (!(d->ops = lab_dev_backend(d->backend))) {
        lab_err_set(&err, LAB_EINVAL, "unknown backend '%s'", d->backend);
        return lab_demodrv_fail(d, "open", &err);
    }
    err.args = &why; /* the reason in the learner's language too (lab_err_set_msg) */
    if ((rc = d->ops->open(0, &d->dev, &err)) < 0) {
        d->failed = true;
        lab_report_set_no_gpu(d->report, &err);
        return rc;
    }
    err.args = NULL;
    if ((rc = d->ops->info(d->dev, &d->info, &err)) < 0)
        return lab_demodrv_fail(d, "device", &err);
    if (d->ops == &lab_dev_sim) { /* no clock: no yardstick, nothing to flush; a model, maybe */
        cJSON_ReplaceItemInObject(d->report, "timing", cJSON_CreateString("none"));
        if (d->model_gpu_path && (rc = lab_demomodel_open(d, d->model_gpu_path, &err)) < 0)
            return lab_demodrv_fail(d, "the performance model", &err);
    }
    lab_report_set_device(d->report, &d->info);
    if (d->ncu_child || d->ops == &lab_dev_sim)
        return 0;
    if ((rc = lab_timing_init(&d->timing, d->ops, d->dev, &d->info, LAB_DEMODRV_FLUSH_L2,
                              d->lab_kernels, &err)) < 0 ||
        (rc = lab_timing_copy_gbps(&d->timing, &d->copy_gbps, &err)) < 0)
        return lab_demodrv_fail(d, "the lab's own kernels", &err);
    return 0;
}

static int
timed_launch(void *ctx, unsigned set, lab_err *err)
{
    lab_demodrv_launch *l = ctx;

    (void)set; /* a demo's kernels run on one input */
    return l->d->ops->launch(l->m, l->kernel, l->grid, l->block, 0, l->args, err);
}

int
lab_demodrv_time(lab_demodrv *d, lab_demodrv_launch *launches, size_t n, double *us, lab_err *err)
{
    const lab_timing_opts opts = LAB_DEMODRV_TIMING;
    lab_timed_kernel k[8];
    lab_timing_result res[8];
    int rc;

    if (d->ops == &lab_dev_sim && d->modelled)
        return lab_demomodel_time(d, launches, n, us, err);
    if (d->ops == &lab_dev_sim)
        return lab_err_set(err, LAB_ENOSYS, "the simulator has no clock: timing needs a GPU");
    for (size_t at = 0; at < n; at += ARRAY_SIZE(k)) {
        size_t m = n - at < ARRAY_SIZE(k) ? n - at : ARRAY_SIZE(k);
        for (size_t i = 0; i < m; i++)
            k[i] = (lab_timed_kernel){ .role = launches[at + i].kernel,
                                       .launch = timed_launch,
                                       .ctx = &launches[at + i] };
        if ((rc = lab_timing_run(&d->timing, k, m, &opts, res, err)) < 0)
            return rc;
        for (size_t i = 0; i < m; i++)
            us[at + i] = res[i].ns.median / 1e3;
    }
    return 0;
}

/* A section object with its title, text and name/unit columns, appended to the report. */
static cJSON *
add_section(lab_demodrv *d, const char *title, const char *text, va_list ap)
{
    cJSON *s = cJSON_CreateObject(), *cols, *modelled;
    const char *name;

    if (!s)
        return NULL;
    cJSON_AddItemToArray(d->sections, s);
    cJSON_AddStringToObject(s, "title", title);
    if (text)
        cJSON_AddStringToObject(s, "text", text);
    if ((modelled = lab_demomodel_take(d))) { /* its times are the model's, not a clock's */
        cJSON_AddBoolToObject(s, "modelled", 1);
        cJSON_AddItemToObject(s, "model_launches", modelled);
    }
    cols = cJSON_AddArrayToObject(s, "columns");
    while ((name = va_arg(ap, const char *))) {
        const char *unit = va_arg(ap, const char *);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "name", name);
        cJSON_AddStringToObject(c, "unit", unit ? unit : "");
        cJSON_AddItemToArray(cols, c);
    }
    return s;
}

cJSON *
lab_demodrv_section(lab_demodrv *d, const char *title, const char *text, ...)
{
    va_list ap;
    cJSON *s;

    va_start(ap, text);
    s = add_section(d, title, text, ap);
    va_end(ap);
    return s ? cJSON_AddArrayToObject(s, "rows") : NULL;
}

cJSON *
lab_demodrv_ncu_section(lab_demodrv *d, const char *title, const char *text,
                        const char *kernel_regex, const char *const *metrics, const int *columns,
                        size_t nmetrics, int status_column, ...)
{
    cJSON *s, *ncu, *names, *cols;
    va_list ap;

    va_start(ap, status_column);
    s = add_section(d, title, text, ap);
    va_end(ap);
    if (!s || !(ncu = cJSON_AddObjectToObject(s, "ncu")))
        return NULL;
    cJSON_AddStringToObject(ncu, "kernels", kernel_regex);
    names = cJSON_AddArrayToObject(ncu, "metrics");
    cols = cJSON_AddArrayToObject(ncu, "columns");
    for (size_t m = 0; m < nmetrics; m++) {
        cJSON_AddItemToArray(names, cJSON_CreateString(metrics[m]));
        cJSON_AddItemToArray(cols, cJSON_CreateNumber(columns[m]));
    }
    cJSON_AddNumberToObject(ncu, "status", status_column);
    return cJSON_AddArrayToObject(s, "rows");
}

double
lab_demodrv_figure(const lab_demodrv *d, const char *key)
{
    double v;

    return lab_numbers_double(d->numbers, key, &v) ? v : NAN;
}

const char *
lab_demodrv_figure_text(const lab_demodrv *d, const char *key)
{
    const lab_number *f = lab_numbers_find(d->numbers, key);

    return f ? f->value : "?";
}

cJSON *
lab_demodrv_row(cJSON *rows, const char *fmt, ...)
{
    cJSON *row = cJSON_CreateArray();
    va_list ap;

    if (!row)
        return NULL;
    va_start(ap, fmt);
    for (const char *f = fmt; *f; f++) {
        if (*f == 's')
            cJSON_AddItemToArray(row, cJSON_CreateString(va_arg(ap, const char *)));
        else if (*f == 'n') {
            double v = va_arg(ap, double);
            cJSON_AddItemToArray(row, isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v));
        } else
            cJSON_AddItemToArray(row, cJSON_CreateNull());
    }
    va_end(ap);
    cJSON_AddItemToArray(rows, row);
    return row;
}

static cJSON *
last_section(lab_demodrv *d)
{
    int n = cJSON_GetArraySize(d->sections);

    return n ? cJSON_GetArrayItem(d->sections, n - 1) : NULL;
}

void
lab_demodrv_bars(lab_demodrv *d, int label, int value)
{
    cJSON *s = last_section(d), *c;

    if (s && (c = cJSON_AddObjectToObject(s, "chart"))) {
        cJSON_AddStringToObject(c, "type", "bars");
        cJSON_AddNumberToObject(c, "label", label);
        cJSON_AddNumberToObject(c, "value", value);
    }
}

void
lab_demodrv_heatmap(lab_demodrv *d, int x, int y, int value)
{
    cJSON *s = last_section(d), *c;

    if (s && (c = cJSON_AddObjectToObject(s, "chart"))) {
        cJSON_AddStringToObject(c, "type", "heatmap");
        cJSON_AddNumberToObject(c, "x", x);
        cJSON_AddNumberToObject(c, "y", y);
        cJSON_AddNumberToObject(c, "value", value);
    }
}

void
lab_demodrv_note(lab_demodrv *d, const char *fmt, ...)
{
    char text[1024];
    lab_fmtargs args;
    cJSON *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    if (lab_fmtargs_vcapture(&args, text, sizeof(text), fmt, ap) && (msg = cJSON_CreateObject()))
        lab_report_add_format(msg, "format", "args", fmt, &args);
    va_end(ap);
    cJSON_AddItemToArray(d->notes, cJSON_CreateString(text));
    /* the note as a message of the catalog, for the learner's language; null: none */
    cJSON_AddItemToArray(d->notes_format, msg ? msg : cJSON_CreateNull());
}

int
lab_demodrv_fail(lab_demodrv *d, const char *what, const lab_err *err)
{
    lab_buf b = LAB_BUF_INIT;

    d->failed = true;
    lab_buf_printf(&b, "%s: %s", what, err->msg);
    lab_report_set_status(d->report, "error", b.buf);
    lab_buf_release(&b);
    return err->code ? err->code : LAB_EDEVICE;
}

static int
finish(lab_demodrv *d)
{
    lab_err err = LAB_ERR_INIT;
    int status = 0;

    if (d->report_fd < 0 && !d->ncu_child) {
        for (size_t i = 0; i < d->nsteps; i++)
            free(d->steps[i].text);
        return 2;
    }
    if (d->ncu_child)
        status = d->failed ? 1 : 0;
    else if (lab_report_emit(d->report, d->report_fd, &err) < 0) {
        fprintf(stderr, "demo driver: %s\n", err.msg);
        status = 2;
    }
    cJSON_Delete(d->report);
    cJSON_Delete(lab_demomodel_take(d));
    lab_numbers_free(d->numbers);
    lab_timing_release(&d->timing);
    if (d->dev)
        d->ops->close(d->dev);
    for (size_t i = 0; i < d->nsteps; i++)
        free(d->steps[i].text);
    return status;
}

int
lab_demodrv_main(const lab_demo_driver *demo, const char *program, int argc, char **argv)
{
    lab_err err = LAB_ERR_INIT;
    lab_demodrv d;

    if (start(&d, argc, argv, program, demo->chapter) == 0) {
        if (d.ncu_child) {
            if (demo->ncu_launch && demo->ncu_launch(&d, &err) < 0)
                lab_demodrv_fail(&d, "launch", &err);
        } else if (demo->run(&d, &err) < 0 && !d.failed) {
            lab_demodrv_fail(&d, "demo", &err);
        }
    }
    return finish(&d);
}
