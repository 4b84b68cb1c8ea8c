/*
 * demo.c - run a chapter's demo driver and parse its report (see demo.h).
 *
 * lab_demo_run_chapter: find the chapter and its demo -> probe the GPU for
 * the build target -> compile each exercise's reference solution through the
 * toolchain cache (one that does not compile is left out and named in
 * r->steps) -> run the driver with a report pipe -> on the GPU, run Nsight
 * Compute on the driver's --ncu-child for each section that asks for it and
 * fill its cells (the driver itself never runs a tool) -> lab_demo_parse.
 * lab_demo_parse checks the shape strictly (a chart naming a column that is
 * not there, a row of the wrong length): the renderers then trust it.
 */
#include "lab/instruments/demo.h"
#include "lab/util/i18n.h"
#include "lab/grade/compile.h"
#include "lab/instruments/ncu.h"
#include "lab/grade/runner.h"
#include "lab/grade/modelled.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- parsing ------------------------------------------------------------- */

static const char *
dup_string(lab_demo_report *r, const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

    return lab_arena_strdup(&r->arena, cJSON_IsString(v) ? v->valuestring : "");
}

/* *out = the column index in obj[key]; 0, or a parse error. */
static int
column_index(const cJSON *chart, const char *key, size_t ncolumns, size_t section, size_t *out,
             lab_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(chart, key);

    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble >= (double)ncolumns ||
        v->valuedouble != (double)(size_t)v->valuedouble)
        return lab_err_set(err, LAB_EPARSE,
                           "demo report: section %zu: chart's '%s' is not a column index", section,
                           key);
    *out = (size_t)v->valuedouble;
    return 0;
}

static int
parse_chart(const cJSON *chart, lab_demo_section *s, size_t i, lab_err *err)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(chart, "type");
    int rc;

    if (!chart)
        return 0;
    if (!cJSON_IsObject(chart) || !cJSON_IsString(type))
        return lab_err_set(err, LAB_EPARSE, "demo report: section %zu: chart has no type", i);
    if (!strcmp(type->valuestring, "bars")) {
        s->chart.kind = LAB_DEMO_CHART_BARS;
        if ((rc = column_index(chart, "label", s->ncolumns, i, &s->chart.label, err)) < 0 ||
            (rc = column_index(chart, "value", s->ncolumns, i, &s->chart.value, err)) < 0)
            return rc;
    } else if (!strcmp(type->valuestring, "heatmap")) {
        s->chart.kind = LAB_DEMO_CHART_HEATMAP;
        if ((rc = column_index(chart, "x", s->ncolumns, i, &s->chart.x, err)) < 0 ||
            (rc = column_index(chart, "y", s->ncolumns, i, &s->chart.y, err)) < 0 ||
            (rc = column_index(chart, "value", s->ncolumns, i, &s->chart.value, err)) < 0)
            return rc;
    } else {
        return lab_err_set(err, LAB_EPARSE, "demo report: section %zu: unknown chart type '%s'", i,
                           type->valuestring);
    }
    return 0;
}

static int
parse_cell(lab_demo_report *r, const cJSON *v, lab_demo_cell *c, size_t i, lab_err *err)
{
    if (cJSON_IsString(v)) {
        c->kind = LAB_DEMO_CELL_STRING;
        if (!(c->str = lab_arena_strdup(&r->arena, v->valuestring)))
            return lab_err_set(err, LAB_ENOMEM, "out of memory");
    } else if (cJSON_IsNumber(v)) {
        c->kind = LAB_DEMO_CELL_NUMBER;
        c->num = v->valuedouble;
    } else if (cJSON_IsNull(v)) {
        c->kind = LAB_DEMO_CELL_NULL;
    } else {
        return lab_err_set(err, LAB_EPARSE,
                           "demo report: section %zu: a cell is not a string, number or null", i);
    }
    return 0;
}

static int
parse_section(lab_demo_report *r, const cJSON *js, lab_demo_section *s, size_t i, lab_err *err)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(js, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(js, "rows");
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(js, "text");
    const cJSON *c, *row;
    lab_demo_column *columns;
    lab_demo_cell *cells;
    size_t k = 0, ncells;
    int rc;

    if (!cJSON_IsObject(js) || !cJSON_IsArray(cols) || !cJSON_IsArray(rows))
        return lab_err_set(err, LAB_EPARSE, "demo report: section %zu lacks columns or rows", i);
    s->title = dup_string(r, js, "title");
    s->text = cJSON_IsString(text) ? lab_arena_strdup(&r->arena, text->valuestring) : NULL;
    s->ncolumns = (size_t)cJSON_GetArraySize(cols);
    s->nrows = (size_t)cJSON_GetArraySize(rows);
    ncells = s->nrows * s->ncolumns;
    columns = lab_arena_calloc(&r->arena, s->ncolumns ? s->ncolumns : 1, sizeof(*columns));
    cells = lab_arena_calloc(&r->arena, ncells ? ncells : 1, sizeof(*cells));
    if (!s->title || !columns || !cells)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    cJSON_ArrayForEach(c, cols)
    {
        if (!cJSON_IsObject(c) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(c, "name")))
            return lab_err_set(err, LAB_EPARSE, "demo report: section %zu: a column has no name",
                               i);
        columns[k].name = dup_string(r, c, "name");
        columns[k].unit = dup_string(r, c, "unit");
        if (!columns[k].name || !columns[k].unit)
            return lab_err_set(err, LAB_ENOMEM, "out of memory");
        k++;
    }
    k = 0;
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *v;
        if (!cJSON_IsArray(row) || (size_t)cJSON_GetArraySize(row) != s->ncolumns)
            return lab_err_set(err, LAB_EPARSE,
                               "demo report: section %zu: row %zu does not have %zu cells", i,
                               k / (s->ncolumns ? s->ncolumns : 1), s->ncolumns);
        cJSON_ArrayForEach(v, row)
        {
            if ((rc = parse_cell(r, v, &cells[k++], i, err)) < 0)
                return rc;
        }
    }
    s->columns = columns;
    s->cells = cells;
    s->modelled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(js, "modelled"));
    return parse_chart(cJSON_GetObjectItemCaseSensitive(js, "chart"), s, i, err);
}

/* notes, and beside them notes_format: each note's format and arguments where the driver gave
 * them (a format that does not parse is no error: the English note stands) */
static int
parse_notes(lab_demo_report *r, const cJSON *notes, const cJSON *formats, lab_err *err)
{
    const cJSON *n;
    const char **v;
    lab_fmtmsg *msgs;
    size_t k = 0, count;

    if (!cJSON_IsArray(notes))
        return 0;
    count = (size_t)cJSON_GetArraySize(notes);
    if (!(v = lab_arena_calloc(&r->arena, count + 1, sizeof(*v))) ||
        !(msgs = lab_arena_calloc(&r->arena, count + 1, sizeof(*msgs))))
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    cJSON_ArrayForEach(n, notes)
    {
        const cJSON *f = cJSON_IsArray(formats) ? cJSON_GetArrayItem(formats, (int)k) : NULL;
        if (!cJSON_IsString(n))
            return lab_err_set(err, LAB_EPARSE, "demo report: a note is not a string");
        if (cJSON_IsObject(f))
            lab_fmtmsg_read(&msgs[k], f, "format", "args");
        if (!(v[k++] = lab_arena_strdup(&r->arena, n->valuestring)))
            return lab_err_set(err, LAB_ENOMEM, "out of memory");
    }
    r->notes = v;
    r->note_msgs = msgs;
    r->nnotes = k;
    return 0;
}

int
lab_demo_parse(const char *json, size_t len, lab_demo_report *out, lab_err *err)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    const cJSON *v, *sections, *js, *kind, *device, *model;
    lab_demo_section *secs = NULL;
    size_t i = 0;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    lab_arena_init(&out->arena);
    if (!root || !cJSON_IsObject(root)) {
        rc = lab_err_set(err, LAB_EPARSE, "demo report: not a JSON object");
        goto out;
    }
    v = cJSON_GetObjectItemCaseSensitive(root, "version");
    kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
    if (!cJSON_IsNumber(v)) {
        rc = lab_err_set(err, LAB_EPARSE, "demo report: no version");
        goto out;
    }
    out->version = v->valueint;
    if (out->version > LAB_DEMO_VERSION) {
        rc = lab_err_set(err, LAB_EPARSE, "demo report: version %d is newer than this lab's %d",
                         out->version, LAB_DEMO_VERSION);
        goto out;
    }
    if (!cJSON_IsString(kind) || strcmp(kind->valuestring, "demo")) {
        rc = lab_err_set(err, LAB_EPARSE, "demo report: kind is not \"demo\"");
        goto out;
    }
    out->chapter = dup_string(out, root, "chapter");
    out->backend = dup_string(out, root, "backend");
    out->status = dup_string(out, root, "status");
    out->reason = dup_string(out, root, "reason");
    lab_fmtmsg_read(&out->reason_msg, root, "reason_format", "reason_args");
    device = cJSON_GetObjectItemCaseSensitive(root, "device");
    out->device = dup_string(out, device, "name");
    v = cJSON_GetObjectItemCaseSensitive(root, "timing");
    out->timing = lab_arena_strdup(&out->arena, cJSON_IsString(v) ? v->valuestring : "measured");
    model = cJSON_GetObjectItemCaseSensitive(root, "model");
    out->model_gpu = dup_string(out, model, "gpu");
    v = cJSON_GetObjectItemCaseSensitive(model, "median_abs_error");
    out->model_error = cJSON_IsNumber(v) ? v->valuedouble : 0;
    v = cJSON_GetObjectItemCaseSensitive(model, "kernels");
    out->model_kernels = cJSON_IsNumber(v) ? v->valueint : 0;
    if (!out->chapter || !out->backend || !out->status || !out->reason || !out->device ||
        !out->timing || !out->model_gpu) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if (strcmp(out->status, "ok") && strcmp(out->status, "no_gpu") &&
        strcmp(out->status, "error")) {
        rc = lab_err_set(err, LAB_EPARSE, "demo report: unknown status '%s'", out->status);
        goto out;
    }
    sections = cJSON_GetObjectItemCaseSensitive(root, "sections");
    if (sections && !cJSON_IsArray(sections)) {
        rc = lab_err_set(err, LAB_EPARSE, "demo report: sections is not an array");
        goto out;
    }
    out->nsections = (size_t)cJSON_GetArraySize(sections);
    if (out->nsections && !(secs = lab_arena_calloc(&out->arena, out->nsections, sizeof(*secs)))) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    cJSON_ArrayForEach(js, sections)
    {
        if ((rc = parse_section(out, js, &secs[i], i, err)) < 0)
            goto out;
        i++;
    }
    out->sections = secs;
    rc = parse_notes(out, cJSON_GetObjectItemCaseSensitive(root, "notes"),
                     cJSON_GetObjectItemCaseSensitive(root, "notes_format"), err);
out:
    cJSON_Delete(root);
    return rc;
}

void
lab_demo_report_release(lab_demo_report *r)
{
    lab_arena_release(&r->arena);
    memset(r, 0, sizeof(*r));
}

const lab_demo_cell *
lab_demo_cell_at(const lab_demo_section *s, size_t row, size_t col)
{
    return row < s->nrows && col < s->ncolumns ? &s->cells[row * s->ncolumns + col] : NULL;
}

/* --- running ------------------------------------------------------------- */

/* Decimals for a column's numbers: none when all are whole, else by the largest magnitude. */
int
lab_demo_column_decimals(const lab_demo_section *s, size_t col)
{
    double most = 0;
    bool whole = true;

    for (size_t r = 0; r < s->nrows; r++) {
        const lab_demo_cell *c = lab_demo_cell_at(s, r, col);
        if (c->kind != LAB_DEMO_CELL_NUMBER)
            continue;
        whole = whole && c->num == floor(c->num);
        most = fabs(c->num) > most ? fabs(c->num) : most;
    }
    return whole || most >= 1000 ? 0 : most >= 10 ? 1 : 2;
}

void
lab_demo_format_cell(const lab_demo_cell *c, int decimals, char *buf, size_t size)
{
    if (c->kind == LAB_DEMO_CELL_STRING)
        snprintf(buf, size, "%s", c->str);
    else if (c->kind == LAB_DEMO_CELL_NUMBER)
        snprintf(buf, size, "%.*f", decimals, c->num);
    else
        snprintf(buf, size, "-");
}

bool
lab_demo_is_modelled(const lab_demo_report *r)
{
    return r->timing && !strcmp(r->timing, "modelled");
}

bool
lab_demo_row_label(const lab_demo_section *s, size_t row, char *buf, size_t size)
{
    char x[64], y[64];

    if (s->chart.kind == LAB_DEMO_CHART_BARS) {
        lab_demo_format_cell(lab_demo_cell_at(s, row, s->chart.label),
                             lab_demo_column_decimals(s, s->chart.label), buf, size);
        return true;
    }
    if (s->chart.kind == LAB_DEMO_CHART_HEATMAP) {
        lab_demo_format_cell(lab_demo_cell_at(s, row, s->chart.x),
                             lab_demo_column_decimals(s, s->chart.x), x, sizeof(x));
        lab_demo_format_cell(lab_demo_cell_at(s, row, s->chart.y),
                             lab_demo_column_decimals(s, s->chart.y), y, sizeof(y));
        snprintf(buf, size, "(%s,%s)", x, y);
        return true;
    }
    return false;
}

void
lab_demo_run_init(lab_demo_run *r)
{
    memset(r, 0, sizeof(*r));
    lab_buf_init(&r->json);
    lab_buf_init(&r->errout);
    lab_buf_init(&r->steps);
}

void
lab_demo_run_release(lab_demo_run *r)
{
    lab_demo_report_release(&r->report);
    lab_buf_release(&r->json);
    lab_buf_release(&r->errout);
    lab_buf_release(&r->steps);
}

static const lab_chapter *
find_chapter(const lab_catalog *cat, const char *id)
{
    for (size_t i = 0; i < lab_catalog_chapter_count(cat); i++)
        if (!strcmp(lab_catalog_chapter(cat, i)->id, id))
            return lab_catalog_chapter(cat, i);
    return NULL;
}

#define NCU_TIMEOUT_S 300

/* An ncu section's cells: row i from launch i of ncu's table, or every status cell saying why
 * there are none ("" when measured). */
static void
fill_section(cJSON *section, const lab_ncu_table *t, const char *why)
{
    cJSON *ncu = cJSON_GetObjectItem(section, "ncu"), *row;
    cJSON *metrics = cJSON_GetObjectItem(ncu, "metrics"),
          *columns = cJSON_GetObjectItem(ncu, "columns");
    int status = (int)cJSON_GetNumberValue(cJSON_GetObjectItem(ncu, "status")), i = 0;

    cJSON_ArrayForEach(row, cJSON_GetObjectItem(section, "rows"))
    {
        for (int m = 0; !*why && m < cJSON_GetArraySize(metrics); m++) {
            int col = lab_ncu_column(t, cJSON_GetStringValue(cJSON_GetArrayItem(metrics, m)));
            int at = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(columns, m));
            if (col >= 0 && (size_t)i < t->nlaunches && !isnan(t->launches[i].values[col]) &&
                at >= 0 && at < cJSON_GetArraySize(row))
                cJSON_ReplaceItemInArray(row, at, cJSON_CreateNumber(t->launches[i].values[col]));
        }
        if (status >= 0 && status < cJSON_GetArraySize(row))
            cJSON_ReplaceItemInArray(row, status, cJSON_CreateString(*why ? why : N_("measured")));
        i++;
    }
}

/* Runs ncu on the demo program's --ncu-child for one section; why says what went wrong
 * (empty when there are figures). */
static int
run_ncu(lab *l, const char *program, cJSON *ncu, const volatile sig_atomic_t *cancel,
        lab_ncu_table *t, char *why, size_t why_size, lab_err *err)
{
    cJSON *metrics = cJSON_GetObjectItem(ncu, "metrics"), *m;
    const char *kernels = cJSON_GetStringValue(cJSON_GetObjectItem(ncu, "kernels"));
    const lab_toolchain *tc;
    lab_buf list = LAB_BUF_INIT;
    lab_err not_found = LAB_ERR_INIT;
    char *path = NULL, how[128];
    size_t found = 0;
    lab_proc p;
    int rc;

    lab_proc_init(&p);
    if ((rc = lab_toolchain_of(l, &tc, err)) < 0)
        goto out;
    if (lab_toolchain_find_tool(tc, "ncu", "CUDALAB_NCU", NULL, &path, &not_found) < 0) {
        snprintf(why, why_size, "%s", _("ncu not found"));
        goto out;
    }
    cJSON_ArrayForEach(m, metrics)
    {
        lab_buf_printf(&list, "%s%s", list.len ? "," : "", cJSON_GetStringValue(m));
    }
    p.timeout_s = NCU_TIMEOUT_S;
    p.output_cap = 4 << 20;
    p.cancel = cancel;
    lab_strvec_pushl(&p.argv, path, "--csv", "--page", "raw", "--metrics", list.buf, NULL);
    lab_strvec_pushf(&p.argv, "--kernel-name=regex:%s", kernels ? kernels : ".");
    lab_strvec_pushf(&p.argv, "%s/" LAB_RUNNER_PROGRAM, lab_libexecdir(l));
    lab_strvec_pushl(&p.argv, program, "--ncu-child", "--backend=cuda", NULL);
    lab_strvec_pushf(&p.argv, "--lab-kernels=%s/lab-kernels.ptx", lab_libexecdir(l));
    if ((rc = lab_proc_run(&p, &not_found)) < 0) {
        rc = 0;
        snprintf(why, why_size, "ncu: %.200s", not_found.msg);
        goto out;
    }
    if (p.cancelled) {
        rc = lab_err_set(err, LAB_ECANCEL, "cancelled");
        goto out;
    }
    if (lab_ncu_no_permission(p.out.buf) || lab_ncu_no_permission(p.errout.buf)) {
        snprintf(why, why_size, "%s",
                 _("ncu may not read the GPU's counters here (ERR_NVGPUCTRPERM)"));
        goto out;
    }
    if (lab_ncu_parse(p.out.buf, t, &not_found) < 0) {
        snprintf(why, why_size, "ncu %s, no metrics: %.120s",
                 lab_proc_describe(&p, how, sizeof(how)), p.errout.len ? p.errout.buf : p.out.buf);
        goto out;
    }
    for (size_t i = 0; i < t->nlaunches; i++)
        for (size_t c = 0; c < t->nmetrics; c++)
            found += !isnan(t->launches[i].values[c]);
    if (!found)
        snprintf(why, why_size, "%s", _("ncu printed no metric values"));
out:
    for (char *c = why; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    free(path);
    lab_buf_release(&list);
    lab_proc_release(&p);
    return rc;
}

/* The report's ncu sections filled by Nsight Compute (a GPU demo only; on the simulator their
 * status says it needs one); json is rewritten when there were any.  A cancel is an error; anything
 * else ncu does is a section's status. */
static int
fill_ncu(lab *l, const char *program, const volatile sig_atomic_t *cancel, lab_buf *json,
         lab_err *err)
{
    cJSON *root = cJSON_ParseWithLength(json->buf, json->len), *s;
    bool filled = false, sim;
    char *text;
    int rc = 0;

    if (!root || !cJSON_IsString(cJSON_GetObjectItem(root, "backend")) ||
        !cJSON_IsString(cJSON_GetObjectItem(root, "status")) ||
        strcmp(cJSON_GetObjectItem(root, "status")->valuestring, "ok"))
        goto out;
    sim = strcmp(cJSON_GetObjectItem(root, "backend")->valuestring, "cuda") != 0;
    cJSON_ArrayForEach(s, cJSON_GetObjectItem(root, "sections"))
    {
        cJSON *ncu = cJSON_GetObjectItem(s, "ncu");
        lab_ncu_table t = LAB_NCU_TABLE_INIT;
        char why[256] = "";
        if (!cJSON_IsObject(ncu))
            continue;
        if (sim) /* the simulator's own counts are not Nsight Compute's: not filled in */
            snprintf(why, sizeof(why), "%s", _("Nsight Compute needs a GPU"));
        else
            rc = run_ncu(l, program, ncu, cancel, &t, why, sizeof(why), err);
        if (rc == 0)
            fill_section(s, &t, why);
        lab_ncu_table_release(&t);
        if (rc < 0)
            goto out;
        filled = true;
    }
    if (filled && (text = cJSON_Print(root))) {
        lab_buf_reset(json);
        lab_buf_adds(json, text);
        free(text);
    }
out:
    cJSON_Delete(root);
    return rc;
}

/* One --step per exercise whose solution compiles (its PTX for the simulator); a cancel is an
 * error, a broken solution not. */
static int
add_steps(lab *l, const lab_chapter *ch, const char *arch, bool sim,
          const volatile sig_atomic_t *cancel, lab_strvec *args, lab_demo_run *r, lab_err *err)
{
    for (size_t i = 0; i < ch->nexercises; i++) {
        const lab_exercise *ex = ch->exercises[i];
        lab_err why = LAB_ERR_INIT;
        lab_build b;
        char shape[48];
        int rc;

        lab_build_init(&b);
        rc = lab_compile_solution(l, ex, arch, cancel, &b, &why);
        if (rc == 0) {
            lab_block_shape_format(&ex->blocks[0], shape, sizeof(shape));
            lab_buf step = LAB_BUF_INIT;
            lab_buf_printf(&step, "--step=%s,%s,%s,%s,%u,%s", ex->id, ex->kernel, ex->family, shape,
                           ex->unroll, lab_compile_module(ex, &b, sim));
            if (ex->output == LAB_OUTPUT_TOTAL)
                lab_buf_adds(&step, ",output=total");
            if (ex->grid_per_sm)
                lab_buf_printf(&step, ",grid_per_sm=%u", ex->grid_per_sm);
            lab_buf_adds(&step, ",entry=");
            lab_runner_entry(ex, &step, &why); /* the catalog checked the family */
            lab_strvec_push(args, step.buf);
            lab_buf_release(&step);
        } else if (rc == LAB_ECANCEL) {
            lab_build_release(&b);
            return lab_err_set(err, LAB_ECANCEL, "cancelled");
        } else {
            lab_buf_printf(&r->steps, "skipped %s: %s\n", ex->id, why.msg);
        }
        lab_build_release(&b);
    }
    return 0;
}

int
lab_demo_run_chapter(lab *l, const char *chapter, const volatile sig_atomic_t *cancel,
                     lab_demo_run *r, lab_err *err)
{
    const lab_chapter *ch = find_chapter(lab_catalog_of(l), chapter);
    const lab_device *dev;
    lab_strvec args = LAB_STRVEC_INIT;
    lab_buf gpu_path = LAB_BUF_INIT;
    lab_model_gpu gpu;
    lab_proc p;
    char how[128];
    bool sim;
    int rc;

    lab_proc_init(&p);
    if (!ch) {
        rc = lab_err_set(err, LAB_ENOENT, "unknown chapter '%s'", chapter);
        goto out;
    }
    if (!ch->demo) {
        rc = lab_err_set(err, LAB_ENOENT, "chapter '%s' has no demo", chapter);
        goto out;
    }
    if ((rc = lab_device_probe(l, &dev, err)) < 0)
        goto out;
    /* $CUDALAB_BACKEND=sim forces the simulator, as for grading; with no GPU every demo runs
     * there, its times modelled for a GPU (a demo_sim chapter's demo needs no times at all) */
    sim = (getenv("CUDALAB_BACKEND") && !strcmp(getenv("CUDALAB_BACKEND"), "sim")) || !dev->present;
    lab_strvec_pushf(&args, "--backend=%s", sim ? "sim" : "cuda");
    lab_strvec_pushf(&args, "--lab-kernels=%s/lab-kernels.ptx", lab_libexecdir(l));
    lab_strvec_pushf(&args, "--numbers=%s/docs/numbers.ini", lab_datadir(l));
    if (sim && !ch->demo_sim) {
        const char *name = r->model_gpu ? r->model_gpu : LAB_MODEL_GPU_DEFAULT;
        lab_buf_printf(&gpu_path, "%s/" LAB_MODEL_GPU_DIR, lab_datadir(l));
        if ((rc = lab_model_gpu_find(gpu_path.buf, name, &gpu, err)) < 0)
            goto out;
        lab_buf_printf(&gpu_path, "/%s.ini", name);
        lab_strvec_pushf(&args, "--model-gpu=%s", gpu_path.buf);
    }
    if ((rc = add_steps(l, ch, lab_target_arch(dev), sim, cancel, &args, r, err)) < 0)
        goto out;
    if ((rc = lab_runner_run(l, ch->demo, &args, LAB_DEMO_TIMEOUT_S, cancel, false, &p, err)) < 0)
        goto out;
    lab_buf_add(&r->errout, p.errout.buf, p.errout.len);
    lab_buf_add(&r->json, p.report.buf, p.report.len);
    if (p.cancelled) {
        rc = lab_err_set(err, LAB_ECANCEL, "cancelled");
        goto out;
    }
    if (p.report.len == 0) {
        rc = lab_err_set(err, LAB_ECHILD, "demo driver '%s' sent no report: it %s", ch->demo,
                         lab_proc_describe(&p, how, sizeof(how)));
        goto out;
    }
    if ((rc = fill_ncu(l, ch->demo, cancel, &r->json, err)) < 0 ||
        (rc = lab_demo_parse(r->json.buf, r->json.len, &r->report, err)) < 0)
        goto out;
    r->has_report = true;
out:
    lab_buf_release(&gpu_path);
    lab_strvec_release(&args);
    lab_proc_release(&p);
    return rc;
}
