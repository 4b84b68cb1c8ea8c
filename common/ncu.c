/*
 * ncu.c - run Nsight Compute on a demo driver and read its CSV (see ncu.h).
 *
 * ncu --csv prints, after any output of the program, a header line
 *   "ID","Process ID","Process Name","Host Name","Kernel Name",...,"Metric Name","Metric
 * Unit","Metric Value" and one line per launch and metric, every field quoted.  Columns are found
 * by name; a launch is a distinct ID, in the order the IDs first appear;
 * thousands separators in values are dropped.
 */
#include "common/ncu.h"
#include "common/demodrv.h"
#include "lab/core/proc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 32
#define FIELD_LEN 256

void
lab_ncu_init(lab_ncu *n)
{
    memset(n, 0, sizeof(*n));
    for (size_t i = 0; i < LAB_NCU_MAX_LAUNCHES; i++)
        for (size_t m = 0; m < LAB_NCU_MAX_METRICS; m++)
            n->value[i][m] = NAN;
}

/* Splits one line of quoted CSV into f; returns the field count, -1 when it is not one. */
static int
split(const char *line, size_t len, char f[][FIELD_LEN])
{
    const char *p = line, *end = line + len;
    int n = 0;

    while (p < end && n < MAX_FIELDS) {
        size_t k = 0;
        if (*p++ != '"')
            return -1;
        while (p < end && *p != '"')
            if (k + 1 < FIELD_LEN)
                f[n][k++] = *p++;
            else
                p++;
        if (p == end)
            return -1;
        f[n++][k] = '\0';
        p++; /* the closing quote */
        if (p < end && *p++ != ',')
            return -1;
    }
    return n;
}

static int
column(char f[][FIELD_LEN], int nf, const char *name)
{
    for (int i = 0; i < nf; i++)
        if (!strcmp(f[i], name))
            return i;
    return -1;
}

static bool
read_value(const char *s, double *out)
{
    char digits[FIELD_LEN], *end;
    size_t k = 0;

    for (; *s && k + 1 < sizeof(digits); s++)
        if (*s != ',')
            digits[k++] = *s;
    digits[k] = '\0';
    *out = strtod(digits, &end);
    return end != digits && !*end;
}

int
lab_ncu_parse(const char *csv, const char *const *metrics, size_t nmetrics, lab_ncu *n)
{
    static char f[MAX_FIELDS][FIELD_LEN];
    char ids[LAB_NCU_MAX_LAUNCHES][32];
    int c_id = -1, c_kernel = -1, c_name = -1, c_value = -1;
    const char *line = csv;
    size_t rows = 0;

    while (*line) {
        size_t len = strcspn(line, "\n");
        int nf = split(line, len && line[len - 1] == '\r' ? len - 1 : len, f);

        if (nf > 0 && c_id < 0 && column(f, nf, "Metric Value") >= 0) {
            c_id = column(f, nf, "ID");
            c_kernel = column(f, nf, "Kernel Name");
            c_name = column(f, nf, "Metric Name");
            c_value = column(f, nf, "Metric Value");
        } else if (nf > 0 && c_id >= 0 && nf > c_id && nf > c_kernel && nf > c_name &&
                   nf > c_value) {
            size_t launch = 0, m = 0;
            double v;
            while (launch < n->nlaunches && strcmp(ids[launch], f[c_id]))
                launch++;
            if (launch == n->nlaunches && launch < LAB_NCU_MAX_LAUNCHES) {
                snprintf(ids[launch], sizeof(ids[launch]), "%s", f[c_id]);
                snprintf(n->kernel[launch], sizeof(n->kernel[launch]), "%.*s",
                         (int)strcspn(f[c_kernel], "("), f[c_kernel]);
                n->nlaunches++;
            }
            while (m < nmetrics && strcmp(metrics[m], f[c_name]))
                m++;
            if (launch < n->nlaunches && m < nmetrics && m < LAB_NCU_MAX_METRICS &&
                read_value(f[c_value], &v)) {
                n->value[launch][m] = v;
                rows++;
            }
        }
        line += len + (line[len] == '\n');
    }
    if (rows == 0) {
        snprintf(n->status, sizeof(n->status), "ncu printed no metric values");
        return -1;
    }
    return 0;
}

void
lab_ncu_run(const char *const *argv, const char *kernel_regex, const char *const *metrics,
            size_t nmetrics, lab_ncu *n)
{
    char ncu[4096], how[128];
    lab_buf list = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_proc p;

    lab_ncu_init(n);
    if (!lab_demodrv_on_path("ncu", ncu, sizeof(ncu))) {
        snprintf(n->status, sizeof(n->status), "ncu not found");
        return;
    }
    for (size_t m = 0; m < nmetrics; m++)
        lab_buf_printf(&list, "%s%s", m ? "," : "", metrics[m]);
    lab_proc_init(&p);
    p.timeout_s = LAB_NCU_TIMEOUT_S;
    p.output_cap = 4 << 20;
    lab_strvec_pushl(&p.argv, ncu, "--csv", "--print-units", "base", "--metrics", list.buf, NULL);
    lab_strvec_pushf(&p.argv, "--kernel-name=regex:%s", kernel_regex);
    lab_strvec_pushv(&p.argv, argv);
    if (lab_proc_run(&p, &err) < 0)
        snprintf(n->status, sizeof(n->status), "ncu: %.200s", err.msg);
    else if (lab_ncu_parse(p.out.buf, metrics, nmetrics, n) < 0)
        snprintf(n->status, sizeof(n->status), "ncu %s, no metrics: %.120s",
                 lab_proc_describe(&p, how, sizeof(how)), p.errout.len ? p.errout.buf : p.out.buf);
    for (char *c = n->status; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    lab_proc_release(&p);
    lab_buf_release(&list);
}
