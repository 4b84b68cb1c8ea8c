/*
 * ncu.c - Nsight Compute CSV (see ncu.h).  Fields are RFC 4180: quoted, a
 * doubled quote inside a quoted field is one quote.
 */
#include "lab/instruments/ncu.h"
#include "lab/util/buf.h"
#include "lab/util/strvec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIXED_COLUMNS_END "CC" /* the last column before the metrics in --page raw */

/* Splits one CSV line into fields; *text advances past it. */
static int
csv_row(const char **text, lab_strvec *fields)
{
    const char *p = *text;
    lab_buf f = LAB_BUF_INIT;
    int rc = 0;

    for (;;) {
        lab_buf_reset(&f);
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;
                lab_buf_addch(&f, *p);
            }
            if (*p == '"')
                p++;
        }
        while (*p && *p != ',' && *p != '\n' && *p != '\r')
            lab_buf_addch(&f, *p++);
        if ((rc = lab_strvec_push(fields, f.len ? f.buf : "")) < 0)
            break;
        if (*p != ',')
            break;
        p++;
    }
    while (*p && *p != '\n')
        p++;
    *text = *p ? p + 1 : p;
    lab_buf_release(&f);
    return rc;
}

static double
number(const char *s)
{
    char buf[64], *end;
    size_t n = 0;
    double v;

    for (; *s && n + 1 < sizeof(buf); s++)
        if (*s != ',')
            buf[n++] = *s;
    buf[n] = '\0';
    v = strtod(buf, &end);
    return n && end != buf && !*end ? v : NAN;
}

/* Copies of v[from .. from + n); those past v's have entries (a short row) are "". */
static char **
copy_range(char **v, size_t have, size_t from, size_t n)
{
    char **out = calloc(n ? n : 1, sizeof(*out));

    for (size_t i = 0; out && i < n; i++)
        if (!(out[i] = strdup(from + i < have ? v[from + i] : ""))) {
            while (i--)
                free(out[i]);
            free(out);
            return NULL;
        }
    return out;
}

static int
add_launch(lab_ncu_table *t, lab_strvec *row, int kcol, size_t first)
{
    lab_ncu_launch *v = realloc(t->launches, (t->nlaunches + 1) * sizeof(*v)), *l;

    if (!v)
        return LAB_ENOMEM;
    t->launches = v;
    l = &v[t->nlaunches];
    l->kernel = strndup(row->v[kcol], strcspn(row->v[kcol], "("));
    l->values = calloc(t->nmetrics ? t->nmetrics : 1, sizeof(double));
    if (!l->kernel || !l->values) {
        free(l->kernel);
        free(l->values);
        return LAB_ENOMEM;
    }
    for (size_t i = 0; i < t->nmetrics; i++)
        l->values[i] = first + i < row->n ? number(row->v[first + i]) : NAN;
    t->nlaunches++;
    return 0;
}

int
lab_ncu_parse(const char *text, lab_ncu_table *out, lab_err *err)
{
    const char *p = text, *line;
    lab_strvec row = LAB_STRVEC_INIT;
    int kcol = -1, rc = 0;
    size_t first = 0;

    memset(out, 0, sizeof(*out));
    /* the header: the first line that starts with "ID","Process ID" */
    for (line = p; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (!strncmp(line, "\"ID\",\"Process ID\"", 17))
            break;
    if (!line || !*line)
        return lab_err_set(err, LAB_EPARSE, "no ncu CSV header (\"ID\",\"Process ID\",...) found");
    p = line;
    if ((rc = csv_row(&p, &row)) < 0)
        goto nomem;
    for (size_t i = 0; i < row.n; i++) {
        if (!strcmp(row.v[i], "Kernel Name"))
            kcol = (int)i;
        if (!strcmp(row.v[i], FIXED_COLUMNS_END))
            first = i + 1;
    }
    if (kcol < 0 || !first)
        return lab_strvec_release(&row),
               lab_err_set(err, LAB_EPARSE, "ncu CSV header has no \"Kernel Name\" or \"CC\"");
    out->nmetrics = row.n - first;
    if (!(out->metrics = copy_range(row.v, row.n, first, out->nmetrics)))
        goto nomem;
    lab_strvec_release(&row);
    while (*p) {
        if ((rc = csv_row(&p, &row)) < 0)
            goto nomem;
        if (row.n > first && !row.v[0][0] && !out->units) {
            if (!(out->units = copy_range(row.v, row.n, first, out->nmetrics)))
                goto nomem;
        } else if (row.n > (size_t)kcol && row.v[0][0] &&
                   (rc = add_launch(out, &row, kcol, first)) < 0) {
            goto nomem;
        }
        lab_strvec_release(&row);
    }
    if (!out->units && !(out->units = copy_range(NULL, 0, 0, out->nmetrics)))
        goto nomem;
    return 0;
nomem:
    lab_strvec_release(&row);
    lab_ncu_table_release(out);
    return lab_err_set(err, LAB_ENOMEM, "out of memory");
}

void
lab_ncu_table_release(lab_ncu_table *t)
{
    for (size_t i = 0; i < t->nmetrics; i++) {
        if (t->metrics)
            free(t->metrics[i]);
        if (t->units)
            free(t->units[i]);
    }
    for (size_t i = 0; i < t->nlaunches; i++) {
        free(t->launches[i].kernel);
        free(t->launches[i].values);
    }
    free(t->metrics);
    free(t->units);
    free(t->launches);
    memset(t, 0, sizeof(*t));
}

int
lab_ncu_column(const lab_ncu_table *t, const char *metric)
{
    for (size_t i = 0; i < t->nmetrics; i++)
        if (!strcmp(t->metrics[i], metric))
            return (int)i;
    return -1;
}

bool
lab_ncu_value(const lab_ncu_table *t, const char *kernel, const char *metric, double *out)
{
    int col = lab_ncu_column(t, metric);

    if (col < 0)
        return false;
    for (size_t i = t->nlaunches; i-- > 0;)
        if (!strcmp(t->launches[i].kernel, kernel)) {
            *out = t->launches[i].values[col];
            return !isnan(*out);
        }
    return false;
}

bool
lab_ncu_no_permission(const char *text)
{
    return text && (strstr(text, "ERR_NVGPUCTRPERM") ||
                    strstr(text, "does not have permission to access NVIDIA GPU Performance"));
}
