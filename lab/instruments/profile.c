/*
 * profile.c - ncu around the exercise's driver (see profile.h).
 */
#include "lab/instruments/profile.h"
#include "lab/build/constraints.h"
#include "lab/build/ptx.h"
#include "lab/catalog/family.h"
#include "lab/grade/gradeargs.h"
#include "lab/grade/compile.h"
#include "lab/grade/runner.h"
#include "lab/platform/proc.h"
#include "lab/util/i18n.h"

#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROFILE_TIMEOUT_S 300

/* Does the PTX divide (an integer or float div, or a rem): one PTX instruction that ptxas
 * expands into a dozen or more SASS instructions (a reciprocal and its corrections), so its
 * instruction counts differ most from Nsight Compute's. */
static bool
divides(const char *ptx)
{
    static const char *const rule[] = { "forbid rem|div" };
    lab_buf why = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    bool found = ptx && lab_constraints_check(ptx, "", rule, 1, &why, &err) == 1;

    lab_buf_release(&why);
    return found;
}

int
lab_profile_driver_argv(lab *l, const lab_exercise *ex, const char *file, const char *backend,
                        unsigned long size, lab_strvec *argv, lab_strvec *kernels, bool *compiled,
                        bool *divides_out, lab_buf *log, lab_err *err)
{
    const lab_exercise *base_ex = NULL;
    lab_build student, baseline, reference;
    const lab_device *dev;
    char arch[16];
    bool sim;
    int rc;

    if (!size)
        size =
            ex->ntiming_sizes ? ex->timing_sizes[ex->ntiming_sizes - 1] : ex->sizes[ex->nsizes - 1];
    *compiled = false;
    lab_build_init(&student);
    lab_build_init(&baseline);
    lab_build_init(&reference);
    if (strcmp(ex->baseline, "cpu") &&
        !(base_ex = lab_catalog_find(lab_catalog_of(l), ex->baseline))) {
        rc = lab_err_set(err, LAB_ENOENT, "%s: baseline '%s' is not an exercise", ex->manifest,
                         ex->baseline);
        goto out;
    }
    if (access(file, R_OK) < 0) {
        rc = lab_err_set(err, LAB_ENOENT, "cannot read '%s': %s", file, strerror(errno));
        goto out;
    }
    if ((rc = lab_device_probe(l, &dev, err)) < 0)
        goto out;
    snprintf(arch, sizeof(arch), "%s", lab_target_arch(dev));
    rc = lab_compile_file(l, ex, file, arch, NULL, true, &student, err);
    lab_buf_add(log, student.log.buf, student.log.len);
    if (rc < 0 || !student.ok)
        goto out;
    *compiled = true;
    if ((rc = lab_compile_solution(l, ex, arch, NULL, &reference, err)) < 0 ||
        (base_ex && (rc = lab_compile_solution(l, base_ex, arch, NULL, &baseline, err)) < 0))
        goto out;
    lab_strvec_pushf(argv, "%s/" LAB_RUNNER_PROGRAM, lab_libexecdir(l));
    lab_strvec_push(argv, ex->family);
    lab_strvec_pushf(argv, "--report-fd=%d", LAB_RUNNER_REPORT_FD);
    lab_strvec_pushf(argv, "--backend=%s", backend);
    sim = !strcmp(backend, "sim"); /* the simulator runs PTX, the GPU the cubin */
    if (divides_out) {
        divides_out[LAB_PROF_STUDENT] = divides(student.ptx.buf);
        divides_out[LAB_PROF_BASELINE] = base_ex && divides(baseline.ptx.buf);
        divides_out[LAB_PROF_REFERENCE] = divides(reference.ptx.buf);
    }
    lab_runner_roles_args(l, argv, ex, base_ex, lab_compile_module(ex, &student, sim),
                          lab_compile_module(ex, &reference, sim),
                          base_ex ? lab_compile_module(base_ex, &baseline, sim) : NULL);
    lab_strvec_push(kernels, ex->kernel);
    if (base_ex)
        lab_strvec_push(kernels, base_ex->kernel);
    lab_strvec_pushf(argv, "--sizes=%lu", size);
    lab_strvec_pushf(argv, "--timing-sizes=%lu", size);
    /* a few timed launches are enough: ncu replays each profiled launch anyway */
    rc = lab_strvec_pushl(argv, "--min-samples=1", "--time-cap=0.001", NULL);
out:
    lab_build_release(&student);
    lab_build_release(&baseline);
    lab_build_release(&reference);
    return rc;
}

unsigned long
lab_profile_sim_size(const lab_exercise *ex)
{
    const lab_family *fam = lab_family_find(ex->family);
    unsigned long cap = fam ? lab_family_sim_limit(fam, LAB_PROFILE_SIM_MAX) : LAB_PROFILE_SIM_MAX;
    unsigned long sizes[16], size = 0;
    size_t n = 0;

    /* the sizes a grading capped there would run: the task's large sizes stand in with full
     * blocks, where its small ones (n = 1000: two blocks, one half empty) show per-warp counts
     * far from the chapter's (review D11: 1.41x where the chapter teaches 2.5x) */
    lab_grading_sizes(ex, cap, sizes, ARRAY_SIZE(sizes), &n);
    for (size_t i = 0; i < n; i++)
        size = sizes[i] > size ? sizes[i] : size;
    return size ? size : ex->sizes[0];
}

const char *const lab_prof_role_names[LAB_PROF_ROLES] = { "student", "baseline", "reference" };

void
lab_profiling_init(lab_profiling *p)
{
    lab_strvec empty = LAB_STRVEC_INIT;

    memset(p, 0, sizeof(*p));
    lab_buf_init(&p->log);
    lab_buf_init(&p->output);
    p->command = empty;
}

void
lab_profiling_release(lab_profiling *p)
{
    lab_buf_release(&p->log);
    lab_buf_release(&p->output);
    lab_strvec_release(&p->command);
}

int
lab_profile_read_csv(lab_profiling *p, const char *csv, lab_err *err)
{
    lab_ncu_table t = LAB_NCU_TABLE_INIT;
    int seen_k = 0, rc;

    if ((rc = lab_ncu_parse(csv, &t, err)) < 0)
        return rc;
    for (size_t i = 0; i < t.nlaunches; i++) {
        const lab_ncu_launch *la = &t.launches[i];
        int role = -1;
        if (!strcmp(la->kernel, p->kernel[LAB_PROF_STUDENT]))
            role = seen_k++ == 0 ? LAB_PROF_STUDENT : seen_k == 2 ? LAB_PROF_REFERENCE : -1;
        else if (p->kernel[LAB_PROF_BASELINE][0] &&
                 !strcmp(la->kernel, p->kernel[LAB_PROF_BASELINE]))
            role = p->has[LAB_PROF_BASELINE] ? -1 : LAB_PROF_BASELINE;
        if (role < 0)
            continue;
        p->has[role] = true;
        for (size_t m = 0; m < p->set.n; m++) {
            int col = lab_ncu_column(&t, p->set.v[m]->ncu);
            if (col >= 0 && !isnan(la->values[col])) {
                p->value[role][m] = la->values[col];
                p->has_value[role][m] = true;
            }
        }
    }
    lab_ncu_table_release(&t);
    return 0;
}

void
lab_profile_read_report(lab_profiling *p, const char *json, size_t len)
{
    cJSON *root = json && len ? cJSON_ParseWithLength(json, len) : NULL;
    cJSON *sim = cJSON_GetObjectItemCaseSensitive(root, "sim_metrics"), *c;

    p->sim_reported = cJSON_IsArray(sim) && cJSON_GetArraySize(sim) > 0;
    cJSON_ArrayForEach(c, sim)
    {
        const char *role = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "role"));
        for (int r = 0; role && r < LAB_PROF_ROLES; r++) {
            if (strcmp(role, lab_prof_role_names[r]))
                continue;
            /* one object per case: the last (largest) size wins */
            for (size_t m = 0; m < p->set.n; m++) {
                const lab_metric *mt = p->set.v[m];
                cJSON *v = mt->sim ? cJSON_GetObjectItemCaseSensitive(c, mt->sim) : NULL;
                if (cJSON_IsNumber(v)) {
                    p->sim[r][m] = v->valuedouble * mt->sim_scale;
                    p->has_sim[r][m] = true;
                }
            }
        }
    }
    if (!p->sim_reported && root)
        snprintf(p->sim_why, sizeof(p->sim_why), "the simulator's report has no sim_metrics");
    cJSON_Delete(root);
}

/* The simulator's run: same driver, --backend=sim, a small size. */
static void
run_sim(lab *l, const lab_exercise *ex, const char *file, lab_profiling *p)
{
    lab_strvec argv = LAB_STRVEC_INIT, kernels = LAB_STRVEC_INIT;
    lab_buf log = LAB_BUF_INIT;
    lab_err err = LAB_ERR_INIT;
    lab_proc proc;
    bool compiled = false;

    p->sim_size = lab_profile_sim_size(ex);
    lab_proc_init(&proc);
    if (lab_profile_driver_argv(l, ex, file, "sim", p->sim_size, &argv, &kernels, &compiled,
                                p->divides, &log, &err) < 0 ||
        !compiled) {
        snprintf(p->sim_why, sizeof(p->sim_why), "%s",
                 compiled || err.code ? err.msg : "the file does not compile");
        goto out;
    }
    for (size_t i = 0; i < kernels.n && i < 2;
         i++) /* without ncu, the roles' names come from here */
        if (!p->kernel[i][0])
            snprintf(p->kernel[i], sizeof(p->kernel[i]), "%s", kernels.v[i]);
    if (!p->kernel[LAB_PROF_REFERENCE][0] && kernels.n)
        snprintf(p->kernel[LAB_PROF_REFERENCE], sizeof(p->kernel[0]), "%s", kernels.v[0]);
    lab_strvec_pushv(&proc.argv, (const char *const *)argv.v);
    proc.report_fd = 3;
    proc.cancel = p->cancel;
    proc.timeout_s = ex->run_timeout_s;
    if (lab_proc_run(&proc, &err) < 0) {
        snprintf(p->sim_why, sizeof(p->sim_why), "%s", err.msg);
        goto out;
    }
    lab_profile_read_report(p, proc.report.buf, proc.report.len);
    if (!proc.report.len) {
        char how[128];
        snprintf(p->sim_why, sizeof(p->sim_why), "the simulator's run %s",
                 lab_proc_describe(&proc, how, sizeof(how)));
    }
out:
    lab_proc_release(&proc);
    lab_strvec_release(&argv);
    lab_strvec_release(&kernels);
    lab_buf_release(&log);
}

void
lab_profile_format(char *buf, size_t size, bool has, double v, const char *unit)
{
    if (!has)
        snprintf(buf, size, "-");
    else if (!strcmp(unit, "bytes") && v >= 1e6)
        snprintf(buf, size, "%.2f MB", v / 1e6);
    else if (!strcmp(unit, "bytes"))
        snprintf(buf, size, "%.0f B", v);
    else if (!strcmp(unit, "bytes/s"))
        snprintf(buf, size, "%.1f GB/s", v / 1e9);
    else
        snprintf(buf, size, "%.2f%s", v, !strcmp(unit, "%") ? " %" : "");
}

static void
set_why(lab_profiling *p, lab_prof_status s, const char *fmt, const char *arg)
{
    p->status = s;
    snprintf(p->why, sizeof(p->why), fmt, arg);
}

static int
run_ncu(lab_profiling *p, const char *ncu, const char *dir, lab_strvec *driver, lab_err *err)
{
    lab_buf csv_path = LAB_BUF_INIT, metrics = LAB_BUF_INIT, csv = LAB_BUF_INIT;
    lab_proc proc;
    int rc, count = p->kernel[LAB_PROF_BASELINE][0] ? 3 : 2;

    lab_proc_init(&proc);
    lab_buf_printf(&csv_path, "%s/ncu.csv", dir);
    for (size_t m = 0; m < p->set.n; m++)
        lab_buf_printf(&metrics, "%s%s", m ? "," : "", p->set.v[m]->ncu);
    lab_strvec_pushl(&p->command, ncu, "--clock-control", "none", "--csv", "--page", "raw",
                     "--print-kernel-base", "function", "--log-file", csv_path.buf, "--metrics",
                     metrics.buf, NULL);
    if (p->kernel[LAB_PROF_BASELINE][0])
        lab_strvec_pushf(&p->command, "--kernel-name=regex:^(%s|%s)$", p->kernel[LAB_PROF_STUDENT],
                         p->kernel[LAB_PROF_BASELINE]);
    else
        lab_strvec_pushf(&p->command, "--kernel-name=regex:^%s$", p->kernel[LAB_PROF_STUDENT]);
    lab_strvec_pushf(&p->command, "--launch-count=%d", count);
    lab_strvec_pushv(&p->command, (const char *const *)driver->v);
    lab_strvec_pushv(&proc.argv, (const char *const *)p->command.v);
    proc.report_fd = 3;
    proc.timeout_s = PROFILE_TIMEOUT_S;
    proc.cancel = p->cancel;
    if ((rc = lab_proc_run(&proc, err)) < 0)
        goto out;
    if (proc.cancelled) {
        rc = lab_err_set(err, LAB_ECANCEL, "cancelled");
        goto out;
    }
    lab_buf_add(&p->output, proc.out.buf, proc.out.len);
    lab_buf_add(&p->output, proc.errout.buf, proc.errout.len);
    if (access(csv_path.buf, R_OK) == 0 && (rc = lab_buf_read_file(&csv, csv_path.buf, err)) < 0)
        goto out;
    /* should an ncu print its CSV on stdout in spite of --log-file, read it there */
    if (!strstr(csv.buf, "\"ID\",\"Process ID\"") &&
        strstr(proc.out.buf, "\"ID\",\"Process ID\"")) {
        lab_buf_reset(&csv);
        lab_buf_add(&csv, proc.out.buf, proc.out.len);
    }
    if (lab_ncu_no_permission(csv.buf) || lab_ncu_no_permission(p->output.buf)) {
        set_why(p, LAB_PROF_NO_PERMISSION, "%s",
                _("ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM): run the "
                  "lab as root, or allow them for every user: echo 'options nvidia "
                  "NVreg_RestrictProfilingToAdminUsers=0' | sudo tee "
                  "/etc/modprobe.d/nvidia-prof.conf, then reboot "
                  "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)"));
        goto out;
    }
    if (lab_profile_read_csv(p, csv.buf, err) < 0 || !p->has[LAB_PROF_STUDENT]) {
        char how[128];
        set_why(p, LAB_PROF_NCU_FAILED, _("ncu gave no figures for the kernel (%s)"),
                lab_proc_describe(&proc, how, sizeof(how)));
        rc = 0;
        goto out;
    }
    p->status = LAB_PROF_OK;
out:
    unlink(csv_path.buf);
    lab_proc_release(&proc);
    lab_buf_release(&csv_path);
    lab_buf_release(&metrics);
    lab_buf_release(&csv);
    return rc;
}

int
lab_profile(lab *l, const lab_exercise *ex, const char *file, lab_profiling *p, lab_err *err)
{
    lab_strvec driver = LAB_STRVEC_INIT, kernels = LAB_STRVEC_INIT;
    const lab_toolchain *tc;
    const lab_device *dev;
    lab_err why = LAB_ERR_INIT;
    char reason[512];
    char *ncu = NULL, dir[] = "/tmp/cudalab-profile-XXXXXX";
    bool compiled = false, have_dir = false;
    int rc;

    if (ex->kind == LAB_KIND_HOST) /* nothing runs on a GPU, nor on the simulator */
        return lab_err_set(err, LAB_EINVAL, _("%s is host code: there is no kernel to profile"),
                           ex->id);
    if ((rc = lab_metrics_for_chapter(lab_datadir(l), ex->chapter, &p->set, err)) < 0 ||
        (rc = lab_toolchain_of(l, &tc, err)) < 0)
        goto out;
    if (lab_toolchain_find_tool(tc, "ncu", "CUDALAB_NCU", NULL, &ncu, &why) < 0) {
        set_why(p, LAB_PROF_NO_NCU,
                _("%s; Nsight Compute comes with the CUDA toolkit (package nsight-compute) or "
                  "from https://developer.nvidia.com/nsight-compute"),
                why.msg);
        run_sim(l, ex, file, p);
        goto out;
    }
    if ((rc = lab_device_probe(l, &dev, err)) < 0)
        goto out;
    if (!dev->present) {
        set_why(p, LAB_PROF_NO_GPU, _("profiling needs a GPU: %s"),
                lab_device_reason(dev, reason, sizeof(reason)));
        run_sim(l, ex, file, p);
        goto out;
    }
    snprintf(p->device, sizeof(p->device), "%s", dev->name);
    if ((rc = lab_profile_driver_argv(l, ex, file, "cuda", 0, &driver, &kernels, &compiled,
                                      p->divides, &p->log, err)) < 0)
        goto out;
    if (!compiled) {
        set_why(p, LAB_PROF_COMPILE_ERROR, "%s does not compile", file);
        goto out;
    }
    for (size_t i = 0; i < kernels.n && i < 2; i++)
        snprintf(p->kernel[i], sizeof(p->kernel[i]), "%s", kernels.v[i]);
    snprintf(p->kernel[LAB_PROF_REFERENCE], sizeof(p->kernel[0]), "%s", kernels.v[0]);
    if (!mkdtemp(dir)) {
        rc = lab_err_set(err, LAB_EIO, "cannot make a temp dir: %s", strerror(errno));
        goto out;
    }
    have_dir = true;
    if ((rc = run_ncu(p, ncu, dir, &driver, err)) == 0 && p->status == LAB_PROF_OK)
        run_sim(l, ex, file, p);
out:
    if (have_dir)
        rmdir(dir);
    free(ncu);
    lab_strvec_release(&driver);
    lab_strvec_release(&kernels);
    return rc;
}
