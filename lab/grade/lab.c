/*
 * lab.c - the lab context and the grading of one attempt (see lab.h).
 *
 * lab_grade: read and hash the file -> probe the GPU (arch) -> build the
 * student's file, the baseline's and the reference's solutions -> check the
 * kernel exists and the constraints hold on the PTX -> run the family's
 * driver with a report pipe on fd 3 and the run timeout -> parse the report
 * -> judge -> record one attempt in the store.
 */
#include "lab/grade/lab.h"
#include "lab/grade/calib.h"
#include "lab/platform/devlock.h"
#include "lab/platform/proc.h"
#include "lab/build/ptx.h"
#include "lab/build/toolchain.h"

#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define REPORT_FD 3
#define PROBE_TIMEOUT_S 30
#define CACHE_SUBDIR "build"

/* The C++ parameter code of each family's kernel signature (Itanium mangling), what its
 * driver times when the baseline is "cpu" (NULL: "the CPU"), and whether its sizes are a
 * matrix's side rather than a count of elements (the simulator caps them differently). */
static const struct {
    const char *family;
    const char *params;
    const char *cpu_baseline;
    bool matrix_side;
} families[] = {
    /* (int *, int *, unsigned int) */
    { "reduce-int", "PiS_j", "the CPU recursiveReduce", false },
    /* (const float *, float *, unsigned) */
    { "reduce-float", "PKfPfj", "the CPU serial sum", false },
    /* int f(int *, int) */
    { "host-reduce-int", "Pii", NULL, false },
    /* (int *, int *, unsigned int) */
    { "reduce-nested", "PiS_j", NULL, false },
    /* (unsigned *gid, unsigned *warp, unsigned *lane, unsigned n) */
    { "warp-ids", "PjS_S_j", NULL, false },
    /* (unsigned *active) */
    { "warp-active", "Pj", NULL, false },
    /* (const int *src, int *dst, unsigned int n) */
    { "shuffle-int", "PKiPij", NULL, false },
    /* (float *A, float *B, float *C, int nx, int ny): the size is the matrix's side */
    { "sum-matrix", "PfS_S_ii", NULL, true },
    /* (const Record *, const int * x3, int *, unsigned) */
    { "records-int", "PK6RecordPKiS3_S3_Pij", NULL, false },
    /* int f(const OccDevice *, int, int, int) */
    { "host-occupancy", "PK9OccDeviceiii", NULL, false },
    /* (const int *in, const int *table, int *out, unsigned) */
    { "table-map", "PKiS0_Pij", NULL, false },
};

struct lab {
    char *datadir;
    char *libexecdir;
    char *cachedir;
    char *builddir; /* cachedir/build: compiled kernels */
    char *toolsdir; /* CUDA tools from PyPI */
    lab_catalog *catalog;
    lab_store *store;
    lab_toolchain *toolchain;
    bool probed;
    lab_device device;
    bool sandboxed; /* student compiles and drivers run under bubblewrap */
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

/* CUDALAB_SANDBOX=off|auto|on: the default for a student's own gradings is off. */
static int
sandbox_from_env(lab *l, lab_err *err)
{
    static const char *const names[] = {
        [LAB_SANDBOX_OFF] = "off", [LAB_SANDBOX_AUTO] = "auto", [LAB_SANDBOX_ON] = "on"
    };
    const char *v = getenv("CUDALAB_SANDBOX");

    if (!v || !*v)
        return 0;
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (!strcmp(v, names[i]))
            return lab_set_sandbox(l, (lab_sandbox_mode)i, err);
    return lab_err_set(err, LAB_EINVAL, "CUDALAB_SANDBOX='%s': expected off, auto or on", v);
}

int
lab_set_sandbox(lab *l, lab_sandbox_mode mode, lab_err *err)
{
    lab_buf why = LAB_BUF_INIT;
    int rc = 0;

    l->sandboxed = false;
    if (mode == LAB_SANDBOX_OFF)
        return 0;
    if (lab_sandbox_probe(getenv("CUDALAB_BWRAP"), &why))
        l->sandboxed = true;
    else if (mode == LAB_SANDBOX_ON)
        rc = lab_err_set(err, LAB_ENOSYS, "%s", why.buf);
    lab_buf_release(&why);
    return rc;
}

bool
lab_sandboxed(const lab *l)
{
    return l->sandboxed;
}

const char *
lab_cachedir(const lab *l)
{
    return l->cachedir;
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
    if (l->datadir) {
        const char *t = getenv("CUDALAB_TOOLS_DIR");
        lab_buf b = LAB_BUF_INIT;
        if (t && *t)
            lab_buf_adds(&b, t);
        else
            lab_buf_printf(&b, "%s/tools/cuda/bin", l->datadir);
        l->toolsdir = lab_buf_detach(&b);
    }
    if (!l->datadir || !l->libexecdir || !l->builddir || !l->toolsdir) {
        lab_close(l);
        return lab_err_set(err, LAB_ENOENT, "cannot find the lab's files: set CUDALAB_DATADIR");
    }
    if ((rc = lab_catalog_load(l->datadir, &l->catalog, err)) < 0 ||
        (rc = sandbox_from_env(l, err)) < 0) {
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
    free(l->toolsdir);
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

const char *
lab_builddir(const lab *l)
{
    return l->builddir;
}

const char *
lab_toolsdir(const lab *l)
{
    return l->toolsdir;
}

int
lab_toolchain_of(lab *l, const lab_toolchain **out, lab_err *err)
{
    int rc = 0;

    if (!l->toolchain)
        rc = lab_toolchain_find(&l->toolchain, err);
    *out = l->toolchain;
    return rc;
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

/* Runs a driver with a report pipe; fills the report text and the process outcome. */
static int
run_driver(lab *l, const char *driver, lab_strvec *args, double timeout_s,
           const volatile sig_atomic_t *cancel, bool untrusted, lab_proc *p, lab_err *err)
{
    const char *show[] = { l->libexecdir, l->builddir, NULL };
    lab_sandbox_plan plan = { .job = LAB_SANDBOX_DRIVER,
                              .datadir = l->datadir,
                              .show = show,
                              .bwrap = getenv("CUDALAB_BWRAP") };
    int rc;

    lab_proc_init(p);
    p->report_fd = REPORT_FD;
    p->timeout_s = timeout_s;
    p->cancel = cancel;
    p->die_with_parent = true;
    if (untrusted && l->sandboxed) {
        lab_sandbox_limits(LAB_SANDBOX_DRIVER, &p->limits);
        if ((rc = lab_sandbox_wrap(&plan, &p->argv, err)) < 0)
            return rc;
    }
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
    rc = run_driver(l, "device-probe", &args, PROBE_TIMEOUT_S, NULL, false, &p, err);
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
lab_run_driver(lab *l, const char *driver, lab_strvec *args, double timeout_s,
               const volatile sig_atomic_t *cancel, lab_proc *p, lab_err *err)
{
    return run_driver(l, driver, args, timeout_s, cancel, false, p, err);
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

/* Adds a remark to a verdict's message (cut where the message is full). */
static void __attribute__((format(printf, 2, 3)))
append_message(lab_grade_result *r, const char *fmt, ...)
{
    size_t len = strlen(r->message);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(r->message + len, sizeof(r->message) - len, fmt, ap);
    va_end(ap);
}

/* The simulator's cap on a family's sizes: max elements, or its square root for matrix sides. */
static unsigned long
sim_size_cap(const char *family, unsigned long max_elements)
{
    unsigned long side = 1;

    for (size_t i = 0; i < ARRAY_SIZE(families); i++)
        if (families[i].matrix_side && !strcmp(families[i].family, family)) {
            while ((side + 1) * (side + 1) <= max_elements)
                side++;
            return side;
        }
    return max_elements;
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
           const lab_grade_request *req, bool untrusted, lab_err *err)
{
    lab_build_request br = { .source = path,
                             .instantiate = ex->instantiate,
                             .arch = arch,
                             .cache_dir = l->builddir,
                             .timeout_s = ex->build_timeout_s,
                             .cancel = req->cancel,
                             .host = ex->kind == LAB_KIND_HOST,
                             .rdc = ex->rdc };
    char *abs = untrusted && l->sandboxed ? realpath(path, NULL) : NULL;
    const char *show[] = { abs, NULL };
    lab_sandbox_plan plan = { .job = LAB_SANDBOX_COMPILE,
                              .datadir = l->datadir,
                              .show = show,
                              .writable = l->builddir,
                              .bwrap = getenv("CUDALAB_BWRAP") };
    lab_strvec wrap = LAB_STRVEC_INIT;
    int rc;

    if (abs) {
        if ((rc = lab_mkdir_p(l->builddir, 0755, err)) < 0 ||
            (rc = lab_sandbox_wrap(&plan, &wrap, err)) < 0) {
            free(abs);
            lab_strvec_release(&wrap);
            return rc;
        }
        br.wrap = (const char *const *)wrap.v;
        lab_sandbox_limits(LAB_SANDBOX_COMPILE, &br.limits);
    }
    rc = lab_toolchain_build(l->toolchain, &br, b, err);
    free(abs);
    lab_strvec_release(&wrap);
    if (rc < 0)
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

    if ((rc = build_file(l, ex, path, arch, b, req, false, err)) < 0)
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
    a.backend = g->backend[0] ? g->backend : "none";
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

/* The file a driver loads: a cubin, the PTX on the simulator, or a shared object of host code. */
static const char *
module_path(const lab_exercise *ex, const lab_build *b, bool sim)
{
    return sim && ex->kind != LAB_KIND_HOST ? b->ptx_path.buf : lab_module_path(ex, b);
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
    if (!*prefix && ex->choose_block)
        lab_strvec_push(args, "--choose-block");
    if (ex->entry)
        lab_strvec_pushf(args, "--%sentry=%s", prefix, ex->entry);
}

/* The arguments naming the roles' modules, kernels and launch shapes. */
static void
roles_args(const lab *l, lab_strvec *args, const lab_exercise *ex, const lab_exercise *base_ex,
           const char *student, const char *reference, const char *baseline)
{
    lab_strvec_pushf(args, "--lab-kernels=%s/lab-kernels.ptx", l->libexecdir);
    lab_strvec_pushf(args, "--student=%s", student);
    lab_strvec_pushf(args, "--reference=%s", reference);
    lab_strvec_pushf(args, "--kernel=%s", ex->kernel);
    shape_args(args, "", ex);
    if (base_ex) {
        lab_strvec_pushf(args, "--baseline=%s", baseline);
        lab_strvec_pushf(args, "--baseline-kernel=%s", base_ex->kernel);
        shape_args(args, "baseline-", base_ex);
    } else {
        lab_strvec_push(args, "--baseline=cpu");
    }
}

/* This GPU's calibrated threshold for ex (lab/grade/calib.h), when there is one. */
static void
calibrated_threshold(const lab_runreport *r, lab_exercise *ex, lab_grading *g)
{
    lab_calib_key k = { r->device, (long)r->sm_clock_khz, (long)r->mem_clock_khz };
    lab_buf path = LAB_BUF_INIT;
    lab_calib_entry e;
    lab_calib *c = NULL;
    bool found = false;

    if (*r->device && lab_store_default_path(&path, NULL) == 0 && access(path.buf, F_OK) == 0 &&
        lab_calib_open(path.buf, &c, NULL) == 0 &&
        lab_calib_get(c, &k, ex->id, &e, &found, NULL) == 0 && found) {
        ex->min_speedup = e.min_speedup;
        g->calibrated = true;
    }
    g->min_speedup = ex->min_speedup;
    lab_calib_close(c);
    lab_buf_release(&path);
}

static int
run_and_judge(lab *l, const lab_grade_request *req, lab_grading *g, lab_build *student,
              lab_build *baseline, lab_build *reference, const lab_exercise *base_ex, lab_err *err)
{
    const lab_exercise *ex = req->ex;
    lab_strvec args = LAB_STRVEC_INIT;
    lab_exercise tuned;
    lab_devlock lock;
    lab_proc p;
    char how[128];
    int rc;

    bool sim = !strcmp(g->backend, "sim");
    const unsigned long cap = sim ? sim_size_cap(ex->family, g->sim_max_size) : 0;
    unsigned long sizes[16];
    size_t nsizes = 0;

    lab_devlock_init(&lock);
    lab_proc_init(&p);
    lab_strvec_pushf(&args, "--backend=%s", g->backend);
    roles_args(l, &args, ex, base_ex, module_path(ex, student, sim),
               module_path(ex, reference, sim),
               base_ex ? module_path(base_ex, baseline, sim) : NULL);
    for (size_t i = 0; i < ex->nsizes && nsizes < ARRAY_SIZE(sizes); i++) {
        unsigned long n = ex->sizes[i];
        bool seen = false;
        if (sim && n > cap) {
            n = cap;
            g->sizes_capped = true;
        }
        for (size_t k = 0; k < nsizes; k++)
            seen |= sizes[k] == n;
        if (!seen)
            sizes[nsizes++] = n;
    }
    sizes_arg(&args, "--sizes", sizes, nsizes);
    if (ex->ntiming_sizes && !sim)
        sizes_arg(&args, "--timing-sizes", ex->timing_sizes, ex->ntiming_sizes);
    lab_strvec_pushf(&args, "--seed=%llu", (unsigned long long)g->seed);
    /* host code and the simulator leave the GPU alone: no need to wait for it */
    if (ex->kind == LAB_KIND_HOST || sim ||
        (rc = lab_devlock_acquire(&lock, l->cachedir, g->device.name,
                                  getenv("CUDA_VISIBLE_DEVICES"), 0, req->cancel, err)) == 0)
        rc = run_driver(l, ex->family, &args, ex->run_timeout_s, req->cancel, true, &p, err);
    lab_devlock_release(&lock);
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
    tuned = *ex;
    calibrated_threshold(&g->report, &tuned, g);
    rc = lab_grade_judge(&tuned, g->baseline_name, &g->report, &g->result, err);
    if (rc == 0 && g->calibrated && g->result.speedup > 0)
        append_message(&g->result, " (threshold calibrated on this GPU)");
    if (rc == 0 && sim && g->sizes_capped && g->result.verdict == LAB_VERDICT_PASS)
        append_message(&g->result,
                       cap != g->sim_max_size ? " (matrix sides capped at %lu on the simulator)"
                                              : " (sizes capped at %lu on the simulator)",
                       cap);
out:
    lab_proc_release(&p);
    return rc;
}

/* cuda when asked or when a GPU is there, sim when asked or when none is (device-side
 * launches included: the simulator runs them); "" when nothing can run it (NO_GPU, *why
 * says why): cuda asked for and no GPU. */
static int
choose_backend(const lab_grade_request *req, const lab_device *dev, lab_grading *g,
               const char **why, lab_err *err)
{
    const char *want = req->backend, *env = getenv("CUDALAB_BACKEND"), *cap;
    char *end;

    if (!want && env && *env)
        want = env;
    if (want && strcmp(want, "cuda") && strcmp(want, "sim") && strcmp(want, "auto"))
        return lab_err_set(err, LAB_EINVAL, "unknown backend '%s' (cuda, sim or auto)", want);
    if (!want || !strcmp(want, "auto"))
        want = dev->present ? "cuda" : "sim";
    g->backend[0] = '\0';
    if (req->ex->kind == LAB_KIND_HOST) { /* host code runs on the CPU, GPU or not */
        snprintf(g->backend, sizeof(g->backend), "host");
        return 0;
    }
    *why = dev->reason;
    if (!strcmp(want, "cuda") && !dev->present)
        return 0;
    snprintf(g->backend, sizeof(g->backend), "%s", want);
    if (!strcmp(want, "sim")) {
        g->sim_max_size = LAB_SIM_MAX_SIZE;
        if ((cap = getenv("CUDALAB_SIM_MAX_SIZE")) && *cap) {
            unsigned long v = strtoul(cap, &end, 10);
            if (*end || v == 0)
                return lab_err_set(err, LAB_EINVAL,
                                   "CUDALAB_SIM_MAX_SIZE='%s' is not a positive "
                                   "number",
                                   cap);
            g->sim_max_size = v;
        }
    }
    return 0;
}

int
lab_profile_argv(lab *l, const lab_exercise *ex, const char *file, const char *backend,
                 unsigned long size, lab_strvec *argv, lab_strvec *kernels, bool *compiled,
                 lab_buf *log, lab_err *err)
{
    const lab_exercise *base_ex = NULL;
    const lab_grade_request req = { .ex = ex, .file = file };
    lab_build student, baseline, reference;
    const lab_device *dev;
    char arch[16];
    int rc;

    if (!size)
        size =
            ex->ntiming_sizes ? ex->timing_sizes[ex->ntiming_sizes - 1] : ex->sizes[ex->nsizes - 1];
    *compiled = false;
    lab_build_init(&student);
    lab_build_init(&baseline);
    lab_build_init(&reference);
    if (strcmp(ex->baseline, "cpu") && !(base_ex = lab_catalog_find(l->catalog, ex->baseline))) {
        rc = lab_err_set(err, LAB_ENOENT, "%s: baseline '%s' is not an exercise", ex->manifest,
                         ex->baseline);
        goto out;
    }
    if (access(file, R_OK) < 0) {
        rc = lab_err_set(err, LAB_ENOENT, "cannot read '%s': %s", file, strerror(errno));
        goto out;
    }
    if ((!l->toolchain && (rc = lab_toolchain_find(&l->toolchain, err)) < 0) ||
        (rc = lab_device_probe(l, &dev, err)) < 0)
        goto out;
    snprintf(arch, sizeof(arch), "%s", lab_target_arch(dev));
    rc = build_file(l, ex, file, arch, &student, &req, true, err);
    lab_buf_add(log, student.log.buf, student.log.len);
    if (rc < 0 || !student.ok)
        goto out;
    *compiled = true;
    if ((rc = build_lab_file(l, ex, ex->solution, arch, &reference, &req, err)) < 0 ||
        (base_ex &&
         (rc = build_lab_file(l, base_ex, base_ex->solution, arch, &baseline, &req, err)) < 0))
        goto out;
    lab_strvec_pushf(argv, "%s/%s", l->libexecdir, ex->family);
    lab_strvec_pushf(argv, "--report-fd=%d", REPORT_FD);
    lab_strvec_pushf(argv, "--backend=%s", backend);
    /* the simulator runs PTX, the GPU the cubin */
#define MODULE(b) (strcmp(backend, "sim") ? (b).cubin_path.buf : (b).ptx_path.buf)
    roles_args(l, argv, ex, base_ex, MODULE(student), MODULE(reference),
               base_ex ? MODULE(baseline) : NULL);
#undef MODULE
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

int
lab_grade(lab *l, const lab_grade_request *req, lab_grading *g, lab_err *err)
{
    const lab_exercise *ex = req->ex, *base_ex = NULL;
    const lab_device *dev;
    lab_build student, baseline, reference;
    lab_buf why = LAB_BUF_INIT, mangled = LAB_BUF_INIT, found = LAB_BUF_INIT;
    const char *params, *cpu_baseline, *no_run = "";
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
    rc = build_file(l, ex, req->file, g->arch, &student, req, true, err);
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
    if ((rc = choose_backend(req, dev, g, &no_run, err)) < 0)
        goto out;
    if (!g->backend[0]) {
        lab_grade_set(&g->result, ex, LAB_VERDICT_NO_GPU,
                      "compiled for %s; no GPU to run it on: %s", g->arch, no_run);
        goto judged;
    }

    stage(req, LAB_STAGE_RUN, strcmp(g->backend, "sim") ? dev->name : "the PTX simulator");
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
