/*
 * driver.c - the grading driver's command line, device, modules and report
 * (see driver.h); the per-size loop is in family.c.
 */
#include "common/driver.h"
#include "common/report.h"
#include "lab/util/clock.h"
#include "lab/util/trace.h"
#include "lab/sim/sim.h"

#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const lab_role_names[LAB_ROLE_COUNT] = {
    [LAB_ROLE_STUDENT] = "student",
    [LAB_ROLE_BASELINE] = "baseline",
    [LAB_ROLE_REFERENCE] = "reference",
};

enum {
    OPT_BACKEND = 256,
    OPT_REPORT_FD,
    OPT_SEED,
    OPT_STUDENT,
    OPT_BASELINE,
    OPT_REFERENCE,
    OPT_KERNEL,
    OPT_BASELINE_KERNEL,
    OPT_SIZES,
    OPT_TIMING_SIZES,
    OPT_BLOCK,
    OPT_UNROLL,
    OPT_LAB_KERNELS,
    OPT_MIN_SAMPLES,
    OPT_TIME_CAP,
    OPT_FLUSH_L2,
    OPT_PROBE,
    OPT_OUTPUT,
    OPT_GRID_PER_SM,
    OPT_ENTRY,
    OPT_BASELINE_BLOCK,
    OPT_BASELINE_UNROLL,
    OPT_BASELINE_OUTPUT,
    OPT_BASELINE_GRID_PER_SM,
    OPT_BASELINE_ENTRY,
    OPT_CHOOSE_BLOCK,
    OPT_STUDENT_ONLY,
    OPT_GLOBALS,
    OPT_BRANCH_COUNTS,
    OPT_COUNTS_ONLY,
    OPT_WAIT_GO,
    OPT_WAIT_ARGS,
    OPT_OCCUPANCY_TABLES,
    OPT_OCCUPANCY_DEVICE,
    OPT_OCCUPANCY_KERNELS,
    OPT_OCCUPANCY_EXPECTED,
    OPT_DEVICE_INPUTS,
    OPT_CPU_BASELINE_ONLY,
    OPT_NO_CPU_BASELINE,
    OPT_ARGS_FD,
};

static const struct option options[] = {
    { "backend", required_argument, NULL, OPT_BACKEND },
    { "report-fd", required_argument, NULL, OPT_REPORT_FD },
    { "seed", required_argument, NULL, OPT_SEED },
    { "student", required_argument, NULL, OPT_STUDENT },
    { "baseline", required_argument, NULL, OPT_BASELINE },
    { "reference", required_argument, NULL, OPT_REFERENCE },
    { "kernel", required_argument, NULL, OPT_KERNEL },
    { "baseline-kernel", required_argument, NULL, OPT_BASELINE_KERNEL },
    { "sizes", required_argument, NULL, OPT_SIZES },
    { "timing-sizes", required_argument, NULL, OPT_TIMING_SIZES },
    { "block", required_argument, NULL, OPT_BLOCK },
    { "unroll", required_argument, NULL, OPT_UNROLL },
    { "lab-kernels", required_argument, NULL, OPT_LAB_KERNELS },
    { "min-samples", required_argument, NULL, OPT_MIN_SAMPLES },
    { "time-cap", required_argument, NULL, OPT_TIME_CAP },
    { "flush-l2", required_argument, NULL, OPT_FLUSH_L2 },
    { "probe", no_argument, NULL, OPT_PROBE },
    { "output", required_argument, NULL, OPT_OUTPUT },
    { "grid-per-sm", required_argument, NULL, OPT_GRID_PER_SM },
    { "entry", required_argument, NULL, OPT_ENTRY },
    { "baseline-block", required_argument, NULL, OPT_BASELINE_BLOCK },
    { "baseline-unroll", required_argument, NULL, OPT_BASELINE_UNROLL },
    { "baseline-output", required_argument, NULL, OPT_BASELINE_OUTPUT },
    { "baseline-grid-per-sm", required_argument, NULL, OPT_BASELINE_GRID_PER_SM },
    { "baseline-entry", required_argument, NULL, OPT_BASELINE_ENTRY },
    { "choose-block", no_argument, NULL, OPT_CHOOSE_BLOCK },
    { "student-only", no_argument, NULL, OPT_STUDENT_ONLY },
    { "globals", required_argument, NULL, OPT_GLOBALS },
    { "branch-counts", no_argument, NULL, OPT_BRANCH_COUNTS },
    { "counts-only", no_argument, NULL, OPT_COUNTS_ONLY },
    { "wait-go", no_argument, NULL, OPT_WAIT_GO },
    { "wait-args", no_argument, NULL, OPT_WAIT_ARGS },
    { "device-inputs", no_argument, NULL, OPT_DEVICE_INPUTS },
    { "cpu-baseline-only", no_argument, NULL, OPT_CPU_BASELINE_ONLY },
    { "no-cpu-baseline", no_argument, NULL, OPT_NO_CPU_BASELINE },
    { "occupancy-tables", required_argument, NULL, OPT_OCCUPANCY_TABLES },
    { "occupancy-device", required_argument, NULL, OPT_OCCUPANCY_DEVICE },
    { "occupancy-kernels", required_argument, NULL, OPT_OCCUPANCY_KERNELS },
    { "occupancy-expected", required_argument, NULL, OPT_OCCUPANCY_EXPECTED },
    { "args-fd", required_argument, NULL, OPT_ARGS_FD },
    { NULL, 0, NULL, 0 },
};

static int
parse_ulong(const char *s, unsigned long *out)
{
    char *end;

    errno = 0;
    *out = strtoul(s, &end, 10);
    return errno || end == s || *end ? -1 : 0;
}

static int
parse_list(const char *s, unsigned long *v, size_t max, size_t *n)
{
    char *copy = strdup(s), *save = NULL, *tok;
    int rc = 0;

    *n = 0;
    if (!copy)
        return -1;
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == max || parse_ulong(tok, &v[*n]) < 0 || v[*n] == 0) {
            rc = -1;
            break;
        }
        (*n)++;
    }
    free(copy);
    return rc;
}

static int
parse_shape(const char *s, lab_dim3 *out)
{
    unsigned long d[3] = { 1, 1, 1 };
    char *end;
    int n = 0;

    for (;;) {
        if (n == 3 || *s < '0' || *s > '9')
            return -1;
        errno = 0;
        d[n] = strtoul(s, &end, 10);
        if (errno || d[n] == 0 || d[n] > 1024)
            return -1;
        n++;
        if (!*end)
            break;
        if (*end != 'x')
            return -1;
        s = end + 1;
    }
    if (d[0] * d[1] * d[2] > 1024)
        return -1;
    *out = (lab_dim3){ (unsigned)d[0], (unsigned)d[1], (unsigned)d[2] };
    return 0;
}

int
lab_driver_parse_shapes(const char *s, lab_dim3 *v, size_t max, size_t *n)
{
    char *copy = strdup(s), *save = NULL, *tok;
    int rc = 0;

    *n = 0;
    if (!copy)
        return -1;
    for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == max || parse_shape(tok, &v[*n]) < 0) {
            rc = -1;
            break;
        }
        (*n)++;
    }
    free(copy);
    return *n ? rc : -1;
}

static int
usage(const char *prog, const char *what)
{
    fprintf(stderr, "cudalab-driver %s: %s\n", prog, what);
    if (!strcmp(prog, "device-probe")) {
        fprintf(stderr, "usage: cudalab-driver device-probe --report-fd N [--backend cuda|sim]\n");
        return -2;
    }
    fprintf(stderr,
            "usage: cudalab-driver %s --backend cuda|sim|host --report-fd N --lab-kernels PTX "
            "--student MOD --baseline MOD|cpu --reference MOD --kernel NAME --entry MANGLED "
            "[--baseline-kernel NAME --baseline-entry MANGLED] --sizes N,... "
            "[--timing-sizes N,...] --block N|XxY[xZ],... [--unroll N] [--output partials|total] "
            "[--grid-per-sm K] [--baseline-block N] [--baseline-unroll N] "
            "[--baseline-output partials|total] [--baseline-grid-per-sm K] [--seed N] "
            "[--min-samples N] [--time-cap S] [--flush-l2 X] [--choose-block] [--student-only] "
            "[--globals NAME,...] [--branch-counts] [--counts-only] [--wait-go] [--device-inputs] "
            "[--no-cpu-baseline] [--wait-args] [--args-fd N] [--occupancy-tables ARCH "
            "--occupancy-device N,... --occupancy-kernels R:S,... --occupancy-expected N,...] "
            "[--probe]\n"
            "   or: cudalab-driver %s --cpu-baseline-only --report-fd N --timing-sizes N,... "
            "[--seed N]\n",
            prog, prog);
    return -2;
}

static int
parse_output(const char *s, bool *total)
{
    if (strcmp(s, "partials") && strcmp(s, "total"))
        return -1;
    *total = !strcmp(s, "total");
    return 0;
}

static int
parse_args(lab_driver_args *a, const char *prog, int argc, char **argv)
{
    lab_shape *student = &a->shape[LAB_ROLE_STUDENT], *base = &a->shape[LAB_ROLE_BASELINE];
    bool base_block = false, base_unroll = false, base_output = false, base_grid = false;
    unsigned long v;
    int c;

    a->backend = "cuda";
    a->report_fd = -1;
    a->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    a->block = 256;
    a->blocks[0] = (lab_dim3){ 256, 1, 1 };
    a->nblocks = 1;
    a->unroll = 1;
    a->timing = (lab_timing_opts)LAB_TIMING_OPTS_DEFAULT;
    while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (c) {
        case OPT_BACKEND:
            a->backend = optarg;
            break;
        case OPT_REPORT_FD:
            if (parse_ulong(optarg, &v) < 0 || v < 3 || v > 1024)
                return usage(prog, "--report-fd needs a descriptor >= 3");
            a->report_fd = (int)v;
            break;
        case OPT_SEED:
            if (parse_ulong(optarg, &v) < 0)
                return usage(prog, "--seed needs a number");
            a->seed = v;
            break;
        case OPT_STUDENT:
            a->module[LAB_ROLE_STUDENT] = optarg;
            break;
        case OPT_BASELINE:
            a->module[LAB_ROLE_BASELINE] = optarg;
            break;
        case OPT_REFERENCE:
            a->module[LAB_ROLE_REFERENCE] = optarg;
            break;
        case OPT_KERNEL:
            a->kernel[LAB_ROLE_STUDENT] = a->kernel[LAB_ROLE_REFERENCE] = optarg;
            break;
        case OPT_BASELINE_KERNEL:
            a->kernel[LAB_ROLE_BASELINE] = optarg;
            break;
        case OPT_SIZES:
            if (parse_list(optarg, a->sizes, ARRAY_SIZE(a->sizes), &a->nsizes) < 0)
                return usage(prog, "--sizes needs up to 16 positive numbers");
            break;
        case OPT_TIMING_SIZES:
            if (parse_list(optarg, a->timing_sizes, ARRAY_SIZE(a->timing_sizes),
                           &a->ntiming_sizes) < 0)
                return usage(prog, "--timing-sizes needs up to 16 positive numbers");
            break;
        case OPT_BLOCK:
            if (lab_driver_parse_shapes(optarg, a->blocks, ARRAY_SIZE(a->blocks), &a->nblocks) < 0)
                return usage(prog, "--block needs up to 16 shapes X, XxY or XxYxZ of 1..1024 "
                                   "threads");
            a->block = a->blocks[0].x * a->blocks[0].y * a->blocks[0].z;
            break;
        case OPT_UNROLL:
            if (parse_ulong(optarg, &v) < 0 || v == 0 || v > 64)
                return usage(prog, "--unroll needs 1..64");
            a->unroll = (unsigned)v;
            break;
        case OPT_LAB_KERNELS:
            a->lab_kernels = optarg;
            break;
        case OPT_MIN_SAMPLES:
            if (parse_ulong(optarg, &v) < 0 || v == 0)
                return usage(prog, "--min-samples needs a positive number");
            a->timing.min_samples = (unsigned)v;
            break;
        case OPT_TIME_CAP:
            a->timing.time_cap_s = atof(optarg);
            if (a->timing.time_cap_s <= 0)
                return usage(prog, "--time-cap needs positive seconds");
            break;
        case OPT_FLUSH_L2:
            a->timing.flush_l2 = atof(optarg);
            if (!(a->timing.flush_l2 >= 1.0 && a->timing.flush_l2 <= 16.0))
                return usage(prog, "--flush-l2 needs a number of L2 sizes from 1 to 16");
            break;
        case OPT_CHOOSE_BLOCK:
            a->choose_block = true;
            break;
        case OPT_PROBE:
            a->probe = true;
            break;
        case OPT_STUDENT_ONLY:
            a->student_only = true;
            break;
        case OPT_BRANCH_COUNTS:
            a->branch_counts = true;
            break;
        case OPT_COUNTS_ONLY:
            a->counts_only = true;
            break;
        case OPT_WAIT_ARGS:
            a->wait_args = true;
            break;
        case OPT_WAIT_GO:
            a->wait_go = true;
            break;
        case OPT_DEVICE_INPUTS:
            a->device_inputs = true;
            break;
        case OPT_CPU_BASELINE_ONLY:
            a->cpu_only = true;
            break;
        case OPT_NO_CPU_BASELINE:
            a->no_cpu = true;
            break;
        case OPT_GLOBALS:
            a->globals = optarg;
            break;
        case OPT_OCCUPANCY_TABLES:
            a->occupancy.tables = optarg;
            break;
        case OPT_OCCUPANCY_DEVICE:
            a->occupancy.device = optarg;
            break;
        case OPT_OCCUPANCY_KERNELS:
            a->occupancy.kernels = optarg;
            break;
        case OPT_OCCUPANCY_EXPECTED:
            a->occupancy.expected = optarg;
            break;
        case OPT_ARGS_FD: /* read before the parse (read_fd_args) */
            break;
        case OPT_OUTPUT:
            if (parse_output(optarg, &student->total) < 0)
                return usage(prog, "--output needs partials or total");
            break;
        case OPT_GRID_PER_SM:
            if (parse_ulong(optarg, &v) < 0 || v > 64)
                return usage(prog, "--grid-per-sm needs 0..64");
            student->grid_per_sm = (unsigned)v;
            break;
        case OPT_ENTRY:
            student->entry = optarg;
            break;
        case OPT_BASELINE_BLOCK:
            if (parse_ulong(optarg, &v) < 0 || v == 0 || v > 1024)
                return usage(prog, "--baseline-block needs 1..1024");
            base->block = (unsigned)v;
            base_block = true;
            break;
        case OPT_BASELINE_UNROLL:
            if (parse_ulong(optarg, &v) < 0 || v == 0 || v > 64)
                return usage(prog, "--baseline-unroll needs 1..64");
            base->unroll = (unsigned)v;
            base_unroll = true;
            break;
        case OPT_BASELINE_OUTPUT:
            if (parse_output(optarg, &base->total) < 0)
                return usage(prog, "--baseline-output needs partials or total");
            base_output = true;
            break;
        case OPT_BASELINE_GRID_PER_SM:
            if (parse_ulong(optarg, &v) < 0 || v > 64)
                return usage(prog, "--baseline-grid-per-sm needs 0..64");
            base->grid_per_sm = (unsigned)v;
            base_grid = true;
            break;
        case OPT_BASELINE_ENTRY:
            base->entry = optarg;
            break;
        default:
            return usage(prog, "unknown option");
        }
    }
    if (optind < argc)
        return usage(prog, "unexpected argument");
    /* the student's shape is the reference's; the baseline's defaults to it */
    student->block = a->block;
    student->unroll = a->unroll;
    base->block = base_block ? base->block : student->block;
    base->unroll = base_unroll ? base->unroll : student->unroll;
    base->total = base_output ? base->total : student->total;
    base->grid_per_sm = base_grid ? base->grid_per_sm : student->grid_per_sm;
    a->shape[LAB_ROLE_REFERENCE] = *student;
    if (a->report_fd < 0)
        return usage(prog, "--report-fd is required");
    if (a->probe || (a->wait_args && !a->late_args))
        return 0;      /* the rest, a --wait-args driver reads once its device is open */
    if (a->cpu_only) { /* no device, no module: the host's own run */
        a->backend = "cpu";
        return a->ntiming_sizes ? 0 : usage(prog, "--cpu-baseline-only needs --timing-sizes");
    }
    if (a->student_only) /* the other roles are not run: their modules are not needed */
        a->module[LAB_ROLE_BASELINE] = a->module[LAB_ROLE_REFERENCE] = NULL;
    if (!a->module[LAB_ROLE_STUDENT] ||
        (!a->student_only && (!a->module[LAB_ROLE_BASELINE] || !a->module[LAB_ROLE_REFERENCE])) ||
        !a->kernel[LAB_ROLE_STUDENT] || !a->nsizes || !a->lab_kernels)
        return usage(prog, "--student, --baseline, --reference, --kernel, --sizes and "
                           "--lab-kernels are required");
    if (!student->entry)
        return usage(prog, "--entry is required: the kernel's mangled name");
    if (!a->student_only && strcmp(a->module[LAB_ROLE_BASELINE], "cpu") &&
        (!a->kernel[LAB_ROLE_BASELINE] || !base->entry))
        return usage(prog, "--baseline-kernel and --baseline-entry are required unless the "
                           "baseline is cpu");
    return 0;
}

bool
lab_driver_is_host(const lab_driver *d)
{
    return !strcmp(d->args.backend, "host");
}

bool
lab_driver_is_gpu_role(const lab_driver *d, lab_role role)
{
    return d->module[role] != NULL;
}

void *
lab_driver_alloc(lab_driver *d, size_t n, size_t size, lab_err *err)
{
    void *p = n && size <= SIZE_MAX / n ? lab_arena_alloc(&d->size_memory, n * size) : NULL;

    if (!p)
        lab_err_set(err, LAB_ENOMEM, "out of memory for %zu x %zu bytes", n, size);
    return p;
}

bool
lab_driver_runs_role(const lab_driver *d, lab_role role)
{
    const char *m = d->args.module[role];

    if (lab_driver_is_host(d))
        return m && strcmp(m, "cpu");
    return lab_driver_is_gpu_role(d, role);
}

int
lab_driver_fail(lab_driver *d, lab_role role, const char *stage, unsigned long size,
                const lab_err *err)
{
    /* the device's last error names this failure only when it is a device failure: a lookup the
     * driver expected to fail (an optional symbol) leaves its code behind */
    const lab_dev_error *de = err->code == LAB_EDEVICE && d->dev && d->ops->last_error
                                  ? d->ops->last_error(d->dev)
                                  : NULL;
    /* what the simulator cannot run (lab/sim/sim.h: LAB_ENOSYS) is its limit, not a fault */
    bool unsupported = err->code == LAB_ENOSYS && lab_driver_is_sim(d);
    cJSON *e;

    d->failed = true;
    lab_report_set_status(d->report, "error", err->msg);
    cJSON_DeleteItemFromObject(d->report, "error");
    if ((e = cJSON_AddObjectToObject(d->report, "error"))) {
        cJSON_AddStringToObject(e, "role", lab_role_names[role]);
        cJSON_AddStringToObject(e, "stage", stage);
        cJSON_AddNumberToObject(e, "size", (double)size);
        cJSON_AddNumberToObject(e, "code", de ? de->code : 0);
        cJSON_AddStringToObject(e, "name",
                                unsupported      ? "SIM_UNSUPPORTED"
                                : de && de->code ? de->name
                                                 : "");
        cJSON_AddStringToObject(e, "message", err->msg);
    }
    return err->code ? err->code : LAB_EDEVICE;
}

static int
load_role(lab_driver *d, lab_role role, lab_err *err)
{
    const char *path = d->args.module[role];
    const char *kernel = d->args.kernel[role];
    lab_image img;
    int rc, n;

    if (!path || (role == LAB_ROLE_BASELINE && !strcmp(path, "cpu")))
        return 0; /* the CPU's baseline, or a role --student-only leaves out */
    if ((rc = lab_buf_read_file(&d->image[role], path, err)) < 0)
        return rc;
    n = snprintf(d->mangled[role], sizeof(d->mangled[role]), "%s", d->args.shape[role].entry);
    if (n < 0 || (size_t)n >= sizeof(d->mangled[role]))
        return lab_err_set(err, LAB_EINVAL, "kernel name '%s' is too long", kernel);
    img.data = d->image[role].buf;
    img.size = d->image[role].len + 1; /* PTX is passed with its NUL */
    img.path = path;
    if ((rc = d->ops->load(d->dev, &img, &d->module[role], err)) < 0)
        return rc;
    if (!d->ops->has_kernel(d->module[role], d->mangled[role]))
        return lab_err_set(err, LAB_ENOENT,
                           "'%s' defines no kernel %s with this exercise's "
                           "parameters (looked for %s)",
                           path, kernel, d->mangled[role]);
    return 0;
}

/* The load-time contents of the student's --globals, kept on the device beside them.  One the
 * backend cannot find (internal to the module) or past the budget stays as the kernel leaves it,
 * and the report names it under "globals_kept". */
#define GLOBALS_BUDGET (64u << 20) /* bytes of __device__ variables restored before every run */

static int
snapshot_globals(lab_driver *d, lab_err *err)
{
    char *names = d->args.globals ? strdup(d->args.globals) : NULL, *save = NULL;
    cJSON *kept = NULL;
    size_t total = 0;
    int rc = 0;

    if (d->args.globals && !names)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    for (char *name = names ? strtok_r(names, ",", &save) : NULL; name && rc == 0;
         name = strtok_r(NULL, ",", &save)) {
        lab_global *g = &d->globals[d->nglobals];
        lab_err ignored = LAB_ERR_INIT;
        if (d->nglobals == LAB_DRIVER_MAX_GLOBALS || !d->ops->symbol ||
            d->ops->symbol(d->module[LAB_ROLE_STUDENT], name, &g->dev, &g->bytes, &ignored) < 0 ||
            total + g->bytes > GLOBALS_BUDGET) {
            if (kept || (kept = cJSON_AddArrayToObject(d->report, "globals_kept")))
                cJSON_AddItemToArray(kept, cJSON_CreateString(name));
            continue;
        }
        total += g->bytes;
        if ((rc = d->ops->alloc(d->dev, g->bytes, &g->pristine, err)) == 0 &&
            (rc = d->ops->copy_dtod(d->dev, g->pristine, g->dev, g->bytes, err)) == 0)
            d->nglobals++;
    }
    free(names);
    return rc;
}

int
lab_driver_reset_globals(lab_driver *d, lab_role role, lab_err *err)
{
    int rc;

    if (role != LAB_ROLE_STUDENT)
        return 0;
    for (size_t i = 0; i < d->nglobals; i++)
        if ((rc = d->ops->copy_dtod(d->dev, d->globals[i].dev, d->globals[i].pristine,
                                    d->globals[i].bytes, err)) < 0)
            return rc;
    return 0;
}

/* The CUDA driver library as the probe saw it:
 *   "driver": {"found": bool, "version": 13000, "library": "/usr/lib/.../libcuda.so.1"}
 * (the library's error when it is not found), also when no device opens, so that
 * `cudalab doctor` can compare the driver with the toolkit. */
static void
report_driver_library(cJSON *report)
{
    cJSON *o = cJSON_AddObjectToObject(report, "driver");
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    struct link_map *map = NULL;
    int (*get_version)(int *);
    int version = 0;

    if (!o)
        return;
    cJSON_AddBoolToObject(o, "found", lib != NULL);
    if (!lib) {
        cJSON_AddStringToObject(o, "library", dlerror());
        return;
    }
    if (dlinfo(lib, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        cJSON_AddStringToObject(o, "library", map->l_name);
    *(void **)&get_version = dlsym(lib, "cuDriverGetVersion");
    if (get_version && get_version(&version) == 0)
        cJSON_AddNumberToObject(o, "version", version);
    dlclose(lib);
}

/* The probe's list of every device the backend sees (`cudalab batch` spreads a class over them);
 * a backend of one device lists the one opened. */
static int
report_devices(lab_driver *d, lab_err *err)
{
    lab_dev_ident ids[LAB_DEV_MAX_DEVICES];
    int n = 0, rc;

    if (!d->ops->devices) {
        memset(&ids[0], 0, sizeof(ids[0]));
        snprintf(ids[0].name, sizeof(ids[0].name), "%s", d->info.name);
        snprintf(ids[0].uuid, sizeof(ids[0].uuid), "%s", d->info.uuid);
        snprintf(ids[0].pci_bus_id, sizeof(ids[0].pci_bus_id), "%s", d->info.pci_bus_id);
        n = 1;
    } else if ((rc = d->ops->devices(d->dev, ids, LAB_DEV_MAX_DEVICES, &n, err)) < 0) {
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "open", 0, err);
    }
    lab_report_set_devices(d->report, ids, n);
    return 0;
}

/* --wait-go: the lab's byte on stdin, sent once it holds the GPU's lock (lab/grade/runner.h).
 * Until then the driver has only opened the device and loaded its modules. */
static int
wait_for_go(lab_err *err)
{
    char go;
    ssize_t n;

    while ((n = read(STDIN_FILENO, &go, 1)) < 0 && errno == EINTR)
        ;
    if (n != 1)
        return lab_err_set(err, LAB_ECANCEL, "the lab never let the driver use the GPU: %s",
                           n < 0 ? strerror(errno) : "its channel closed");
    lab_trace_mark("go");
    return 0;
}

/* --wait-args: the rest of the arguments, which the lab knows only once its build is done, read
 * from stdin (each ended by a NUL, the list by an empty one) while the device is open, and
 * parsed again after argv's; its strings stay for the process's life. */
static int
read_late_args(lab_driver *d, int argc, char **argv, const char *program, lab_err *err)
{
    lab_buf in = LAB_BUF_INIT;
    lab_strvec all = LAB_STRVEC_INIT;
    char c;
    ssize_t n;
    int rc = 0;

    /* a byte at a time: the go byte may follow the list on the same channel, and is not ours */
    while ((n = read(STDIN_FILENO, &c, 1)) == 1 || (n < 0 && errno == EINTR)) {
        if (n < 0)
            continue;
        if (lab_buf_add(&in, &c, 1) < 0)
            return lab_err_set(err, LAB_ENOMEM, "out of memory");
        if (!c && (in.len == 1 || !in.buf[in.len - 2]))
            break;
    }
    if (n != 1) {
        lab_buf_release(&in);
        return lab_err_set(err, LAB_ECANCEL, "the lab never sent the driver its arguments: %s",
                           n < 0 ? strerror(errno) : "its channel closed");
    }
    for (int i = 0; i < argc && rc == 0; i++)
        rc = lab_strvec_push(&all, argv[i]);
    for (size_t at = 0; rc == 0 && at + 1 < in.len; at += strlen(in.buf + at) + 1)
        rc = lab_strvec_push(&all, in.buf + at);
    lab_buf_release(&in);
    if (rc < 0) {
        lab_strvec_release(&all);
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    }
    d->late_args = all; /* parse_args keeps pointers into it */
    d->args.late_args = true;
    optind = 0; /* getopt from the start again */
    lab_trace_mark("arguments read");
    return parse_args(&d->args, program, (int)all.n, all.v) < 0 ? -2 : 0;
}

/* --args-fd=N: the arguments the lab keeps off every command line (the seed, the occupancy's
 * expected answers: a student's host code may read any command line in its sandbox, and
 * bubblewrap's own holds the whole of the driver's), each ended by a NUL on descriptor N, read
 * and N closed before anything of the student's runs.  d->fd_args becomes argv's and those; 0,
 * or -1 on a usage error (printed). */
static int
read_fd_args(lab_driver *d, int argc, char **argv, const char *program)
{
    lab_buf in = LAB_BUF_INIT;
    char buf[4096], *end;
    int fd = -1, rc = 0;
    ssize_t n;

    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "--args-fd=", 10)) {
            errno = 0;
            fd = (int)strtol(argv[i] + 10, &end, 10);
            if (errno || *end || fd < 3)
                return usage(program, "--args-fd needs a descriptor >= 3");
        }
    if (fd < 0)
        return 0;
    while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
        if (n > 0 && lab_buf_add(&in, buf, (size_t)n) < 0)
            rc = -1;
    close(fd);
    if (n < 0 || rc < 0) {
        lab_buf_release(&in);
        return usage(program, "cannot read the arguments of --args-fd");
    }
    for (int i = 0; i < argc && rc == 0; i++)
        rc = lab_strvec_push(&d->fd_args, argv[i]);
    for (size_t at = 0; rc == 0 && at < in.len; at += strlen(in.buf + at) + 1)
        rc = lab_strvec_push(&d->fd_args, in.buf + at);
    explicit_bzero(in.buf, in.len);
    lab_buf_release(&in);
    return rc < 0 ? usage(program, "out of memory") : 0;
}

/* The run's settings in the report, once the arguments are whole. */
static void
report_settings(lab_driver *d)
{
    cJSON_AddNumberToObject(d->report, "seed", (double)d->args.seed);
    cJSON_AddNumberToObject(d->report, "block", d->args.block);
    cJSON_AddNumberToObject(d->report, "unroll", d->args.unroll);
}

int
lab_driver_start(lab_driver *d, int argc, char **argv, const char *program)
{
    lab_err err = LAB_ERR_INIT;
    lab_fmtargs why;
    int rc;

    memset(d, 0, sizeof(*d));
    d->program = program;
    for (int i = 0; i < LAB_ROLE_COUNT; i++)
        lab_buf_init(&d->image[i]);
    d->args.probe = !strcmp(program, "device-probe");
    if (read_fd_args(d, argc, argv, program) < 0) {
        d->args.report_fd = -1;
        return -2;
    }
    if (d->fd_args.n) {
        argc = (int)d->fd_args.n;
        argv = d->fd_args.v;
    }
    if (parse_args(&d->args, program, argc, argv) < 0) {
        d->args.report_fd = -1;
        return -2;
    }
    lab_trace_mark("%s on %s", program, d->args.backend);
    d->report = lab_report_new(program, d->args.backend);
    if (d->args.probe && !strcmp(d->args.backend, "cuda"))
        report_driver_library(d->report);
    d->cases = cJSON_AddArrayToObject(d->report, "cases");
    d->timings = cJSON_AddArrayToObject(d->report, "timings");
    if (!d->args.wait_args)
        report_settings(d);
    if (lab_driver_is_host(d))
        return 0; /* the family calls the modules through common/host.h */
    if (d->args.cpu_only)
        return 0; /* the CPU baseline alone: no device is opened */
    if (!(d->ops = lab_dev_backend(d->args.backend))) {
        lab_err_set(&err, LAB_EINVAL, "unknown backend '%s'", d->args.backend);
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "open", 0, &err);
    }
    err.args = &why; /* the reason in the learner's language too (lab_err_set_msg) */
    if ((rc = d->ops->open(0, &d->dev, &err)) < 0) {
        d->failed = true;
        lab_report_set_no_gpu(d->report, &err);
        return rc;
    }
    err.args = NULL;
    lab_trace_mark("device open");
    if ((rc = d->ops->info(d->dev, &d->info, &err)) < 0)
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "open", 0, &err);
    lab_report_set_device(d->report, &d->info);
    if (d->args.probe)
        return report_devices(d, &err);
    if (d->args.wait_args) {
        if ((rc = read_late_args(d, argc, argv, program, &err)) == -2) {
            d->args.report_fd = -1; /* a usage error: the lab's arguments were wrong */
            return rc;
        }
        if (rc < 0)
            return lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", 0, &err);
        report_settings(d);
    }
    if (d->args.branch_counts && lab_driver_is_sim(d))
        lab_dev_sim_count_branches(d->dev);
    if (d->args.counts_only && lab_driver_is_sim(d))
        lab_dev_sim_checks_off(d->dev);
    for (int role = 0; role < LAB_ROLE_COUNT; role++)
        if ((rc = load_role(d, (lab_role)role, &err)) < 0)
            return lab_driver_fail(d, (lab_role)role, "load", 0, &err);
    if ((rc = snapshot_globals(d, &err)) < 0)
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "load", 0, &err);
    lab_trace_mark("modules loaded");
    if (d->args.wait_go && (rc = wait_for_go(&err)) < 0)
        return lab_driver_fail(d, LAB_ROLE_STUDENT, "setup", 0, &err);
    if (lab_driver_is_sim(d)) { /* no timers: correctness only, and the metrics */
        d->args.ntiming_sizes = 0;
        /* --device-inputs: the lab's kernels make the inputs here too, as on a GPU (a test of
         * them without one) */
        if (d->args.device_inputs && (rc = lab_dev_load_file(d->ops, d->dev, d->args.lab_kernels,
                                                             &d->timing.kernels, &err)) < 0)
            return lab_driver_fail(d, LAB_ROLE_REFERENCE, "setup", 0, &err);
        d->metrics = cJSON_AddArrayToObject(d->report, "sim_metrics");
        cJSON_AddStringToObject(d->report, "timing", "skipped: the simulator has no clock");
        return 0;
    }
    if ((rc = lab_timing_init(&d->timing, d->ops, d->dev, &d->info, d->args.timing.flush_l2,
                              d->args.lab_kernels, &err)) == 0)
        rc = lab_timing_copy_gbps(&d->timing, &d->copy_gbps, &err);
    if (rc < 0) {
        lab_err_wrap(&err, "the lab's own kernels");
        return lab_driver_fail(d, LAB_ROLE_REFERENCE, "setup", 0, &err);
    }
    cJSON_AddNumberToObject(d->report, "copy_gbps", d->copy_gbps);
    lab_trace_mark("copy bandwidth measured");
    return 0;
}

bool
lab_driver_is_sim(const lab_driver *d)
{
    return d->ops == &lab_dev_sim;
}

int
lab_driver_launch(lab_driver *d, lab_role role, lab_dim3 grid, lab_dim3 block, unsigned shared,
                  void **args, lab_err *err)
{
    return d->ops->launch(d->module[role], d->mangled[role], grid, block, shared, args, err);
}

static void
add_metrics(lab_driver *d, const char *role, unsigned long size, const lab_sim_result *r)
{
    const lab_sim_metrics *m = &r->metrics;
    cJSON *o;

    if (!d->metrics || !(o = cJSON_CreateObject()))
        return;
    cJSON_AddStringToObject(o, "role", role);
    cJSON_AddNumberToObject(o, "size", (double)size);
    cJSON_AddStringToObject(o, "level", "PTX");
    cJSON_AddNumberToObject(o, "warps", (double)m->warps);
    cJSON_AddNumberToObject(o, "warp_insts", (double)m->warp_insts);
    cJSON_AddNumberToObject(o, "insts_per_warp", lab_sim_metric_ratio(m->warp_insts, m->warps));
    cJSON_AddNumberToObject(o, "simt_efficiency",
                            lab_sim_metric_ratio(m->thread_insts, 32 * m->warp_insts));
    cJSON_AddNumberToObject(o, "branches", (double)m->branches);
    cJSON_AddNumberToObject(o, "divergent_branches", (double)m->divergent);
    cJSON_AddNumberToObject(o, "branch_efficiency",
                            m->branches ? 1.0 - lab_sim_metric_ratio(m->divergent, m->branches)
                                        : 1.0);
    cJSON_AddNumberToObject(o, "gld_requests", (double)m->gld_requests);
    cJSON_AddNumberToObject(o, "gld_sectors", (double)m->gld_sectors);
    cJSON_AddNumberToObject(o, "gld_sectors_per_request",
                            lab_sim_metric_ratio(m->gld_sectors, m->gld_requests));
    cJSON_AddNumberToObject(o, "gld_efficiency",
                            lab_sim_metric_ratio(m->gld_bytes, 32 * m->gld_sectors));
    cJSON_AddNumberToObject(o, "gst_requests", (double)m->gst_requests);
    cJSON_AddNumberToObject(o, "gst_sectors", (double)m->gst_sectors);
    cJSON_AddNumberToObject(o, "gst_sectors_per_request",
                            lab_sim_metric_ratio(m->gst_sectors, m->gst_requests));
    cJSON_AddNumberToObject(o, "gst_efficiency",
                            lab_sim_metric_ratio(m->gst_bytes, 32 * m->gst_sectors));
    cJSON_AddNumberToObject(o, "shared_requests", (double)m->shared_requests);
    cJSON_AddNumberToObject(o, "shared_wavefronts", (double)m->shared_wavefronts);
    cJSON_AddNumberToObject(o, "shared_bank_conflicts", (double)m->shared_conflicts);
    cJSON_AddNumberToObject(o, "gatom_requests", (double)m->gatom_requests);
    cJSON_AddNumberToObject(o, "gatom_sectors", (double)m->gatom_sectors);
    cJSON_AddNumberToObject(o, "shared_atom_requests", (double)m->shared_atom_requests);
    cJSON_AddNumberToObject(o, "shared_atom_serial", (double)m->shared_atom_serial);
    cJSON_AddNumberToObject(o, "child_grids", (double)m->child_grids);
    cJSON_AddNumberToObject(o, "findings", (double)r->nfindings);
    cJSON_AddNumberToObject(o, "gld_block_sectors", (double)m->gld_block_sectors);
    cJSON_AddNumberToObject(o, "gld_rounds", (double)m->gld_rounds);
    cJSON_AddNumberToObject(o, "barrier_waits", (double)m->barrier_waits);
    cJSON_AddNumberToObject(o, "int_divs", (double)m->int_divs);
    cJSON_AddNumberToObject(o, "in_bytes", d->in_bytes);
    cJSON_AddNumberToObject(o, "out_bytes", d->out_bytes);
    cJSON_AddNumberToObject(o, "in_small_bytes", d->in_small_bytes);
    if (d->shape_now) { /* which of the shapes counted: the model's sweep of a choice */
        char shape[32];
        lab_dim3_format(*d->shape_now, "", "x", "", shape, sizeof(shape));
        cJSON_AddStringToObject(o, "block", shape);
    }
    cJSON_AddItemToArray(d->metrics, o);
}

static cJSON *
three(const unsigned v[3])
{
    const int i[3] = { (int)v[0], (int)v[1], (int)v[2] };
    return cJSON_CreateIntArray(i, 3);
}

/* The simulator's finding in parts (common/report.h), where its words are a message of the
 * catalog: the lab shows it in the learner's language. */
static void
add_finding(cJSON *c, const lab_sim_finding *f)
{
    cJSON *o;

    if (!f->what_format || !(o = cJSON_AddObjectToObject(c, "finding")))
        return;
    lab_report_add_format(o, "format", "args", f->what_format, &f->what_args);
    cJSON_AddItemToObject(o, "thread", three(f->thread));
    cJSON_AddItemToObject(o, "block", three(f->block));
    cJSON_AddStringToObject(o, "where", f->where);
}

void
lab_driver_push_case(lab_driver *d, lab_role role, cJSON *c)
{
    lab_buf printed = LAB_BUF_INIT;
    lab_sim_result res,
        *r = lab_driver_is_sim(d) && lab_dev_sim_take(d->dev, &res, &printed) ? &res : NULL;
    cJSON *size = cJSON_GetObjectItem(c, "size");

    if (printed.len) /* the kernels' printf on the simulator (docs/design/runner-protocol.md) */
        cJSON_AddStringToObject(c, "printf", printed.buf);
    lab_buf_release(&printed);
    if (r && r->printf_bytes)
        cJSON_AddNumberToObject(c, "printf_bytes", (double)r->printf_bytes);
    if (r && r->printf_cut) /* stopped past LAB_SIM_PRINTF_FLOOD: a printf flood */
        cJSON_AddBoolToObject(c, "printf_cut", 1);
    if (r) {
        add_metrics(d, lab_role_names[role],
                    cJSON_IsNumber(size) ? (unsigned long)size->valuedouble : 0, r);
        if (r->first.kind != LAB_SIM_CHECK_NONE) {
            /* the simulator's checks: wrong even where the values came out right */
            cJSON_ReplaceItemInObject(c, "correct", cJSON_CreateBool(0));
            cJSON_ReplaceItemInObject(c, "detail", cJSON_CreateString(r->first.msg));
            cJSON_DeleteItemFromObject(c, "detail_format"); /* the driver's, of the values */
            cJSON_DeleteItemFromObject(c, "detail_args");
            cJSON_AddStringToObject(c, "check", lab_sim_check_name(r->first.kind));
            add_finding(c, &r->first);
        }
    }
    if (d->round > 1) /* new contents in the same buffers */
        cJSON_AddNumberToObject(c, "round", d->round);
    if (d->shape_now && !cJSON_GetObjectItem(c, "block")) { /* which of the shapes it was */
        char shape[32];
        lab_dim3_format(*d->shape_now, "", "x", "", shape, sizeof(shape));
        cJSON_AddStringToObject(c, "block", shape);
    }
    if (!cJSON_IsTrue(cJSON_GetObjectItem(c, "correct")))
        d->wrong = true;
    cJSON_AddItemToArray(d->cases, c);
}

void
lab_driver_check_shapes(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err)
{
    for (size_t b = 0; b < d->args.nblocks && !d->failed; b++) {
        d->shape_now = d->args.nblocks > 1 ? &d->args.blocks[b] : NULL;
        for (int r = 0; r < LAB_ROLE_COUNT && !d->failed; r++)
            if (lab_driver_runs_role(d, (lab_role)r))
                check(ctx, (lab_role)r, d->args.blocks[b], err);
    }
    d->shape_now = NULL;
}

/* The report's error stage for each outcome of a host call (lab/grade/policy.c maps it). */
static const char *const host_stage[LAB_HOST_STATUS_COUNT] = {
    [LAB_HOST_OK] = "run",
    [LAB_HOST_NO_FUNCTION] = "load",
    [LAB_HOST_CRASHED] = "run",
    [LAB_HOST_TIMEOUT] = "timeout",
};

int
lab_driver_call_host(lab_driver *d, lab_role role, unsigned long size, void *shared,
                     double timeout_s, lab_err *err)
{
    const char *symbols[] = { d->args.shape[role].entry, d->args.kernel[role] };
    lab_host_call call = { d->program, d->args.module[role], symbols, 2, shared, timeout_s };
    lab_host_outcome out;

    if (lab_host_run(&call, &out, err) < 0)
        return lab_driver_fail(d, role, "run", size, err);
    if (out.status == LAB_HOST_OK)
        return 0;
    if (out.status == LAB_HOST_NO_FUNCTION)
        lab_err_set(err, LAB_ENOENT, "the file %s", out.detail);
    else
        lab_err_set(err, LAB_EDEVICE, "%s %s", d->args.kernel[role], out.detail);
    return lab_driver_fail(d, role, host_stage[out.status], size, err);
}

int
lab_driver_input(lab_driver *d, size_t bytes, lab_input *in, lab_err *err)
{
    int rc;

    in->bytes = bytes;
    d->in_bytes += (double)bytes;
    if (d->in_small_bytes == 0 || (double)bytes < d->in_small_bytes)
        d->in_small_bytes = (double)bytes;
    if ((rc = d->ops->alloc(d->dev, bytes, &in->dev, err)) < 0)
        return rc;
    return d->ops->alloc(d->dev, bytes, &in->pristine, err);
}

int
lab_driver_input_set(lab_driver *d, lab_input *in, const void *host, lab_err *err)
{
    int rc;

    if ((rc = d->ops->copy_in(d->dev, in->pristine, host, in->bytes, err)) < 0)
        return rc;
    return lab_driver_input_restore(d, in, err);
}

int
lab_driver_input_restore(lab_driver *d, const lab_input *in, lab_err *err)
{
    return d->ops->copy_dtod(d->dev, in->dev, in->pristine, in->bytes, err);
}

int
lab_driver_output(lab_driver *d, unsigned long n, size_t guard, uint32_t poison, lab_output *o,
                  lab_err *err)
{
    *o = (lab_output){ .n = n, .words = n + guard, .poison = poison };
    if (!(o->host = lab_driver_alloc(d, o->words, sizeof(uint32_t), err)))
        return err->code;
    d->out_bytes += (double)o->words * sizeof(uint32_t);
    return d->ops->alloc(d->dev, o->words * sizeof(uint32_t), &o->dev, err);
}

int
lab_driver_output_poison(lab_driver *d, const lab_output *o, lab_err *err)
{
    return lab_dev_fill32(d->ops, d->dev, o->dev, o->poison, o->words, err);
}

void
lab_finding_count(lab_finding *f, unsigned long grid, size_t total, size_t bad, long first_bad)
{
    f->grid = grid;
    f->expected = (double)total;
    f->got = (double)(total - (bad < total ? bad : total));
    f->bad = bad;
    f->first_bad = first_bad;
}

int
lab_driver_output_verify(lab_driver *d, lab_output *o, const lab_output_spec *spec, const void *ctx,
                         const char *prefix, lab_finding *out, lab_err *err)
{
    char expected[128];
    size_t bad = 0;
    long first_bad = -1;
    int rc;

    prefix = prefix ? prefix : "";
    out->detail[0] = '\0';
    if ((rc = d->ops->copy_out(d->dev, o->host, o->dev, o->words * 4, err)) < 0)
        return rc;
    for (size_t i = 0; i < o->words; i++) {
        const uint32_t want = i < o->n ? spec->want(ctx, i) : o->poison, got = o->host[i];
        if (got == want || bad++)
            continue;
        first_bad = (long)i;
        if (i >= o->n) {
            lab_finding_detail(out, "%swrote %s[%zu], past n = %lu", prefix, spec->name, i, o->n);
        } else if (got == o->poison) {
            lab_finding_detail(out, "%s%s[%zu] was never written", prefix, spec->name, i);
        } else {
            spec->explain(ctx, i, want, expected, sizeof(expected));
            lab_finding_detail(out, "%s%s[%zu] = %d, expected %s", prefix, spec->name, i,
                               (int32_t)got, expected);
        }
    }
    lab_finding_count(out, out->grid, o->n, bad, first_bad);
    return 0;
}

void
lab_words_setup(lab_words *w, lab_driver *d, lab_size *size, size_t nin,
                const lab_output_spec *spec, double bytes_per_element)
{
    *w = (lab_words){ .d = d, .n = size->n, .nin = nin, .spec = spec };
    size->bytes = bytes_per_element * (double)size->n;
}

#define INT_MAP_POISON_OUT 0x7EADBEEF
#define INT_MAP_POISON_IN 0x5A5A5A5A
#define INT_MAP_GUARD 1024

int
lab_int_map_setup(lab_int_map *m, lab_driver *d, lab_size *size, const lab_output_spec *spec,
                  lab_err *err)
{
    const size_t words = size->n + INT_MAP_GUARD;
    int rc;

    lab_words_setup(&m->w, d, size, 1, spec, 8.0); /* 4 bytes read, 4 written */
    if (!(m->in = lab_driver_alloc(d, words, 4, err)))
        return err->code;
    if ((rc = lab_driver_input(d, words * 4, &m->w.in[0], err)) < 0)
        return rc;
    return lab_driver_output(d, size->n, INT_MAP_GUARD, INT_MAP_POISON_OUT, &m->w.out, err);
}

int
lab_int_map_fill(void *problem, lab_rng *rng, lab_err *err)
{
    lab_int_map *m = problem;

    for (size_t i = 0; i < m->w.n + INT_MAP_GUARD; i++)
        m->in[i] = i < m->w.n ? (int32_t)lab_rng_below(rng, 1u << 30) : INT_MAP_POISON_IN;
    return lab_driver_input_set(m->w.d, &m->w.in[0], m->in, err);
}

int
lab_int_map_launch(void *problem, lab_role role, lab_dim3 shape, lab_err *err)
{
    lab_int_map *m = problem;
    unsigned int n = (unsigned int)m->w.n, block = m->w.d->args.block;
    lab_dim3 grid = { (n + block - 1) / block, 1, 1 };
    void *args[] = { &m->w.in[0].dev, &m->w.out.dev, &n };

    return lab_driver_launch(m->w.d, role, grid, shape, 0, args, err);
}

float
lab_float_of_bits(uint32_t bits)
{
    float f;

    memcpy(&f, &bits, sizeof(f));
    return f;
}

uint32_t
lab_bits_of_float(float f)
{
    uint32_t bits;

    memcpy(&bits, &f, sizeof(bits));
    return bits;
}

int
lab_words_prepare(void *problem, lab_role role, lab_dim3 shape, lab_err *err)
{
    lab_words *w = problem;
    int rc;

    (void)role;
    (void)shape;
    for (size_t i = 0; i < w->nin; i++)
        if ((rc = lab_driver_input_restore(w->d, &w->in[i], err)) < 0)
            return rc;
    return lab_driver_output_poison(w->d, &w->out, err);
}

int
lab_words_verify(void *problem, lab_role role, lab_dim3 shape, lab_finding *out, lab_err *err)
{
    lab_words *w = problem;
    const unsigned threads = shape.x * shape.y * shape.z;
    char prefix[32] = "";

    out->grid =
        w->spec->grid ? w->spec->grid(problem, role, shape) : (w->n + threads - 1) / threads;
    if (w->spec->shape_prefix) {
        lab_dim3_format(shape, "block ", "x", ": ", prefix, sizeof(prefix));
    }
    return lab_driver_output_verify(w->d, &w->out, w->spec, problem, prefix, out, err);
}

int
lab_driver_add_case(lab_driver *d, unsigned long size, lab_role role, const lab_finding *f,
                    lab_err *err)
{
    cJSON *c = cJSON_CreateObject();

    if (!c)
        return lab_err_set(err, LAB_ENOMEM, "out of memory");
    cJSON_AddNumberToObject(c, "size", (double)size);
    cJSON_AddStringToObject(c, "role", lab_role_names[role]);
    cJSON_AddNumberToObject(c, "grid", (double)f->grid);
    cJSON_AddBoolToObject(c, "correct", f->bad == 0);
    cJSON_AddNumberToObject(c, "expected", f->expected);
    cJSON_AddNumberToObject(c, "got", f->got);
    cJSON_AddNumberToObject(c, "bad", (double)f->bad);
    cJSON_AddNumberToObject(c, "first_bad", (double)f->first_bad);
    lab_driver_add_detail(c, f);
    lab_driver_push_case(d, role, c);
    return 0;
}

void
lab_driver_add_detail(cJSON *c, const lab_finding *f)
{
    cJSON_AddStringToObject(c, "detail", f->detail);
    if (f->detail_format && f->detail_args.n)
        lab_report_add_format(c, "detail_format", "detail_args", f->detail_format, &f->detail_args);
}

void
lab_finding_detail(lab_finding *f, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    f->detail_format =
        lab_fmtargs_vcapture(&f->detail_args, f->detail, sizeof(f->detail), fmt, ap) ? fmt : NULL;
    va_end(ap);
}

int
lab_driver_finish(lab_driver *d)
{
    lab_err err = LAB_ERR_INIT;
    int status = 0;

    if (d->args.report_fd < 0) { /* usage error: nothing to report */
        cJSON_Delete(d->report);
        if (d->dev) /* --wait-args: the device was open before the arguments were whole */
            d->ops->close(d->dev);
        lab_strvec_release(&d->late_args);
        lab_strvec_release(&d->fd_args);
        return 2;
    }
    if (d->args.branch_counts && lab_driver_is_sim(d) && d->module[LAB_ROLE_STUDENT])
        lab_dev_sim_report_branches(d->module[LAB_ROLE_STUDENT],
                                    cJSON_AddArrayToObject(d->report, "sim_branches"));
    if (lab_report_emit(d->report, d->args.report_fd, &err) < 0) {
        fprintf(stderr, "driver: %s\n", err.msg);
        status = 2;
    }
    /* the report is whole: the lab may give the GPU to the next grading during the teardown */
    close(d->args.report_fd);
    /* on a GPU, the process's end frees its context and memory, and the lab waits for that end:
     * CUDA's own teardown before it (every buffer freed, the context destroyed) only adds to
     * the wait */
    if (d->dev && !lab_driver_is_sim(d)) {
        fflush(NULL); /* what the kernels printed, as CUDA's exit would have */
        _exit(status);
    }
    cJSON_Delete(d->report);
    lab_arena_release(&d->size_memory);
    lab_timing_release(&d->timing);
    lab_strvec_release(&d->late_args);
    lab_strvec_release(&d->fd_args);
    if (d->dev)
        d->ops->close(d->dev);
    for (int i = 0; i < LAB_ROLE_COUNT; i++)
        lab_buf_release(&d->image[i]);
    return status;
}

bool
lab_driver_is_timing_size(const lab_driver *d, unsigned long n)
{
    for (size_t i = 0; i < d->args.ntiming_sizes; i++)
        if (d->args.timing_sizes[i] == n)
            return true;
    return false;
}
