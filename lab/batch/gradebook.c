/*
 * gradebook.c - the gradebook built from batch results (see batch.h,
 * lab_gradebook_write): read results/<id>.json from each folder, add the
 * flags that compare students, write gradebook.csv, gradebook.json and
 * optionally gradescope/<id>/results.json, each atomically.
 */
#include "lab/batch/batch.h"
#include "lab/batch/batch-json.h"
#include "lab/util/utf8.h"

#include <cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RESULT_CAP (256u << 20) /* bytes of one results/<id>.json: a report, a log, flags */

static const char *const csv_columns[] = {
    "student",    "exercise",    "verdict", "points",
    "max_points", "median_us",   "speedup", "fraction_of_reference",
    "line",       "line_source", "flags",   "content_hash",
    "gpu",        "gpu_uuid",
};

const char *
lab_batch__str(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));

    return s ? s : "";
}

double
lab_batch__num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static int
cmp_results(const void *a, const void *b)
{
    const cJSON *x = *(cJSON *const *)a, *y = *(cJSON *const *)b;
    int c = strcmp(lab_batch__str(x, "student"), lab_batch__str(y, "student"));

    return c ? c : strcmp(lab_batch__str(x, "id"), lab_batch__str(y, "id"));
}

/* Every results/<id>.json of dirs, into arr (owned by the caller). */
static int
collect(const char *const *dirs, size_t ndirs, cJSON ***arr, size_t *n, lab_err *err)
{
    size_t cap = 0;

    *arr = NULL;
    *n = 0;
    for (size_t i = 0; i < ndirs; i++) {
        lab_buf path = LAB_BUF_INIT;
        DIR *d;
        struct dirent *de;

        lab_buf_printf(&path, "%s/results", dirs[i]);
        if (!(d = opendir(path.buf))) {
            lab_buf_release(&path);
            continue;
        }
        while ((de = readdir(d))) {
            size_t len = strlen(de->d_name);
            lab_buf file = LAB_BUF_INIT, text = LAB_BUF_INIT;
            cJSON *r = NULL;

            if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".json"))
                continue;
            lab_buf_printf(&file, "%s/%s", path.buf, de->d_name);
            /* a FIFO or a device in the folder is skipped, never waited on */
            if (lab_buf_read_regular(&text, file.buf, RESULT_CAP, NULL) == 0)
                r = cJSON_ParseWithLength(text.buf, text.len);
            lab_buf_release(&file);
            lab_buf_release(&text);
            if (!r)
                continue;
            if (*n == cap) {
                cJSON **grown = realloc(*arr, (cap = cap ? 2 * cap : 64) * sizeof(**arr));
                if (!grown) {
                    cJSON_Delete(r);
                    closedir(d);
                    lab_buf_release(&path);
                    return lab_err_set(err, LAB_ENOMEM, "out of memory");
                }
                *arr = grown;
            }
            (*arr)[(*n)++] = r;
        }
        closedir(d);
        lab_buf_release(&path);
    }
    return 0;
}

/* "identical": the same normalized code as other students. */
static void
identical_flags(cJSON **r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *h = lab_batch__str(r[i], "norm_hash");
        lab_buf others = LAB_BUF_INIT;

        if (!*h)
            continue;
        for (size_t j = 0; j < n; j++)
            if (j != i && !strcmp(h, lab_batch__str(r[j], "norm_hash")))
                lab_buf_printf(&others, "%s%s", others.len ? ", " : "",
                               lab_batch__str(r[j], "student"));
        if (others.len) {
            cJSON *f = cJSON_CreateObject(),
                  *flags = cJSON_GetObjectItemCaseSensitive(r[i], "flags");
            lab_buf why = LAB_BUF_INIT;

            lab_buf_printf(&why, "the same code (comments and blanks aside) as %s", others.buf);
            cJSON_AddStringToObject(f, "flag", "identical");
            cJSON_AddStringToObject(f, "reason", why.buf);
            if (!cJSON_IsArray(flags)) {
                cJSON_DeleteItemFromObject(r[i], "flags");
                flags = cJSON_AddArrayToObject(r[i], "flags");
            }
            cJSON_AddItemToArray(flags, f);
            lab_buf_release(&why);
        }
        lab_buf_release(&others);
    }
}

static void
csv_field(lab_buf *b, const char *s, bool last)
{
    if (strpbrk(s, ",\"\n\r")) {
        lab_buf_addch(b, '"');
        for (; *s; s++) {
            if (*s == '"')
                lab_buf_addch(b, '"');
            lab_buf_addch(b, *s);
        }
        lab_buf_addch(b, '"');
    } else {
        lab_buf_adds(b, s);
    }
    lab_buf_adds(b, last ? "\r\n" : ",");
}

/*
 * Would a spreadsheet opening the CSV turn this text into something else: a
 * formula (a student id "=HYPERLINK(...)" is code), a number ("007" -> 7,
 * "1e5", "5%", "$5", "(5)"), a date or time ("1/2", "12:30"), a boolean, or
 * lose its outer blanks?  (Measured with Gnumeric's ssconvert:
 * tests/e2e/test-gradebook-spreadsheet.sh.)
 */
static bool
spreadsheet_mangles(const char *s)
{
    size_t len = strlen(s);
    bool digits = false, other = false;
    char *end;

    if (!len)
        return false;
    if (strchr("=+-@$(", s[0]) || isspace((unsigned char)s[0]) ||
        isspace((unsigned char)s[len - 1]))
        return true;
    if (!strcasecmp(s, "true") || !strcasecmp(s, "false"))
        return true;
    (void)strtod(s, &end);
    if (end != s && !*end)
        return true;
    for (const char *p = s; *p; p++) {
        if (isdigit((unsigned char)*p))
            digits = true;
        else if (!strchr("-/:.,% ", *p))
            other = true;
    }
    return digits && !other;
}

/* A text cell: itself, or where a spreadsheet would change it the formula ="..." whose value is
 * the text (a quote in it as CHAR(34)): the id "007" opens as 007 and "=cmd" is never run. */
static void
csv_text(lab_buf *b, const char *s, bool last)
{
    lab_buf f = LAB_BUF_INIT;

    if (!spreadsheet_mangles(s)) {
        csv_field(b, s, last);
        return;
    }
    lab_buf_adds(&f, "=\"");
    for (; *s; s++) {
        if (*s == '"')
            lab_buf_adds(&f, "\"&CHAR(34)&\"");
        else
            lab_buf_addch(&f, *s);
    }
    lab_buf_addch(&f, '"');
    csv_field(b, f.buf, last);
    lab_buf_release(&f);
}

static void
csv_number(lab_buf *b, double v, const char *fmt)
{
    char t[64] = "";

    if (v > 0)
        snprintf(t, sizeof(t), fmt, v);
    csv_field(b, t, false);
}

/* The GPU that timed it: its number as the batch saw it and its UUID; empty for none. */
static void
csv_gpu(lab_buf *b, const cJSON *gpu)
{
    char t[32] = "";

    if (gpu)
        snprintf(t, sizeof(t), "%.0f", lab_batch__num(gpu, "index"));
    csv_field(b, t, false);
    csv_text(b, lab_batch__str(gpu, "uuid"), true);
}

static void
csv_row(lab_buf *b, const cJSON *r)
{
    const cJSON *f, *line;
    lab_buf flags = LAB_BUF_INIT;
    char t[32];

    csv_text(b, lab_batch__str(r, "student"), false);
    csv_text(b, lab_batch__str(r, "exercise"), false);
    csv_text(b, lab_batch__str(r, "verdict"), false);
    snprintf(t, sizeof(t), "%.0f", lab_batch__num(r, "points"));
    csv_field(b, t, false);
    snprintf(t, sizeof(t), "%.0f", lab_batch__num(r, "max_points"));
    csv_field(b, t, false);
    csv_number(b, lab_batch__num(r, "median_ns") / 1e3, "%.3f");
    csv_number(b, lab_batch__num(r, "speedup"), "%.3f");
    csv_number(b, lab_batch__num(r, "fraction_of_reference"), "%.3f");
    /* the line the speed-up was held to on this GPU, and where it came from (grading-policy.md) */
    line = cJSON_GetObjectItemCaseSensitive(r, "speed_line");
    csv_number(b, lab_batch__num(line, "min_speedup"), "%.3f");
    csv_text(b, lab_batch__str(line, "source"), false);
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(r, "flags"))
        lab_buf_printf(&flags, "%s%s", flags.len ? ";" : "", lab_batch__str(f, "flag"));
    csv_text(b, flags.len ? flags.buf : "", false);
    csv_text(b, lab_batch__str(r, "content_hash"), false);
    csv_gpu(b, cJSON_GetObjectItemCaseSensitive(r, "gpu"));
    lab_buf_release(&flags);
}

static int
write_gradescope(const char *out, const cJSON *r, lab_err *err)
{
    cJSON *o = cJSON_CreateObject(), *tests = cJSON_AddArrayToObject(o, "tests"), *t, *f;
    lab_buf dir = LAB_BUF_INIT, path = LAB_BUF_INIT, text = LAB_BUF_INIT;
    int rc;

    cJSON_AddNumberToObject(o, "score", lab_batch__num(r, "points"));
    cJSON_AddNumberToObject(o, "max_score", lab_batch__num(r, "max_points"));
    lab_buf_printf(&text, "%s: %s", lab_batch__str(r, "verdict"), lab_batch__str(r, "message"));
    cJSON_AddStringToObject(o, "output", text.buf);
    t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "name", lab_batch__str(r, "exercise"));
    cJSON_AddNumberToObject(t, "score", lab_batch__num(r, "points"));
    cJSON_AddNumberToObject(t, "max_score", lab_batch__num(r, "max_points"));
    cJSON_AddStringToObject(t, "status",
                            !strcmp(lab_batch__str(r, "verdict"), "PASS") ? "passed" : "failed");
    cJSON_AddStringToObject(t, "output", text.buf);
    cJSON_AddItemToArray(tests, t);
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(r, "flags"))
    {
        t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "name", lab_batch__str(f, "flag"));
        cJSON_AddStringToObject(t, "output", lab_batch__str(f, "reason"));
        cJSON_AddStringToObject(t, "visibility", "hidden");
        cJSON_AddItemToArray(tests, t);
    }
    lab_buf_printf(&dir, "%s/gradescope/%s", out, lab_batch__str(r, "id"));
    lab_buf_printf(&path, "%s/results.json", dir.buf);
    if ((rc = lab_mkdir_p(dir.buf, 0755, err)) == 0)
        rc = lab_batch__write_json(path.buf, o, err);
    cJSON_Delete(o);
    lab_buf_release(&dir);
    lab_buf_release(&path);
    lab_buf_release(&text);
    return rc;
}

int
lab_batch__json_text(const cJSON *o, lab_buf *out)
{
    char *text = cJSON_Print(o);
    int rc;

    if (!text)
        return LAB_ENOMEM;
    /* cJSON escapes control characters but copies every other byte of a string as it is: a
     * student's name or log in another encoding would make the whole file invalid */
    rc = lab_utf8_clean(out, text, strlen(text));
    free(text);
    return rc;
}

int
lab_batch__write_json(const char *path, const cJSON *o, lab_err *err)
{
    lab_buf text = LAB_BUF_INIT;
    int rc;

    if (lab_batch__json_text(o, &text) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    else
        rc = lab_write_file(path, text.buf, text.len, err);
    lab_buf_release(&text);
    return rc;
}

int
lab_gradebook_build(cJSON **results, size_t n, lab_buf *csv, lab_buf *json, size_t *flagged)
{
    cJSON *book, *subs;
    lab_buf rows = LAB_BUF_INIT;
    size_t nflagged = 0;
    int rc;

    if (n > 1)
        qsort(results, n, sizeof(*results), cmp_results);
    identical_flags(results, n);
    for (size_t i = 0; i < ARRAY_SIZE(csv_columns); i++)
        csv_field(&rows, csv_columns[i], i + 1 == ARRAY_SIZE(csv_columns));
    for (size_t i = 0; i < n; i++) {
        csv_row(&rows, results[i]);
        if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(results[i], "flags")) > 0)
            nflagged++;
    }
    if (!(book = cJSON_CreateObject())) {
        lab_buf_release(&rows);
        return LAB_ENOMEM;
    }
    cJSON_AddNumberToObject(book, "version", 1);
    cJSON_AddStringToObject(book, "exercise", n ? lab_batch__str(results[0], "exercise") : "");
    subs = cJSON_AddArrayToObject(book, "submissions");
    for (size_t i = 0; subs && i < n; i++) /* borrowed: given back below */
        cJSON_AddItemReferenceToArray(subs, results[i]);
    rc = lab_utf8_clean(csv, rows.buf, rows.len);
    if (rc == 0)
        rc = subs ? lab_batch__json_text(book, json) : LAB_ENOMEM;
    cJSON_Delete(book);
    lab_buf_release(&rows);
    if (flagged)
        *flagged = nflagged;
    return rc;
}

int
lab_gradebook_write(const char *out, const char *const *dirs, size_t ndirs, bool gradescope,
                    size_t *flagged, lab_err *err)
{
    cJSON **r = NULL;
    lab_buf csv = LAB_BUF_INIT, json = LAB_BUF_INIT, path = LAB_BUF_INIT;
    size_t n = 0;
    int rc;

    if ((rc = collect(dirs, ndirs, &r, &n, err)) < 0 || (rc = lab_mkdir_p(out, 0755, err)) < 0)
        goto out;
    if ((rc = lab_gradebook_build(r, n, &csv, &json, flagged)) < 0) {
        rc = lab_err_set(err, rc, "out of memory");
        goto out;
    }
    for (size_t i = 0; gradescope && i < n; i++)
        if ((rc = write_gradescope(out, r[i], err)) < 0)
            goto out;
    lab_buf_printf(&path, "%s/gradebook.csv", out);
    if ((rc = lab_write_file(path.buf, csv.buf, csv.len, err)) < 0)
        goto out;
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/gradebook.json", out);
    rc = lab_write_file(path.buf, json.buf, json.len, err);
out:
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(r[i]);
    free(r);
    lab_buf_release(&csv);
    lab_buf_release(&json);
    lab_buf_release(&path);
    return rc;
}
