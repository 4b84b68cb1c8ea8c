/*
 * lab.c - the lab context and the grading of one attempt (see lab.h).
 *
 * lab_grade: read and hash the file -> probe the GPU (arch) -> build the
 * student's file, the baseline's and the reference's solutions -> check the
 * kernel exists and the constraints hold on the PTX -> run the family's
 * driver with a report pipe on fd 3 and the run timeout -> parse the report
 * -> judge -> record one attempt in the store.
 */
#include "lab/core/lab.h"
#include "lab/core/proc.h"
#include "lab/core/ptx.h"
#include "lab/core/toolchain.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REPORT_FD 3
#define PROBE_TIMEOUT_S 30
#define CACHE_SUBDIR "build"

/* The C++ parameter code of each family's kernel signature (Itanium mangling), and what its
 * driver times when the baseline is "cpu" (NULL: "the CPU"). */
static const struct {
    const char *family;
    const char *params;
    const char *cpu_baseline;
} families[] = {
    { "reduce-int", "PiS_j", "the CPU recursiveReduce" }, /* (int *, int *, unsigned int) */
    { "reduce-float", "PKfPfj", "the CPU serial sum" },   /* (const float *, float *, unsigned) */
    { "host-reduce-int", "Pii", NULL },                   /* int f(int *, int) */
    { "warp-ids", "PjS_S_j",
      NULL },                      /* (unsigned *gid, unsigned *warp, unsigned *lane, unsigned n) */
    { "warp-active", "Pj", NULL }, /* (unsigned *active) */
    { "shuffle-int", "PKiPij", NULL },  /* (const int *src, int *dst, unsigned int n) */
    { "sum-matrix", "PfS_S_ii", NULL }, /* (float *A, float *B, float *C, int nx, int ny) */
    { "records-int", "PK6RecordPKiS3_S3_Pij",
      NULL }, /* (const Record *, const int * x3, int *, unsigned) */
    { "host-occupancy", "PK9OccDeviceiii", NULL }, /* int f(const OccDevice *, int, int, int) */
};

struct lab {
    char *datadir;
    char *libexecdir;
    char *cachedir;
    char *builddir; /* cachedir/build: compiled kernels */
    lab_catalog *catalog;
    lab_store *store;
    lab_toolchain *toolchain;
    bool probed;
    lab_device device;
};

static bool
is_dir(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dirname(dirname(/proc/self/exe)): the prefix or the source tree. */
static char *
exe_prefix(void)
{
    char *exe = realpath("/proc/self/exe", NULL), *slash;

    for (int i = 0; exe && i < 2; i++)
        if ((slash = strrchr(exe, '/')))
            *slash = '\0';
    return exe;
}

/* $env, else prefix/installed_rel in an installed copy (PREFIX/share/cudalab/exercises
 * exists), else prefix/source_rel in a source tree (prefix/exercises exists), else the
 * installed path, for the error to name. */
static char *
pick_dir(const char *env, const char *prefix, const char *installed_rel, const char *source_rel)
{
    const char *v = getenv(env);
    lab_buf b = LAB_BUF_INIT;
    bool source;

    if (v && *v)
        return strdup(v);
    if (!prefix)
        return NULL;
    lab_buf_printf(&b, "%s/share/cudalab/exercises", prefix);
    source = !is_dir(b.buf);
    lab_buf_reset(&b);
    lab_buf_printf(&b, "%s/exercises", prefix);
    source = source && is_dir(b.buf);
    lab_buf_reset(&b);
    if (source)
        lab_buf_printf(&b, "%s%s%s", prefix, *source_rel ? "/" : "", source_rel);
    else
        lab_buf_printf(&b, "%s/%s", prefix, installed_rel);
    return lab_buf_detach(&b);
}

static char *
cache_dir(void)
{
    const char *v = getenv("CUDALAB_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    lab_buf b = LAB_BUF_INIT;

    if (v && *v)
        lab_buf_adds(&b, v);
    else if (xdg && *xdg)
        lab_buf_printf(&b, "%s/cudalab", xdg);
    else
        lab_buf_printf(&b, "%s/.cache/cudalab", home && *home ? home : "/tmp");
    return lab_buf_detach(&b);
}

int
lab_open(lab **out, lab_err *err)
{
    lab *l = calloc(1, sizeof(*l));
    char *prefix = exe_prefix();
    int rc;

    *out = NULL;
    if (!l) {
        free(prefix);
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    }
    l->datadir = pick_dir("CUDALAB_DATADIR", prefix, "share/cudalab", "");
    l->libexecdir =
        pick_dir("CUDALAB_LIBEXECDIR", prefix, "libexec/cudalab", "build/libexec/cudalab");
    l->cachedir = cache_dir();
    free(prefix);
    if (l->cachedir) {
        lab_buf b = LAB_BUF_INIT;
        lab_buf_printf(&b, "%s/" CACHE_SUBDIR, l->cachedir);
        l->builddir = lab_buf_detach(&b);
    }
    if (!l->datadir || !l->libexecdir || !l->builddir) {
        lab_close(l);
        return lab_err_set(err, LAB_ENOENT, "cannot find the lab's files: set CUDALAB_DATADIR");
    }
    if ((rc = lab_catalog_load(l->datadir, &l->catalog, err)) < 0) {
        lab_close(l);
        return rc;
    }
    *out = l;
    return 0;
}

void
lab_close(lab *l)
{
    if (!l)
        return;
    lab_catalog_free(l->catalog);
    lab_store_close(l->store);
    lab_toolchain_free(l->toolchain);
    free(l->datadir);
    free(l->libexecdir);
    free(l->cachedir);
    free(l->builddir);
    free(l);
}

const lab_catalog *
lab_catalog_of(const lab *l)
{
    return l->catalog;
}

const char *
lab_datadir(const lab *l)
{
    return l->datadir;
}

const char *
lab_libexecdir(const lab *l)
{
    return l->libexecdir;
}

int
lab_store_of(lab *l, lab_store **out, lab_err *err)
{
    lab_buf path = LAB_BUF_INIT;
    int rc = 0;

    if (!l->store) {
        if ((rc = lab_store_default_path(&path, err)) == 0)
            rc = lab_store_open(path.buf, &l->store, err);
        lab_buf_release(&path);
    }
    *out = l->store;
    return rc;
}

int
lab_work_path(const lab_exercise *ex, lab_buf *out)
{
    return lab_buf_printf(out, "work/%s/%s.cu", ex->chapter, ex->name);
}

int
lab_run_driver(lab *l, const char *driver, lab_strvec *args, double timeout_s,
               const volatile sig_atomic_t *cancel, lab_proc *p, lab_err *err)
{
    int rc;

    lab_proc_init(p);
    p->report_fd = REPORT_FD;
    p->timeout_s = timeout_s;
    p->cancel = cancel;
    if ((rc = lab_strvec_pushf(&p->argv, "%s/%s", l->libexecdir, driver)) < 0 ||
        (rc = lab_strvec_pushf(&p->argv, "--report-fd=%d", REPORT_FD)) < 0 ||
        (rc = lab_strvec_pushv(&p->argv, (const char *const *)args->v)) < 0)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    if ((rc = lab_proc_run(p, err)) < 0)
        return lab_err_wrap(err, "driver '%s'", driver);
    return 0;
}

int
lab_backend_probe(lab *l, const char *backend, lab_device *out, lab_err *err)
{
    lab_strvec args = LAB_STRVEC_INIT;
    lab_runreport r;
    lab_proc p;
    int rc;

    memset(out, 0, sizeof(*out));
    lab_strvec_pushf(&args, "--backend=%s", backend);
    lab_strvec_push(&args, "--probe");
    rc = lab_run_driver(l, "device-probe", &args, PROBE_TIMEOUT_S, NULL, &p, err);
    lab_strvec_release(&args);
    if (rc < 0)
        goto out;
    if ((rc = lab_runreport_parse(p.report.buf, p.report.len, &r, err)) < 0) {
        char how[128];
        lab_err_wrap(err, "device probe %s", lab_proc_describe(&p, how, sizeof(how)));
        lab_runreport_release(&r);
        goto out;
    }
    out->driver_found = r.driver_found;
    out->driver_version = r.driver_version;
    snprintf(out->driver_library, sizeof(out->driver_library), "%s", r.driver_library);
    if (!strcmp(r.status, "ok")) {
        int major = 0, minor = 0;
        out->present = true;
        snprintf(out->name, sizeof(out->name), "%s", r.device);
        snprintf(out->cc, sizeof(out->cc), "%s", r.cc);
        sscanf(r.cc, "%d.%d", &major, &minor);
        snprintf(out->arch, sizeof(out->arch), "sm_%d%d", major, minor);
        out->peak_gbps = r.peak_gbps;
    } else {
        snprintf(out->reason, sizeof(out->reason), "%s", r.reason);
    }
    lab_runreport_release(&r);
out:
    lab_proc_release(&p);
    return rc;
}

int
lab_device_probe(lab *l, const lab_device **out, lab_err *err)
{
    int rc;

    if (!l->probed) {
        if ((rc = lab_backend_probe(l, "cuda", &l->device, err)) < 0)
            return rc;
        l->probed = true;
    }
    *out = &l->device;
    return 0;
}

void
lab_grading_init(lab_grading *g)
{
    memset(g, 0, sizeof(*g));
    lab_buf_init(&g->report_json);
    lab_buf_init(&g->compiler_log);
}

void
lab_grading_release(lab_grading *g)
{
    if (g->has_report)
        lab_runreport_release(&g->report);
    lab_buf_release(&g->report_json);
    lab_buf_release(&g->compiler_log);
}

static void
stage(const lab_grade_request *req, lab_stage s, const char *what)
{
    if (req->on_stage)
        req->on_stage(s, what, req->arg);
}

const char *
lab_target_arch(const lab_device *dev)
{
    const char *arch_env = getenv("CUDALAB_ARCH");

    return arch_env && *arch_env ? arch_env : dev->present ? dev->arch : LAB_DEFAULT_ARCH;
}

static const char *
family_params(const char *family, const char **cpu_baseline)
{
    for (size_t i = 0; i < ARRAY_SIZE(families); i++)
        if (!strcmp(families[i].family, family)) {
            *cpu_baseline = families[i].cpu_baseline ? families[i].cpu_baseline : "the CPU";
            return families[i].params;
        }
    return NULL;
}

/* Compiles path for ex (cached); a cancelled build is LAB_ECANCEL, a failed one only b->ok false.
 */
static int
build_file(lab *l, const lab_exercise *ex, const char *path, const char *arch, lab_build *b,
           const lab_grade_request *req, lab_err *err)
{
    lab_build_request br = {
        path,        ex->instantiate,          arch, l->builddir, ex->build_timeout_s,
        req->cancel, ex->kind == LAB_KIND_HOST
    };
    int rc;

    if ((rc = lab_toolchain_build(l->toolchain, &br, b, err)) < 0)
        return rc;
    if (b->cancelled)
        return lab_err_set(err, LAB_ECANCEL, "cancelled");
    return 0;
}

/* Builds one of the lab's own files (a solution); its failure is the lab's. */
static int
build_lab_file(lab *l, const lab_exercise *ex, const char *path, const char *arch, lab_build *b,
               const lab_grade_request *req, lab_err *err)
{
    int rc;

    if ((rc = build_file(l, ex, path, arch, b, req, err)) < 0)
        return rc;
    if (!b->ok)
        return lab_err_set(err, LAB_ETOOL, "the lab's own '%s' does not compile: %s", path,
                           b->timed_out ? "timed out" : b->log.buf);
    return 0;
}

static void
sizes_arg(lab_strvec *args, const char *opt, const unsigned long *v, size_t n)
{
    lab_buf b = LAB_BUF_INIT;

    for (size_t i = 0; i < n; i++)
        lab_buf_printf(&b, "%s%lu", i ? "," : "", v[i]);
    lab_strvec_pushf(args, "%s=%s", opt, b.buf);
    lab_buf_release(&b);
}

/* --block=40x2,8x4x2 (one number for a single 1D shape, as before) */
static void
blocks_arg(lab_strvec *args, const lab_exercise *ex)
{
    lab_buf b = LAB_BUF_INIT;
    char shape[48];

    for (size_t i = 0; i < ex->nblocks; i++) {
        lab_block_shape_format(&ex->blocks[i], shape, sizeof(shape));
        lab_buf_printf(&b, "%s%s", i ? "," : "", shape);
    }
    lab_strvec_pushf(args, "--block=%s", b.buf);
    lab_buf_release(&b);
}

static int
record(lab *l, const lab_grade_request *req, lab_grading *g, lab_err *err)
{
    lab_store *st;
    lab_attempt a = { 0 };
    int rc;

    if ((rc = lab_store_of(l, &st, err)) < 0)
        return rc;
    a.exercise = req->ex->id;
    a.file = req->file;
    a.file_hash = g->file_hash;
    a.time = (int64_t)time(NULL);
    a.backend = req->ex->kind == LAB_KIND_HOST ? "host" : g->device.present ? "cuda" : "none";
    a.device = g->device.name;
    a.verdict = lab_verdict_describe(g->result.verdict)->name;
    a.message = g->result.message;
    a.cases_json = g->report_json.len ? g->report_json.buf : "";
    a.median_ns = g->result.median_ns;
    a.speedup = g->result.speedup;
    a.fraction = g->result.fraction;
    a.points = g->result.points;
    return lab_store_add_attempt(st, &a, NULL, err);
}

const char *
lab_module_path(const lab_exercise *ex, const lab_build *b)
{
    return ex->kind == LAB_KIND_HOST ? b->so_path.buf : b->cubin_path.buf;
}

/* How a role's kernel is launched: prefix "" for the student's, "baseline-" for the step before. */
static void
shape_args(lab_strvec *args, const char *prefix, const lab_exercise *ex)
{
    /* every field, defaults too: the baseline's shape must not fall back to the student's */
    if (*prefix) /* the step before: its first shape's threads */
        lab_strvec_pushf(args, "--%sblock=%u", prefix, ex->block);
    else
        blocks_arg(args, ex);
    lab_strvec_pushf(args, "--%sunroll=%u", prefix, ex->unroll);
    lab_strvec_pushf(args, "--%soutput=%s", prefix,
                     ex->output == LAB_OUTPUT_TOTAL ? "total" : "partials");
    lab_strvec_pushf(args, "--%sgrid-per-sm=%u", prefix, ex->grid_per_sm);
    if (ex->entry)
        lab_strvec_pushf(args, "--%sentry=%s", prefix, ex->entry);
}

static int
run_and_judge(lab *l, const lab_grade_request *req, lab_grading *g, lab_build *student,
              lab_build *baseline, lab_build *reference, const lab_exercise *base_ex, lab_err *err)
{
    const lab_exercise *ex = req->ex;
    lab_strvec args = LAB_STRVEC_INIT;
    lab_proc p;
    char how[128];
    int rc;

    if (ex->kind == LAB_KIND_HOST)
        lab_strvec_push(&args, "--backend=host");
    lab_strvec_pushf(&args, "--lab-kernels=%s/lab-kernels.ptx", l->libexecdir);
    lab_strvec_pushf(&args, "--student=%s", lab_module_path(ex, student));
    lab_strvec_pushf(&args, "--reference=%s", lab_module_path(ex, reference));
    lab_strvec_pushf(&args, "--kernel=%s", ex->kernel);
    shape_args(&args, "", ex);
    if (base_ex) {
        lab_strvec_pushf(&args, "--baseline=%s", lab_module_path(base_ex, baseline));
        lab_strvec_pushf(&args, "--baseline-kernel=%s", base_ex->kernel);
        shape_args(&args, "baseline-", base_ex);
    } else {
        lab_strvec_push(&args, "--baseline=cpu");
    }
    sizes_arg(&args, "--sizes", ex->sizes, ex->nsizes);
    if (ex->ntiming_sizes)
        sizes_arg(&args, "--timing-sizes", ex->timing_sizes, ex->ntiming_sizes);
    lab_strvec_pushf(&args, "--seed=%llu", (unsigned long long)g->seed);
    rc = lab_run_driver(l, ex->family, &args, ex->run_timeout_s, req->cancel, &p, err);
    lab_strvec_release(&args);
    if (rc < 0)
        goto out;
    if (p.cancelled) {
        rc = lab_err_set(err, LAB_ECANCEL, "cancelled");
        goto out;
    }
    if (p.timed_out) {
        lab_grade_set(&g->result, ex, LAB_VERDICT_TIMEOUT,
                      "%s did not finish within %.0f s; the lab stopped it", ex->kernel,
                      ex->run_timeout_s);
        goto out;
    }
    lab_buf_add(&g->report_json, p.report.buf, p.report.len);
    if (p.report.len == 0) {
        if (p.exited && p.exit_code == 2)
            rc = lab_err_set(err, LAB_ECHILD, "driver '%s' refused its arguments: %s", ex->family,
                             p.errout.buf);
        else
            lab_grade_set(&g->result, ex, LAB_VERDICT_RUNTIME_ERROR,
                          "the run ended without a report: the driver %s",
                          lab_proc_describe(&p, how, sizeof(how)));
        goto out;
    }
    if ((rc = lab_runreport_parse(p.report.buf, p.report.len, &g->report, err)) < 0) {
        lab_runreport_release(&g->report);
        goto out;
    }
    g->has_report = true;
    rc = lab_grade_judge(ex, g->baseline_name, &g->report, &g->result, err);
out:
    lab_proc_release(&p);
    return rc;
}

int
lab_grade(lab *l, const lab_grade_request *req, lab_grading *g, lab_err *err)
{
    const lab_exercise *ex = req->ex, *base_ex = NULL;
    const lab_device *dev;
    lab_build student, baseline, reference;
    lab_buf why = LAB_BUF_INIT, mangled = LAB_BUF_INIT, found = LAB_BUF_INIT;
    const char *params, *cpu_baseline;
    int rc;

    lab_build_init(&student);
    lab_build_init(&baseline);
    lab_build_init(&reference);
    g->seed =
        req->seed ? req->seed : ((uint64_t)time(NULL) << 20 ^ (uint64_t)getpid()) % 1000000007;
    if (!(params = family_params(ex->family, &cpu_baseline))) {
        rc = lab_err_set(err, LAB_EINVAL, "%s: unknown family '%s'", ex->manifest, ex->family);
        goto out;
    }
    if (strcmp(ex->baseline, "cpu")) {
        if (!(base_ex = lab_catalog_find(l->catalog, ex->baseline))) {
            rc = lab_err_set(err, LAB_ENOENT, "%s: baseline '%s' is not an exercise", ex->manifest,
                             ex->baseline);
            goto out;
        }
        snprintf(g->baseline_name, sizeof(g->baseline_name), "%s", base_ex->kernel);
    } else {
        snprintf(g->baseline_name, sizeof(g->baseline_name), "%s", cpu_baseline);
    }
    if (access(req->file, R_OK) < 0) {
        rc = lab_err_set(err, LAB_ENOENT, "cannot read '%s': %s", req->file, strerror(errno));
        goto out;
    }
    if (!l->toolchain && (rc = lab_toolchain_find(&l->toolchain, err)) < 0)
        goto out;
    if ((rc = lab_device_probe(l, &dev, err)) < 0)
        goto out;
    g->device = *dev;
    snprintf(g->arch, sizeof(g->arch), "%s", lab_target_arch(dev));

    stage(req, LAB_STAGE_COMPILE, req->file);
    rc = build_file(l, ex, req->file, g->arch, &student, req, err);
    memcpy(g->file_hash, student.hash, sizeof(g->file_hash));
    lab_buf_add(&g->compiler_log, student.log.buf, student.log.len);
    if (rc < 0)
        goto out;
    if (!student.ok) {
        if (student.timed_out)
            lab_grade_set(&g->result, ex, LAB_VERDICT_COMPILE_ERROR,
                          "nvcc did not finish within %.0f s", ex->build_timeout_s);
        else
            lab_grade_set(&g->result, ex, LAB_VERDICT_COMPILE_ERROR, "%s does not compile",
                          req->file);
        goto judged;
    }

    if (ex->kind == LAB_KIND_HOST)
        goto built; /* no PTX: the driver looks the function up */
    stage(req, LAB_STAGE_CHECK, "kernel and constraints");
    if (ex->entry)
        lab_buf_adds(&mangled, ex->entry);
    else
        lab_ptx_mangle(ex->kernel, params, &mangled);
    if (!lab_ptx_has_entry(student.ptx.buf, mangled.buf)) {
        lab_ptx_list_entries(student.ptx.buf, &found);
        lab_grade_set(&g->result, ex, LAB_VERDICT_COMPILE_ERROR,
                      "%s defines no kernel %s with this exercise's parameters; it defines: %s",
                      req->file, ex->kernel, found.len ? found.buf : "no kernel");
        goto judged;
    }
    if ((rc = lab_ptx_check_constraints(student.ptx.buf, ex->constraints, ex->nconstraints, &why,
                                        err)) < 0)
        goto out;
    if (rc == 1) {
        rc = 0;
        lab_grade_set(&g->result, ex, LAB_VERDICT_CONSTRAINT, "%s %s", ex->kernel, why.buf);
        goto judged;
    }
built:
    if ((rc = build_lab_file(l, ex, ex->solution, g->arch, &reference, req, err)) < 0 ||
        (base_ex &&
         (rc = build_lab_file(l, base_ex, base_ex->solution, g->arch, &baseline, req, err)) < 0))
        goto out;
    if (!dev->present && ex->kind != LAB_KIND_HOST) {
        lab_grade_set(&g->result, ex, LAB_VERDICT_NO_GPU,
                      "compiled for %s; no GPU to run it on: %s", g->arch, dev->reason);
        goto judged;
    }

    stage(req, LAB_STAGE_RUN, dev->name);
    if ((rc = run_and_judge(l, req, g, &student, &baseline, &reference, base_ex, err)) < 0)
        goto out;
judged:
    if (req->record) {
        stage(req, LAB_STAGE_RECORD, "progress");
        rc = record(l, req, g, err);
    }
out:
    lab_build_release(&student);
    lab_build_release(&baseline);
    lab_build_release(&reference);
    lab_buf_release(&why);
    lab_buf_release(&mangled);
    lab_buf_release(&found);
    return rc;
}

int
lab_build_solution(lab *l, const lab_exercise *ex, const char *arch,
                   const volatile sig_atomic_t *cancel, lab_build *b, lab_err *err)
{
    lab_grade_request req = { .ex = ex, .cancel = cancel };
    int rc;

    if (!l->toolchain && (rc = lab_toolchain_find(&l->toolchain, err)) < 0)
        return rc;
    return build_lab_file(l, ex, ex->solution, arch, b, &req, err);
}
