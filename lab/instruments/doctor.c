/*
 * doctor.c - the checks behind `cudalab doctor` (see doctor.h).
 *
 * One function per check in a table; each reads what earlier ones found
 * (nvcc's version, the probes) from the doctor_ctx.  The grading capability
 * is decided from the checks' states at the end.
 */
#include "lab/instruments/doctor.h"
#include "lab/util/i18n.h"
#include "lab/catalog/family.h"
#include "lab/grade/runner.h"
#include "lab/platform/proc.h"
#include "lab/build/toolchain.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BWRAP_TIMEOUT_S 10
#define NVIDIA_PARAMS "/proc/driver/nvidia/params"

typedef struct doctor_ctx {
    lab *l;
    const char *open_error;
    lab_doctor *d;
    bool gpu_probed; /* d->gpu is valid */
    char probe_error[512];
    bool sim_ok;
} doctor_ctx;

/* Append to a check's finding or fix (lab_buf_printf, so never truncated). */
#define FOUND(c, ...) lab_buf_printf(&(c)->found, __VA_ARGS__)
#define FIX(c, ...) lab_buf_printf(&(c)->fix, __VA_ARGS__)

static void
check_catalog(doctor_ctx *x, lab_check *c)
{
    const lab_catalog *cat;
    size_t n;

    if (!x->l) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, "%s", x->open_error);
        FIX(c,
            _("reinstall cudalab (make install), or point CUDALAB_DATADIR at its share/cudalab"));
        return;
    }
    cat = lab_catalog_of(x->l);
    n = lab_catalog_exercise_count(cat);
    /* TRANSLATORS: the first %zu counts exercises, the second chapters */
    FOUND(c,
          ngettext("%zu exercise in %zu chapters from %s", "%zu exercises in %zu chapters from %s",
                   n),
          n, lab_catalog_chapter_count(cat), lab_datadir(x->l));
    if (n == 0) {
        c->state = LAB_CHECK_FAIL;
        FIX(c, _("no exercise loads: reinstall cudalab or point CUDALAB_DATADIR at its files"));
    } else if (lab_catalog_problem_count(cat)) {
        c->state = LAB_CHECK_WARN;
        FOUND(c, _("; %zu problems, the first: %s"), lab_catalog_problem_count(cat),
              lab_catalog_problem(cat, 0));
        FIX(c, _("fix the manifests named (cudalab list prints every problem)"));
    }
}

static void
check_store(doctor_ctx *x, lab_check *c)
{
    lab_err err = LAB_ERR_INIT;
    lab_buf problems = LAB_BUF_INIT;
    lab_store *st;
    int rc;

    if (!x->l) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _("not checked: the lab did not open"));
        FIX(c, _("fix the catalog first"));
        return;
    }
    if (lab_store_of(x->l, &st, &err) < 0) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, "%s", err.msg);
        FIX(c, "%s", _(LAB_STORE_FIX));
        return;
    }
    rc = lab_store_check(st, &problems, &err);
    if (rc == 0) {
        FOUND(c, _("%s: quick_check ok"), lab_store_path(st));
    } else {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, "%s: %s", lab_store_path(st), rc < 0 ? err.msg : problems.buf);
        FIX(c,
            _("the progress database is damaged: move %s aside and the lab starts a new one "
              "(sqlite3 FILE .recover can save the attempts)"),
            lab_store_path(st));
    }
    lab_buf_release(&problems);
}

/* path is there (and, for a program, executable); else names it in the check. */
static bool
file_present(lab_check *c, const char *dir, const char *name, int mode)
{
    lab_buf p = LAB_BUF_INIT;
    bool ok;

    lab_buf_printf(&p, "%s/%s", dir, name);
    ok = access(p.buf, mode) == 0;
    lab_buf_release(&p);
    if (!ok) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _(": %s is missing"), name);
        FIX(c, _("reinstall cudalab (make install), or point CUDALAB_LIBEXECDIR at its "
                 "libexec/cudalab"));
    }
    return ok;
}

/* The driver program, the lab's PTX, and a driver for every exercise's family. */
static void
check_drivers(doctor_ctx *x, lab_check *c)
{
    const lab_catalog *cat;
    const char *dir;

    if (!x->l) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _("not checked: the lab did not open"));
        FIX(c, _("fix the catalog first"));
        return;
    }
    cat = lab_catalog_of(x->l);
    dir = lab_libexecdir(x->l);
    FOUND(c, "%s", dir);
    if (!file_present(c, dir, LAB_RUNNER_PROGRAM, X_OK) ||
        !file_present(c, dir, "lab-kernels.ptx", R_OK))
        return;
    for (size_t i = 0; i < lab_catalog_exercise_count(cat); i++) {
        const lab_exercise *ex = lab_catalog_exercise(cat, i);
        if (!lab_family_find(ex->family)) {
            c->state = LAB_CHECK_FAIL;
            FOUND(c, _(": %s names the family '%s', which the lab has no driver for"), ex->id,
                  ex->family);
            FIX(c, _("fix its manifest's family (%s)"), ex->manifest);
            return;
        }
    }
}

static void
check_nvcc(doctor_ctx *x, lab_check *c)
{
    lab_toolchain *tc;
    lab_err err = LAB_ERR_INIT;

    if (lab_toolchain_find(&tc, &err) < 0) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, "%s", err.msg);
        FIX(c, _("install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads), or put "
                 "nvcc on PATH, or set CUDA_HOME or CUDALAB_NVCC"));
        return;
    }
    snprintf(x->d->nvcc_version, sizeof(x->d->nvcc_version), "%s", lab_toolchain_version(tc));
    FOUND(c, _("%s (CUDA %s)"), lab_toolchain_nvcc(tc), lab_toolchain_version(tc));
    lab_toolchain_free(tc);
}

/* The GPU probe, once, for the driver and GPU checks. */
static void
probe(doctor_ctx *x)
{
    lab_err err = LAB_ERR_INIT;

    if (x->gpu_probed || x->probe_error[0] || !x->l)
        return;
    if (lab_runner_probe(x->l, "cuda", &x->d->gpu, &err) < 0)
        snprintf(x->probe_error, sizeof(x->probe_error), "%s", err.msg);
    else
        x->gpu_probed = true;
}

static void
check_driver(doctor_ctx *x, lab_check *c)
{
    const lab_device *g = &x->d->gpu;
    int tk_major = 0, tk_minor = 0, tk, major, minor;

    probe(x);
    if (!x->gpu_probed) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _("the device probe did not run: %s"), x->l ? x->probe_error : x->open_error);
        FIX(c, _("reinstall cudalab: its driver program's device probe is broken"));
        return;
    }
    if (!g->driver_found) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _("no NVIDIA driver library: %s"), g->driver_library);
        FIX(c, _("install the NVIDIA driver (Debian: nvidia-driver from non-free, or NVIDIA's "
                 "cuda-drivers package); in a container, start it with the GPU passed through"));
        return;
    }
    if (!g->driver_version) {
        bool stub = strstr(g->reason, "stub library") != NULL;
        c->state = stub ? LAB_CHECK_FAIL : LAB_CHECK_WARN;
        FOUND(c, "%s, %s", g->driver_library,
              stub ? _("the CUDA toolkit's stub, not the NVIDIA driver") : _("version unknown"));
        FIX(c, "%s",
            stub ? _("remove the toolkit's stubs folder from LD_LIBRARY_PATH (and install "
                     "the NVIDIA driver if there is none)")
                 : _("the library does not answer cuDriverGetVersion: reinstall the "
                     "NVIDIA driver"));
        return;
    }
    major = g->driver_version / 1000;
    minor = g->driver_version % 1000 / 10;
    FOUND(c, _("%s, for CUDA %d.%d"), g->driver_library, major, minor);
    if (!x->d->nvcc_version[0] || sscanf(x->d->nvcc_version, "%d.%d", &tk_major, &tk_minor) != 2)
        return;
    tk = tk_major * 1000 + tk_minor * 10;
    FOUND(c, _("; the toolkit is %d.%d"), tk_major, tk_minor);
    if (g->driver_version >= tk)
        return;
    c->state = major == tk_major ? LAB_CHECK_WARN : LAB_CHECK_FAIL;
    if (major == tk_major)
        FOUND(c, _(" (compiled kernels run by minor-version compatibility; the lab's PTX may not "
                   "load)"));
    FIX(c,
        _("update the NVIDIA driver to one for CUDA %d.%d or newer (or use a toolkit no newer "
          "than CUDA %d.%d)"),
        tk_major, tk_minor, major, minor);
}

/* What to do about each reason the probe gives for "no GPU". */
static const struct {
    const char *reason;
    const char *fix;
} gpu_fixes[] = {
    { "no NVIDIA driver", N_("install the NVIDIA driver (see the driver check above)") },
    { "stub library", N_("the toolkit's stub libcuda is on the library path: remove its "
                         "lib64/stubs folder from LD_LIBRARY_PATH") },
    { "too old", N_("update the NVIDIA driver (see the driver check above)") },
    { "no CUDA-capable device",
      N_("check nvidia-smi; unset CUDA_VISIBLE_DEVICES if it hides the GPU; "
         "in a container, pass the GPU through (docker run --gpus all)") },
    { "busy or unavailable", N_("another process holds the GPU in exclusive mode: wait for it, or "
                                "nvidia-smi -c DEFAULT as root") },
};

static void
check_gpu(doctor_ctx *x, lab_check *c)
{
    const lab_device *g = &x->d->gpu;
    char why[512];

    probe(x);
    if (!x->gpu_probed) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _("not probed"));
        FIX(c, _("see the driver check above"));
        return;
    }
    if (g->present) {
        FOUND(c, _("%s, compute capability %s (kernels build for %s), memory peak %.0f GB/s"),
              g->name, g->cc, g->arch, g->peak_gbps);
        return;
    }
    c->state = LAB_CHECK_FAIL;
    FOUND(c, _("none: %s"), lab_device_reason(g, why, sizeof(why)));
    for (size_t i = 0; i < ARRAY_SIZE(gpu_fixes) && !c->fix.len; i++)
        if (strstr(g->reason, gpu_fixes[i].reason))
            FIX(c, "%s", _(gpu_fixes[i].fix));
    if (!c->fix.len)
        FIX(c, _("run on a machine with an NVIDIA GPU to measure speed"));
}

static void
check_sim(doctor_ctx *x, lab_check *c)
{
    lab_device sim;
    lab_err err = LAB_ERR_INIT;

    if (!x->l) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _("not checked: the lab did not open"));
        FIX(c, _("fix the catalog first"));
        return;
    }
    if (lab_runner_probe(x->l, "sim", &sim, &err) < 0) {
        c->state = LAB_CHECK_FAIL;
        FOUND(c, _("the simulator probe did not run: %s"), err.msg);
        FIX(c, _("reinstall cudalab: its driver program's device probe is broken"));
        return;
    }
    if (sim.present) {
        x->sim_ok = true;
        FOUND(c, _("available: grades correctness without a GPU (%s)"), sim.name);
        return;
    }
    c->state = LAB_CHECK_WARN;
    FOUND(c, "%s", sim.reason);
    FIX(c, _("without a GPU this build can only compile and check your kernels"));
}

/* A tool the lab can do without: where it is, or a warning and how to install it. */
static bool
optional_tool(lab_check *c, const char *name, const char *env_var, const char *install)
{
    char *path = NULL;

    if (lab_toolchain_find_tool(NULL, name, env_var, NULL, &path, NULL) < 0) {
        c->state = LAB_CHECK_WARN;
        FOUND(c, _("%s not found"), name);
        FIX(c, "%s", install);
        return false;
    }
    FOUND(c, "%s", path);
    free(path);
    return true;
}

static void
check_ncu(doctor_ctx *x, lab_check *c)
{
    char line[256];
    FILE *fp;
    bool admin_only = false;

    (void)x;
    if (!optional_tool(c, "ncu", "CUDALAB_NCU",
                       _("install Nsight Compute (NVIDIA's cuda-nsight-compute package, part of "
                         "the toolkit) to profile kernels")))
        return;
    if (!(fp = fopen(NVIDIA_PARAMS, "r"))) {
        FOUND(c, _("; counters not checked: no NVIDIA driver loaded (%s)"), NVIDIA_PARAMS);
        return;
    }
    while (fgets(line, sizeof(line), fp))
        if (!strncmp(line, "RmProfilingAdminOnly: 1", 23))
            admin_only = true;
    fclose(fp);
    if (!admin_only) {
        FOUND(c, _("; counters open to every user"));
    } else if (geteuid() == 0) {
        FOUND(c, _("; counters for administrators only, and you are root"));
    } else {
        c->state = LAB_CHECK_WARN;
        FOUND(c, _("; counters are for administrators only (ERR_NVGPUCTRPERM)"));
        FIX(c, _("as root: echo 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' > "
                 "/etc/modprobe.d/nvidia-profiling.conf, then reboot"));
    }
}

static void
check_sanitizer(doctor_ctx *x, lab_check *c)
{
    (void)x;
    optional_tool(c, "compute-sanitizer", "CUDALAB_COMPUTE_SANITIZER",
                  _("install it (NVIDIA's cuda-sanitizer package, part of the toolkit) to find "
                    "memory errors in kernels"));
}

static void
check_bwrap(doctor_ctx *x, lab_check *c)
{
    lab_err err = LAB_ERR_INIT;
    lab_proc p;
    char how[128];

    (void)x;
    lab_proc_init(&p);
    p.timeout_s = BWRAP_TIMEOUT_S;
    lab_strvec_pushl(&p.argv, "bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/",
                     "--dev", "/dev", "--proc", "/proc", "true", NULL);
    if (lab_proc_run(&p, &err) < 0) {
        c->state = LAB_CHECK_WARN;
        FOUND(c, "%s", err.msg);
        FIX(c, _("apt install bubblewrap: batch grading runs each submission in its sandbox"));
    } else if (!p.exited || p.exit_code != 0) {
        c->state = LAB_CHECK_WARN;
        FOUND(c, _("bwrap cannot make a sandbox here: it %s: %.*s"),
              lab_proc_describe(&p, how, sizeof(how)), (int)strcspn(p.errout.buf, "\n"),
              p.errout.buf);
        FIX(c, _("allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 or "
                 "user.max_user_namespaces > 0), or run outside a container that forbids them"));
    } else {
        FOUND(c, _("bwrap makes a sandbox (no network, read-only system)"));
    }
    lab_proc_release(&p);
}

static const struct {
    const char *name;
    void (*run)(doctor_ctx *x, lab_check *c);
    bool needed; /* grading is impossible when it fails */
} checks[] = {
    { "catalog", check_catalog, true },
    { "progress store", check_store, true },
    { "lab drivers", check_drivers, true },
    { "nvcc", check_nvcc, true },
    { "NVIDIA driver", check_driver, false },
    { "GPU", check_gpu, false },
    { "simulator", check_sim, false },
    { "Nsight Compute", check_ncu, false },
    { "compute-sanitizer", check_sanitizer, false },
    { "bubblewrap", check_bwrap, false },
};

void
lab_doctor_init(lab_doctor *d)
{
    memset(d, 0, sizeof(*d));
    for (size_t i = 0; i < LAB_DOCTOR_MAX_CHECKS; i++) {
        lab_buf_init(&d->checks[i].found);
        lab_buf_init(&d->checks[i].fix);
    }
}

void
lab_doctor_release(lab_doctor *d)
{
    for (size_t i = 0; i < LAB_DOCTOR_MAX_CHECKS; i++) {
        lab_buf_release(&d->checks[i].found);
        lab_buf_release(&d->checks[i].fix);
    }
    d->nchecks = 0;
}

void
lab_doctor_run(lab *l, const char *open_error, lab_doctor *out,
               void (*on_check)(const char *name, void *arg), void *arg)
{
    doctor_ctx x = { .l = l, .open_error = open_error ? open_error : "", .d = out };
    bool can_grade = true, driver_ok = false, gpu_ok = false;

    _Static_assert(ARRAY_SIZE(checks) <= LAB_DOCTOR_MAX_CHECKS, "lab_doctor holds every check");
    for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
        lab_check *c = &out->checks[out->nchecks++];
        c->name = checks[i].name;
        if (on_check)
            on_check(c->name, arg);
        checks[i].run(&x, c);
        if (checks[i].needed && c->state == LAB_CHECK_FAIL)
            can_grade = false;
        if (checks[i].run == check_driver)
            driver_ok = c->state != LAB_CHECK_FAIL;
        if (checks[i].run == check_gpu)
            gpu_ok = c->state == LAB_CHECK_OK;
    }
    out->can_build = can_grade;
    if (!can_grade)
        out->can = LAB_CAN_NOTHING;
    else if (driver_ok && gpu_ok)
        out->can = LAB_CAN_GPU;
    else if (x.sim_ok)
        out->can = LAB_CAN_SIM;
    else
        out->can = LAB_CAN_NOTHING;
}
