/*
 * runner.c - running the driver program (see runner.h).
 */
#include "lab/grade/runner.h"
#include "lab/build/ptx.h"
#include "lab/catalog/family.h"
#include "lab/grade/runreport.h"
#include "lab/platform/libs.h"
#include "lab/util/trace.h"
#include "lab/util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PROBE_TIMEOUT_S 30

static int start_driver(lab *l, const char *program, const lab_strvec *args, double timeout_s,
                        const volatile sig_atomic_t *cancel, bool untrusted, bool wait_go,
                        const char *visible, lab_proc *p, lab_err *err);
static const char *module_of(const char *arg, bool *by_descriptor);

int
lab_runner_finish(lab_proc *p, const char *program, lab_err *err)
{
    lab_buf why = LAB_BUF_INIT;
    int rc;

    if ((rc = lab_proc_finish(p, err)) < 0)
        return lab_err_wrap(err, "driver '%s'", program);
    if (p->status_pipe && lab_sandbox_failed(p, &why))
        rc = lab_err_set(err, LAB_ESANDBOX, "driver '%s': %s", program, why.buf);
    lab_buf_release(&why);
    return rc;
}

int
lab_runner_run(lab *l, const char *program, const lab_strvec *args, double timeout_s,
               const volatile sig_atomic_t *cancel, bool untrusted, lab_proc *p, lab_err *err)
{
    int rc;

    if ((rc = lab_runner_start(l, program, args, timeout_s, cancel, untrusted, p, err)) < 0)
        return rc;
    return lab_runner_finish(p, program, err);
}

static void
release_lock(void *lock)
{
    lab_devlock_release(lock);
    lab_trace_mark("the GPU's lock given back");
}

/* The lock's wait gives up when the driver waiting for its go has ended. */
static bool
driver_ended(const void *p)
{
    return lab_proc_ended(p);
}

/* The GPU lock's key for dev, the GPU the drivers open: its UUID, which names one GPU of the
 * machine whatever number CUDA_VISIBLE_DEVICES gives it (a batch's grader pinned to it and a
 * student's lab that sees every GPU and opens it take the same lock); where the driver tells
 * none, its name and CUDA_VISIBLE_DEVICES. */
static int
gpu_key(const lab_device *dev, lab_buf *out)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");

    if (*dev->uuid)
        return lab_buf_adds(out, dev->uuid);
    return lab_buf_printf(out, "%s-%s", *dev->name ? dev->name : "default",
                          visible && *visible ? visible : "all");
}

/* The driver started (and given its arguments): the lock, the go, and the run to its end. */
static int
run_when_locked(lab *l, const char *program, const volatile sig_atomic_t *cancel,
                const lab_device *dev, lab_devlock *lock, lab_proc *p, lab_err *err)
{
    lab_buf key = LAB_BUF_INIT;
    int rc;

    p->report_done = release_lock;
    p->report_done_ctx = lock;
    gpu_key(dev, &key);
    rc = lab_devlock_acquire(lock, lab_cachedir(l), key.buf, 0, cancel, driver_ended, p, err);
    lab_buf_release(&key);
    if (rc == 1) { /* it ended before its go (a module it could not load): no GPU work to do */
        lab_trace_mark("the driver ended before its go");
        p->report_done = NULL;
        return lab_runner_finish(p, program, err);
    }
    if (rc < 0) {
        lab_err ignored = LAB_ERR_INIT;

        lab_proc_kill(p); /* cancelled, or no lock file: the driver ends unheard */
        p->report_done = NULL;
        lab_proc_finish(p, &ignored);
        return rc;
    }
    lab_trace_mark("the GPU's lock taken: go (%s)", *dev->uuid ? dev->uuid : dev->name);
    lab_proc_go(p);
    return lab_runner_finish(p, program, err);
}

int
lab_runner_run_locked(lab *l, const char *program, const lab_strvec *args, double timeout_s,
                      const volatile sig_atomic_t *cancel, const lab_device *dev, lab_devlock *lock,
                      lab_proc *p, lab_err *err)
{
    int rc;

    if ((rc = start_driver(l, program, args, timeout_s, cancel, true, true, NULL, p, err)) < 0)
        return rc;
    return run_when_locked(l, program, cancel, dev, lock, p, err);
}

int
lab_runner_prestart(lab *l, const char *program, double timeout_s,
                    const volatile sig_atomic_t *cancel, lab_proc *p, lab_err *err)
{
    lab_strvec args = LAB_STRVEC_INIT;
    int rc;

    if (lab_sandboxed(l)) /* a sandbox shows the modules by path: they must exist at its start */
        return lab_err_set(err, LAB_EINVAL, "a sandboxed driver cannot start before its build");
    if ((rc = lab_strvec_push(&args, "--backend=cuda")) < 0 ||
        (rc = lab_strvec_push(&args, "--wait-args")) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    else
        rc = start_driver(l, program, &args, timeout_s, cancel, true, true, NULL, p, err);
    lab_strvec_release(&args);
    if (rc == 0)
        lab_trace_mark("driver: started before the build (--wait-args)");
    return rc;
}

int
lab_runner_run_prestarted(lab *l, const char *program, const lab_strvec *args,
                          const volatile sig_atomic_t *cancel, const lab_device *dev,
                          lab_devlock *lock, lab_proc *p, lab_err *err)
{
    lab_buf all = LAB_BUF_INIT;
    lab_err ignored_send = LAB_ERR_INIT;
    int rc = 0;

    for (size_t i = 0; rc == 0 && i < args->n; i++) {
        bool by_descriptor = false;

        if (module_of(args->v[i], &by_descriptor) && by_descriptor)
            rc = lab_err_set(err, LAB_EINVAL,
                             "driver '%s': a module passed open (%s) needs a "
                             "driver started with its arguments",
                             program, args->v[i]);
        else if (!*args->v[i] || lab_buf_add(&all, args->v[i], strlen(args->v[i]) + 1) < 0)
            rc = lab_err_set(err, LAB_EINVAL, "driver '%s': an empty argument, or out of memory",
                             program);
    }
    if (rc == 0 && lab_buf_add(&all, "", 1) < 0) /* the list's end: an empty argument */
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (rc < 0) {
        lab_err ignored = LAB_ERR_INIT;

        lab_buf_release(&all);
        lab_proc_kill(p); /* the driver cannot go on without them */
        lab_proc_finish(p, &ignored);
        return rc;
    }
    /* a driver already gone (no GPU after all) reads nothing: its report, or its end, says why,
     * as for one that ended before its go */
    lab_proc_send(p, all.buf, all.len, &ignored_send);
    lab_buf_release(&all);
    return run_when_locked(l, program, cancel, dev, lock, p, err);
}

/* The driver's arguments that name a module (a path; --baseline=cpu is none).  The reference's
 * and the baseline's shared objects (host code) reach the driver as open descriptors, at no path:
 * the student's code runs in a child of the driver with every descriptor closed, and would
 * otherwise find the reference beside its own object and dlopen it. */
static const struct {
    const char *arg;
    bool by_descriptor;
} module_args[] = { { "--student=", false }, { "--reference=", true }, { "--baseline=", true } };

/* The path of the module arg names, or NULL; *by_descriptor: a shared object passed open. */
static const char *
module_of(const char *arg, bool *by_descriptor)
{
    for (size_t k = 0; k < ARRAY_SIZE(module_args); k++) {
        size_t n = strlen(module_args[k].arg), len = strlen(arg);

        if (strncmp(arg, module_args[k].arg, n) || arg[n] != '/')
            continue;
        *by_descriptor =
            module_args[k].by_descriptor && len > n + 3 && !strcmp(arg + len - 3, ".so");
        return arg + n;
    }
    return NULL;
}

/* The driver's arguments that travel by a descriptor (--args-fd), never on a command line: a
 * student's host function runs in the driver's sandbox, where every command line can be read,
 * bubblewrap's own (which holds the whole of the driver's) included, and the occupancy
 * calculator's 552 expected answers there were a one-line cheat (# 34). */
static const char *const secret_args[] = { "--seed=", "--occupancy-" };

static bool
is_secret(const char *arg)
{
    for (size_t i = 0; i < ARRAY_SIZE(secret_args); i++)
        if (!strncmp(arg, secret_args[i], strlen(secret_args[i])))
            return true;
    return false;
}

/* The secret arguments of tail moved into a memfd the driver gets open (p->pass_fd), and
 * "--args-fd=N" in their place. */
static int
secret_arguments(lab_proc *p, lab_strvec *tail, lab_err *err)
{
    lab_strvec kept = LAB_STRVEC_INIT;
    lab_buf secret = LAB_BUF_INIT;
    int fd = -1, rc = 0;

    for (size_t i = 0; rc == 0 && i < tail->n; i++)
        rc = is_secret(tail->v[i]) ? lab_buf_add(&secret, tail->v[i], strlen(tail->v[i]) + 1)
                                   : lab_strvec_push(&kept, tail->v[i]);
    if (rc < 0) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if (!secret.len)
        goto out;
    if (p->npass == LAB_PROC_PASS_MAX)
        rc = lab_err_set(err, LAB_EINVAL, "no descriptor left for the driver's arguments");
    else if ((fd = memfd_create("cudalab-driver-args", MFD_CLOEXEC)) < 0 ||
             write(fd, secret.buf, secret.len) != (ssize_t)secret.len || lseek(fd, 0, SEEK_SET) < 0)
        rc = lab_err_set(err, LAB_EIO, "cannot hand the driver its arguments: %s", strerror(errno));
    else if ((rc = lab_strvec_pushf(&kept, "--args-fd=%d",
                                    LAB_RUNNER_REPORT_FD + 1 + (int)p->npass)) < 0)
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    if (rc < 0)
        goto out;
    p->pass_fd[p->npass++] = fd;
    fd = -1;
    lab_strvec_release(tail);
    *tail = kept;
    kept = (lab_strvec)LAB_STRVEC_INIT;
out:
    if (fd >= 0)
        close(fd);
    lab_buf_release(&secret);
    lab_strvec_release(&kept);
    return rc;
}

/* The driver's own arguments into tail: the modules shown by path (appended to show) or passed
 * open (p->pass_fd). */
static int
module_arguments(lab_proc *p, const lab_strvec *args, lab_strvec *tail, lab_strvec *show,
                 lab_err *err)
{
    int rc = 0;

    for (size_t i = 0; rc == 0 && args && i < args->n; i++) {
        bool by_descriptor = false;
        const char *mod = module_of(args->v[i], &by_descriptor);
        int fd;

        if (!mod || !by_descriptor || p->npass == LAB_PROC_PASS_MAX) {
            if (mod)
                rc = lab_strvec_push(show, mod);
            if (rc == 0)
                rc = lab_strvec_push(tail, args->v[i]);
            continue;
        }
        if ((fd = open(mod, O_RDONLY | O_CLOEXEC)) < 0)
            return lab_err_set(err, LAB_EIO, "cannot open '%s' for the driver: %s", mod,
                               strerror(errno));
        p->pass_fd[p->npass++] = fd;
        rc = lab_strvec_pushf(tail, "%.*s/proc/self/fd/%d", (int)(mod - args->v[i]), args->v[i],
                              LAB_RUNNER_REPORT_FD + (int)p->npass);
    }
    return rc < 0 ? lab_err_set(err, LAB_ENOMEM, "out of memory") : 0;
}

int
lab_runner_start(lab *l, const char *program, const lab_strvec *args, double timeout_s,
                 const volatile sig_atomic_t *cancel, bool untrusted, lab_proc *p, lab_err *err)
{
    return start_driver(l, program, args, timeout_s, cancel, untrusted, false, NULL, p, err);
}

int
lab_runner_start_pinned(lab *l, const char *program, const lab_strvec *args, const char *visible,
                        double timeout_s, bool untrusted, lab_proc *p, lab_err *err)
{
    return start_driver(l, program, args, timeout_s, NULL, untrusted, false, visible, p, err);
}

int
lab_runner_not_started(const char *program, const lab_proc *p, lab_err *err)
{
    const char *why = strstr(p->errout.buf, "error while loading shared libraries: ");

    if (p->report.len || !p->exited || p->exit_code != LAB_RUNNER_EXIT_NOT_STARTED)
        return 0;
    if (!why)
        why = p->errout.len ? p->errout.buf : "it said nothing";
    return lab_err_set(err, LAB_ECHILD,
                       "driver '%s' could not start (exit status %d, before any submitted code "
                       "ran): %.*s",
                       program, p->exit_code, (int)strcspn(why, "\n"), why);
}

/* What the driver program needs that a sandbox does not show by itself: the libraries the
 * dynamic loader finds outside the system's folders (LD_LIBRARY_PATH's: a build carried to a
 * machine that lacks libcjson, a stand-in libcuda), each shown read-only at its path
 * (lab/platform/libs.h).  LAB_ENOENT naming a library the loader finds nowhere. */
static int
show_libraries(const char *driver, lab_strvec *show, lab_err *err)
{
    static const char *const dlopened[] = { "libcuda.so.1", NULL }; /* common/dev-cuda.c */
    lab_strvec libs = LAB_STRVEC_INIT;
    int rc;

    if ((rc = lab_libs_needed(driver, dlopened, &libs, err)) < 0)
        lab_err_wrap(err, "the sandbox cannot carry what the driver program needs");
    for (size_t i = 0; rc == 0 && i < libs.n; i++)
        if (!lab_sandbox_in_system(libs.v[i]) && lab_strvec_push(show, libs.v[i]) < 0)
            rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
    lab_strvec_release(&libs);
    return rc;
}

static int
start_driver(lab *l, const char *program, const lab_strvec *args, double timeout_s,
             const volatile sig_atomic_t *cancel, bool untrusted, bool wait_go, const char *visible,
             lab_proc *p, lab_err *err)
{
    /* the drivers, and of the build cache only the modules this run loads by their path */
    lab_strvec show = LAB_STRVEC_INIT;
    const char *hide[] = { lab_builddir(l), NULL };
    lab_sandbox_plan plan = { .job = LAB_SANDBOX_DRIVER,
                              .datadir = lab_datadir(l),
                              .hide = hide,
                              .bwrap = getenv("CUDALAB_BWRAP") };
    lab_strvec tail = LAB_STRVEC_INIT;
    lab_buf driver = LAB_BUF_INIT;
    int rc;

    lab_proc_init(p);
    p->report_fd = LAB_RUNNER_REPORT_FD;
    p->timeout_s = timeout_s;
    p->cancel = cancel;
    p->die_with_parent = true;
    p->wait_go = wait_go;
    if (lab_buf_printf(&driver, "%s/" LAB_RUNNER_PROGRAM, lab_libexecdir(l)) < 0 ||
        lab_strvec_push(&show, lab_libexecdir(l)) < 0 ||
        (visible && lab_strvec_pushf(&p->env, "CUDA_VISIBLE_DEVICES=%s", visible) < 0)) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if (untrusted) /* a printf flood is stopped, and named, long before the timeout */
        p->output_limit = LAB_RUNNER_OUTPUT_LIMIT;
    if ((rc = module_arguments(p, args, &tail, &show, err)) < 0 ||
        (rc = secret_arguments(p, &tail, err)) < 0)
        goto out;
    if (untrusted && lab_sandboxed(l)) {
        if ((rc = show_libraries(driver.buf, &show, err)) < 0)
            goto out;
        plan.show = (const char *const *)show.v;
    }
    if ((rc = lab_strvec_push(&p->argv, driver.buf)) < 0 ||
        (rc = lab_strvec_push(&p->argv, program)) < 0 ||
        (rc = lab_strvec_pushf(&p->argv, "--report-fd=%d", LAB_RUNNER_REPORT_FD)) < 0 ||
        (wait_go && (rc = lab_strvec_push(&p->argv, "--wait-go")) < 0) ||
        (tail.n && (rc = lab_strvec_pushv(&p->argv, (const char *const *)tail.v)) < 0)) {
        rc = lab_err_set(err, LAB_ENOMEM, "out of memory");
        goto out;
    }
    if (untrusted && lab_sandboxed(l) && (rc = lab_sandbox_confine(&plan, p, err)) < 0)
        goto out;
    if ((rc = lab_proc_start(p, err)) < 0)
        lab_err_wrap(err, "driver '%s'", program);
out:
    for (size_t i = 0; i < p->npass; i++) /* the child has its own */
        close(p->pass_fd[i]);
    p->npass = 0;
    lab_strvec_release(&tail);
    lab_strvec_release(&show);
    lab_buf_release(&driver);
    return rc;
}

int
lab_runner_probe(lab *l, const char *backend, lab_device *out, lab_err *err)
{
    lab_strvec args = LAB_STRVEC_INIT;
    lab_runreport r;
    lab_proc p;
    int rc;

    memset(out, 0, sizeof(*out));
    lab_strvec_pushf(&args, "--backend=%s", backend);
    rc = lab_runner_run(l, "device-probe", &args, PROBE_TIMEOUT_S, NULL, false, &p, err);
    lab_strvec_release(&args);
    if (rc < 0 || (rc = lab_runner_not_started("device-probe", &p, err)) < 0)
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
        snprintf(out->uuid, sizeof(out->uuid), "%s", r.device_uuid);
        snprintf(out->cc, sizeof(out->cc), "%s", r.cc);
        sscanf(r.cc, "%d.%d", &major, &minor);
        snprintf(out->arch, sizeof(out->arch), "sm_%d%d", major, minor);
        out->peak_gbps = r.peak_gbps;
    } else {
        snprintf(out->reason, sizeof(out->reason), "%s", r.reason);
        out->reason_msg = r.reason_msg;
    }
    lab_runreport_release(&r);
out:
    lab_proc_release(&p);
    return rc;
}

int
lab_runner_sizes_arg(lab_strvec *args, const char *name, const unsigned long *v, size_t n)
{
    lab_buf b = LAB_BUF_INIT;
    int rc;

    for (size_t i = 0; i < n; i++)
        lab_buf_printf(&b, "%s%lu", i ? "," : "", v[i]);
    rc = lab_strvec_pushf(args, "--%s=%s", name, b.buf);
    lab_buf_release(&b);
    return rc;
}

/* --block=40x2,8x4x2 (one number for a single 1D shape) */
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

int
lab_runner_entry(const lab_exercise *ex, lab_buf *out, lab_err *err)
{
    const lab_family *f;

    if (ex->entry)
        return lab_buf_adds(out, ex->entry);
    if (!(f = lab_family_find(ex->family)))
        return lab_err_set(err, LAB_EINVAL, "%s: unknown family '%s'", ex->manifest, ex->family);
    return lab_ptx_mangle(ex->kernel, f->mangled, out);
}

/* How a role's kernel is launched: prefix "" for the student's, "baseline-" for the step before. */
static void
shape_args(lab_strvec *args, const char *prefix, const lab_exercise *ex)
{
    lab_buf entry = LAB_BUF_INIT;
    lab_err ignored = LAB_ERR_INIT;

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
    /* an unknown family has no entry: the driver refuses the command line, which says so */
    if (lab_runner_entry(ex, &entry, &ignored) == 0)
        lab_strvec_pushf(args, "--%sentry=%s", prefix, entry.buf);
    lab_buf_release(&entry);
}

void
lab_runner_roles_args(const lab *l, lab_strvec *args, const lab_exercise *ex,
                      const lab_exercise *base_ex, const char *student, const char *reference,
                      const char *baseline)
{
    lab_strvec_pushf(args, "--lab-kernels=%s/lab-kernels.ptx", lab_libexecdir(l));
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
