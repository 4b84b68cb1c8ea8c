/*
 * metrics.c - the metric table and profile.ini (see metrics.h).
 */
#include "lab/instruments/metrics.h"
#include "lab/util/i18n.h"
#include "lab/util/buf.h"
#include "lab/util/inifile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const lab_metric metrics[] = {
    { "branch_efficiency", "branch_efficiency",
      "smsp__sass_average_branch_targets_threads_uniform.pct", "%",
      N_("branches the whole warp took the same way; ncu shows 0 when there is no branch at all"),
      "branch_efficiency", 100 },
    { "divergent_branches", "divergent_branch", "smsp__sass_branch_targets_threads_divergent.sum",
      "", N_("branch targets at which the warp split"), "divergent_branches", 1 },
    { "branches", "branch", "smsp__sass_branch_targets.sum", "", N_("branch targets executed"),
      "branches", 1 },
    { "inst_per_warp", "inst_per_warp", "smsp__average_inst_executed_per_warp.ratio", "",
      N_("instructions each warp executed on average: fewer is less work"), "insts_per_warp", 1 },
    /* not under nvprof's name: its warp_execution_efficiency was this over 32, in % */
    { "threads_per_inst", "threads_per_inst", "smsp__thread_inst_executed_per_inst_executed.ratio",
      "",
      N_("active threads per executed instruction: 32 means no lane sat idle (nvprof's "
         "warp_execution_efficiency is this / 32, in %)"),
      "simt_efficiency", 32 },
    { "achieved_occupancy", "achieved_occupancy",
      "sm__warps_active.avg.pct_of_peak_sustained_active", "%",
      N_("warps resident on an SM as a share of its maximum, averaged over the run"), NULL, 0 },
    { "gld_efficiency", "gld_efficiency",
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "%",
      N_("bytes the loads used of the 32-byte sectors they fetched"), "gld_efficiency", 100 },
    { "sectors_per_request", "gld_transactions_per_request",
      "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "",
      N_("32-byte sectors per warp load: 4 is a fully coalesced warp reading 4-byte words"),
      "gld_sectors_per_request", 1 },
    { "gld_throughput", "gld_throughput", "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second",
      "bytes/s", N_("global load bytes per second seen by L1"), NULL, 0 },
    { "stall_sync", "stall_sync", "smsp__warp_issue_stalled_barrier_per_warp_active.pct", "%",
      N_("share of time warps waited at a barrier (__syncthreads)"), NULL, 0 },
    { "bank_conflicts", "shared_ld_bank_conflict",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "",
      N_("extra shared-memory passes caused by bank conflicts on loads"), "shared_bank_conflicts",
      1 },
    { "dram_read", "dram_read_bytes", "dram__bytes_read.sum", "bytes",
      N_("bytes read from device memory"), NULL, 0 },
    { "dram_write", "dram_write_bytes", "dram__bytes_write.sum", "bytes",
      N_("bytes written to device memory"), NULL, 0 },
    { "dram_throughput", "dram_utilization", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
      "%", N_("device-memory bandwidth used, as a share of its peak"), NULL, 0 },
    { "l2_hit_rate", "l2_tex_hit_rate", "lts__t_sector_hit_rate.pct", "%",
      N_("sectors the L2 cache served without going to device memory"), NULL, 0 },
};

_Static_assert(ARRAY_SIZE(metrics) <= LAB_METRICS_MAX, "a set holds every metric");

size_t
lab_metric_count(void)
{
    return ARRAY_SIZE(metrics);
}

const lab_metric *
lab_metric_at(size_t i)
{
    return i < ARRAY_SIZE(metrics) ? &metrics[i] : NULL;
}

const lab_metric *
lab_metric_find(const char *key)
{
    for (size_t i = 0; i < ARRAY_SIZE(metrics); i++)
        if (!strcmp(metrics[i].key, key))
            return &metrics[i];
    return NULL;
}

struct parse {
    lab_inifile ini;
    const char *path;
    lab_metric_set *out;
    lab_err *err;
    int version;
    int rc;
};

static int
set_metrics(struct parse *ps, const char *value, int line)
{
    char *copy = strdup(value), *save = NULL;

    if (!copy)
        return lab_err_set(ps->err, LAB_ENOMEM, "out of memory");
    ps->out->n = 0;
    for (char *t = strtok_r(copy, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        const lab_metric *m = lab_metric_find(t);
        if (!m) {
            lab_err_set(ps->err, LAB_EPARSE, "%s:%d: unknown metric '%s'", ps->path, line, t);
            free(copy);
            return LAB_EPARSE;
        }
        if (ps->out->n < LAB_METRICS_MAX)
            ps->out->v[ps->out->n++] = m;
    }
    free(copy);
    if (!ps->out->n)
        return lab_err_set(ps->err, LAB_EPARSE, "%s:%d: 'metrics' names no metric", ps->path, line);
    return 0;
}

static int
on_key(void *user, const char *section, const char *name, const char *value)
{
    struct parse *ps = user;
    int line = ps->ini.line;

    if (ps->rc < 0)
        return 0;
    if (strcmp(section, "profile"))
        ps->rc = lab_err_set(ps->err, LAB_EPARSE, "%s:%d: unknown section '%s'", ps->path, line,
                             section);
    else if (!strcmp(name, "version"))
        ps->version = atoi(value);
    else if (!strcmp(name, "metrics"))
        ps->rc = set_metrics(ps, value, line);
    else
        ps->rc = lab_err_set(ps->err, LAB_EPARSE, "%s:%d: unknown key '%s'", ps->path, line, name);
    return ps->rc == 0;
}

int
lab_metrics_for_chapter(const char *datadir, const char *chapter, lab_metric_set *out, lab_err *err)
{
    lab_buf path = LAB_BUF_INIT;
    struct parse ps = { .out = out, .err = err };
    int rc;

    out->n = 0;
    lab_buf_printf(&path, "%s/exercises/%s/profile.ini", datadir, chapter);
    ps.path = path.buf;
    if (access(path.buf, F_OK) < 0) {
        for (size_t i = 0; i < ARRAY_SIZE(metrics); i++)
            out->v[out->n++] = &metrics[i];
        rc = 0;
        goto out;
    }
    if ((rc = lab_inifile_parse(path.buf, &ps.ini, on_key, &ps, err)) < 0 && ps.rc == 0)
        goto out;
    if (ps.rc < 0)
        rc = ps.rc;
    else if (rc > 0)
        rc = lab_err_set(err, LAB_EPARSE, "%s:%d: not an INI line", path.buf, rc);
    else if (ps.version != 1)
        rc = lab_err_set(err, LAB_EPARSE, "%s:0: needs 'version = 1'", path.buf);
    else if (!out->n)
        rc = lab_err_set(err, LAB_EPARSE, "%s:0: needs 'metrics = ...'", path.buf);
out:
    lab_buf_release(&path);
    return rc;
}
