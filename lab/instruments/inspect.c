/*
 * inspect.c - one file's resources, occupancy and listings (see inspect.h).
 */
#include "lab/instruments/inspect.h"
#include "lab/util/i18n.h"
#include "lab/build/ptx.h"
#include "lab/build/ptxas.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void
lab_inspection_init(lab_inspection *in)
{
    memset(in, 0, sizeof(*in));
    lab_build_init(&in->build);
}

void
lab_inspection_release(lab_inspection *in)
{
    lab_build_release(&in->build);
    lab_resusage_release(&in->res);
    lab_listing_release(&in->ptx);
    lab_listing_release(&in->sass);
    free(in->runs);
}

/* ptxas -v on the build's PTX; the log is cached as HASH.ptxas beside the cubin. */
static int
ptxas_log(const lab_toolchain *tc, const lab_inspection *in, const char *builddir, lab_buf *out,
          lab_err *err)
{
    lab_buf path = LAB_BUF_INIT, ptx = LAB_BUF_INIT;
    int rc;

    lab_buf_printf(&path, "%s/%s.ptxas", builddir, in->build.hash);
    if (access(path.buf, R_OK) == 0) {
        rc = lab_buf_read_file(out, path.buf, err);
        goto out;
    }
    lab_buf_printf(&ptx, "%s.ptx", in->build.hash);
    lab_ptxas_request req = { .dir = builddir,
                              .ptx = ptx.buf,
                              .arch = in->arch,
                              .rdc = in->ex->rdc,
                              .timeout_s = in->ex->build_timeout_s,
                              .cancel = in->cancel };
    if ((rc = lab_ptxas_log(tc, &req, out, err)) == LAB_ECANCEL)
        rc = lab_err_set(err, LAB_ECANCEL, "%s", _("inspect cancelled"));
    if (rc < 0)
        goto out;
    rc = lab_write_file(path.buf, out->buf, out->len, err);
out:
    lab_buf_release(&path);
    lab_buf_release(&ptx);
    return rc;
}

/* The entry whose mangled name holds "<len><kernel>" (_Z20reduceNeighboredLess, then the
 * parameters). */
static const lab_funcres *
find_kernel(const lab_resusage *r, const char *kernel)
{
    char want[256];

    snprintf(want, sizeof(want), "%zu%s", strlen(kernel), kernel);
    for (size_t i = 0; i < r->n; i++)
        if (r->v[i].entry && (strstr(r->v[i].name, want) || !strcmp(r->v[i].name, kernel)))
            return &r->v[i];
    return NULL;
}

/* A __device__ unsigned int's initializer in a module's PTX, when it is a block's side. */
static bool
ptx_u32_initializer(const char *ptx, const char *name, unsigned *out)
{
    unsigned long v = 0;

    if (!lab_ptx_global(ptx, name, &v) || v == 0 || v > 1024)
        return false;
    *out = (unsigned)v;
    return true;
}

/* The block the occupancy is for: a choose_block exercise's file names it (common/choose.h) */
static void
pick_block(const lab_exercise *ex, const char *ptx, lab_inspection *in)
{
    unsigned x, y = 1;

    in->block = ex->block;
    if (!ex->choose_block || !ptx_u32_initializer(ptx, "chosenBlockX", &x))
        return;
    if (!ptx_u32_initializer(ptx, "chosenBlockY", &y))
        snprintf(in->block_from, sizeof(in->block_from), "chosenBlockX %u", x);
    else
        snprintf(in->block_from, sizeof(in->block_from), "chosenBlockX %u, chosenBlockY %u", x, y);
    in->block = x * y;
}

static int
pick_arch(lab *l, const char *arch, char *out, size_t size, lab_err *err)
{
    const char *env = getenv("CUDALAB_ARCH");
    const lab_device *dev;
    int rc;

    if (arch || (env && *env)) {
        snprintf(out, size, "%s", arch ? arch : env);
        return 0;
    }
    if ((rc = lab_device_probe(l, &dev, err)) < 0)
        return rc;
    snprintf(out, size, "%s", dev->present ? dev->arch : LAB_DEFAULT_ARCH);
    return 0;
}

static void
disassemble(lab *l, const lab_toolchain *tc, lab_inspection *in)
{
    lab_err err = LAB_ERR_INIT;
    char *tool = NULL, *text = NULL;

    if (lab_toolchain_find_tool(tc, "nvdisasm", "CUDALAB_NVDISASM", lab_toolsdir(l), &tool, &err) <
            0 ||
        lab_sass_disassemble(tool, in->build.cubin_path.buf, &text, &err) < 0 ||
        lab_sass_parse(text, &in->sass, &err) < 0)
        snprintf(in->sass_why, sizeof(in->sass_why), "%s", err.msg);
    else
        in->has_sass = true;
    free(tool);
    free(text);
}

int
lab_inspect(lab *l, const lab_exercise *ex, const char *file, const char *arch, lab_inspection *in,
            lab_err *err)
{
    const lab_toolchain *tc;
    lab_buf log = LAB_BUF_INIT;
    int rc;

    in->ex = ex;
    snprintf(in->file, sizeof(in->file), "%s", file);
    if (ex->kind == LAB_KIND_HOST)
        return lab_err_set(err, LAB_EINVAL, _("%s is host code: there is no kernel to inspect"),
                           ex->id);
    if (access(file, R_OK) < 0)
        return lab_err_set(err, LAB_ENOENT, "cannot read '%s': %s", file, strerror(errno));
    if ((rc = pick_arch(l, arch, in->arch, sizeof(in->arch), err)) < 0 ||
        (rc = lab_toolchain_of(l, &tc, err)) < 0)
        return rc;
    lab_build_request br = { .source = file,
                             .instantiate = ex->instantiate,
                             .arch = in->arch,
                             .cache_dir = lab_builddir(l),
                             .timeout_s = ex->build_timeout_s,
                             .cancel = in->cancel,
                             .rdc = ex->rdc };
    if ((rc = lab_toolchain_build(tc, &br, &in->build, err)) < 0)
        return rc;
    if (in->build.cancelled)
        return lab_err_set(err, LAB_ECANCEL, "inspect cancelled");
    if (!in->build.ok)
        return 0;
    if ((rc = ptxas_log(tc, in, lab_builddir(l), &log, err)) < 0 ||
        (rc = lab_resusage_parse(log.buf, &in->res, err)) < 0 ||
        (rc = lab_ptx_listing_parse(in->build.ptx.buf, &in->ptx, err)) < 0)
        goto out;
    in->kernel = find_kernel(&in->res, ex->kernel);
    in->limits = lab_occupancy_arch(in->arch);
    pick_block(ex, in->build.ptx.buf, in);
    if (in->kernel && in->limits) {
        lab_occ_input oi = { (int)in->block, in->kernel->regs, (int)in->kernel->smem, 0,
                             in->kernel->barriers };
        if ((rc = lab_occupancy_compute(in->limits, &oi, &in->occ, err)) < 0)
            goto out;
        in->has_occ = true;
    }
    disassemble(l, tc, in);
    lab_listing_mix(&in->ptx, in->kernel ? in->kernel->name : NULL, &in->ptx_mix);
    if (in->has_sass)
        lab_listing_mix(&in->sass, in->kernel ? in->kernel->name : NULL, &in->sass_mix);
    if (!in->no_runs)
        lab_inspect__branch_runs(l, in);
    if (!in->no_model)
        lab_inspect__model(l, in);
out:
    lab_buf_release(&log);
    return rc;
}

const char *
lab_source_line(const char *text, int n, size_t *len)
{
    const char *p = text;

    for (int i = 1; p && i < n; i++)
        if ((p = strchr(p, '\n')))
            p++;
    if (!p || !*p || n < 1)
        return NULL;
    *len = strcspn(p, "\n");
    return p;
}

bool
lab_inspect_is_own_file(const lab_inspection *in, const char *x)
{
    const char *base = strrchr(in->file, '/') ? strrchr(in->file, '/') + 1 : in->file;
    const char *xb = x && strrchr(x, '/') ? strrchr(x, '/') + 1 : x;

    return xb && !strcmp(xb, base);
}
