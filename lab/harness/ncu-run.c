/*
 * ncu-run.c - run Nsight Compute on a demo driver (see ncu-run.h).
 */
#include "lab/harness/ncu-run.h"
#include "lab/harness/demodrv.h"
#include "lab/instruments/ncu.h"
#include "lab/platform/proc.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Launches and values from ncu's raw CSV into n; -1 with n->status when there are none. */
static int
keep(const char *csv, const char *const *metrics, size_t nmetrics, lab_ncurun *n)
{
    lab_ncu_table t = LAB_NCU_TABLE_INIT;
    lab_err err = LAB_ERR_INIT;
    size_t found = 0;

    if (lab_ncu_parse(csv, &t, &err) < 0) {
        snprintf(n->status, sizeof(n->status), "%.200s", err.msg);
        return -1;
    }
    for (size_t i = 0; i < t.nlaunches && n->nlaunches < LAB_NCURUN_MAX_LAUNCHES; i++) {
        size_t k = n->nlaunches++;
        snprintf(n->kernel[k], sizeof(n->kernel[k]), "%s", t.launches[i].kernel);
        for (size_t m = 0; m < nmetrics && m < LAB_NCURUN_MAX_METRICS; m++) {
            int c = lab_ncu_column(&t, metrics[m]);
            if (c >= 0 && !isnan(t.launches[i].values[c])) {
                n->value[k][m] = t.launches[i].values[c];
                found++;
            }
        }
    }
    lab_ncu_table_release(&t);
    if (!found)
        snprintf(n->status, sizeof(n->status), "ncu printed no metric values");
    return found ? 0 : -1;
}

void
lab_ncurun_exec(const char *const *argv, const char *kernel_regex, const char *const *metrics,
                size_t nmetrics, lab_ncurun *n)
{
    char ncu[4096], how[128];
    lab_buf list = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_proc p;

    memset(n, 0, sizeof(*n));
    for (size_t i = 0; i < LAB_NCURUN_MAX_LAUNCHES; i++)
        for (size_t m = 0; m < LAB_NCURUN_MAX_METRICS; m++)
            n->value[i][m] = NAN;
    if (!lab_demodrv_on_path("ncu", ncu, sizeof(ncu))) {
        snprintf(n->status, sizeof(n->status), "ncu not found");
        return;
    }
    for (size_t m = 0; m < nmetrics; m++)
        lab_buf_printf(&list, "%s%s", m ? "," : "", metrics[m]);
    lab_proc_init(&p);
    p.timeout_s = LAB_NCURUN_TIMEOUT_S;
    p.output_cap = 4 << 20;
    lab_strvec_pushl(&p.argv, ncu, "--csv", "--page", "raw", "--metrics", list.buf, NULL);
    lab_strvec_pushf(&p.argv, "--kernel-name=regex:%s", kernel_regex);
    lab_strvec_pushv(&p.argv, argv);
    if (lab_proc_run(&p, &err) < 0)
        snprintf(n->status, sizeof(n->status), "ncu: %.200s", err.msg);
    else if (lab_ncu_no_permission(p.out.buf) || lab_ncu_no_permission(p.errout.buf))
        snprintf(n->status, sizeof(n->status),
                 "ncu may not read the GPU's counters here (ERR_NVGPUCTRPERM)");
    else if (keep(p.out.buf, metrics, nmetrics, n) < 0)
        snprintf(n->status, sizeof(n->status), "ncu %s, no metrics: %.120s",
                 lab_proc_describe(&p, how, sizeof(how)), p.errout.len ? p.errout.buf : p.out.buf);
    for (char *c = n->status; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    lab_proc_release(&p);
    lab_buf_release(&list);
}
