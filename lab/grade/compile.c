/*
 * compile.c - building an exercise's files for a grading (see compile.h).
 */
#include "lab/grade/compile.h"
#include "lab/util/i18n.h"
#include "lab/build/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CUDA toolkit's folder: nvcc's real path less bin/nvcc (/usr/local/cuda-13.0). */
static int
toolkit_root(const char *nvcc, lab_buf *out)
{
    char *real = realpath(nvcc, NULL);
    char *slash;
    int rc = -1;

    for (int up = 0; real && up < 2 && (slash = strrchr(real, '/')) && slash > real; up++)
        *slash = '\0';
    if (real && strcmp(real, "/"))
        rc = lab_buf_adds(out, real);
    free(real);
    return rc;
}

static int
compile(lab *l, const lab_exercise *ex, const char *path, const char *arch,
        const volatile sig_atomic_t *cancel, bool untrusted, bool ptx_only, lab_build *b,
        lab_err *err)
{
    lab_build_request br = { .source = path,
                             .instantiate = ex->instantiate,
                             .arch = arch,
                             .cache_dir = lab_builddir(l),
                             .timeout_s = ex->build_timeout_s,
                             .cancel = cancel,
                             .host = ex->kind == LAB_KIND_HOST,
                             .rdc = ex->rdc,
                             .ptx_only = ptx_only };
    /* nvcc reads the lab's private copy of the file, in a private folder of the build cache
     * (toolchain.h), which alone it sees of the cache; the toolkit is shown wherever it is */
    const char *hide[] = { lab_builddir(l), NULL };
    const char *show[] = { NULL, NULL };
    lab_sandbox_plan plan = { .job = LAB_SANDBOX_COMPILE,
                              .datadir = lab_datadir(l),
                              .hide = hide,
                              .show = show,
                              .bwrap = getenv("CUDALAB_BWRAP") };
    const char *env_arch = getenv("CUDALAB_ARCH");
    const lab_toolchain *tc;
    lab_buf toolkit = LAB_BUF_INIT;
    int rc;

    if ((rc = lab_toolchain_of(l, &tc, err)) < 0)
        goto out;
    if (env_arch && !strcmp(env_arch, arch)) /* a refused target is the lab's setting */
        br.arch_origin = "CUDALAB_ARCH";
    if (untrusted && lab_sandboxed(l)) {
        if (toolkit_root(lab_toolchain_nvcc(tc), &toolkit) == 0)
            show[0] = toolkit.buf;
        br.sandbox = &plan;
    }
    if ((rc = lab_toolchain_build(tc, &br, b, err)) < 0)
        goto out;
    if (b->cancelled)
        rc = lab_err_set(err, LAB_ECANCEL, _("cancelled"));
out:
    lab_buf_release(&toolkit);
    return rc;
}

int
lab_compile_file(lab *l, const lab_exercise *ex, const char *path, const char *arch,
                 const volatile sig_atomic_t *cancel, bool untrusted, lab_build *b, lab_err *err)
{
    return compile(l, ex, path, arch, cancel, untrusted, false, b, err);
}

int
lab_compile_file_for(lab *l, const lab_exercise *ex, const char *path, const char *arch,
                     const volatile sig_atomic_t *cancel, bool untrusted, bool sim, lab_build *b,
                     lab_err *err)
{
    return compile(l, ex, path, arch, cancel, untrusted, sim, b, err);
}

int
lab_compile_solution_for(lab *l, const lab_exercise *ex, const char *arch,
                         const volatile sig_atomic_t *cancel, bool sim, lab_build *b, lab_err *err)
{
    int rc;

    if ((rc = compile(l, ex, ex->solution, arch, cancel, false, sim, b, err)) < 0)
        return rc;
    if (!b->ok)
        return lab_err_set(err, LAB_ETOOL, "the lab's own '%s' does not compile: %s", ex->solution,
                           b->timed_out ? "timed out" : b->log.buf);
    return 0;
}

int
lab_compile_solution(lab *l, const lab_exercise *ex, const char *arch,
                     const volatile sig_atomic_t *cancel, lab_build *b, lab_err *err)
{
    return lab_compile_solution_for(l, ex, arch, cancel, false, b, err);
}

const char *
lab_compile_module(const lab_exercise *ex, const lab_build *b, bool sim)
{
    if (ex->kind == LAB_KIND_HOST)
        return b->so_path.buf;
    return sim ? b->ptx_path.buf : b->cubin_path.buf;
}

bool
lab_compile_chosen_block(const char *ptx, lab_block_shape *out)
{
    static const char *const dims[] = { "chosenBlockX", "chosenBlockY", "chosenBlockZ" };
    unsigned long v[3] = { 0, 1, 1 };
    bool declared = lab_ptx_global(ptx, dims[0], &v[0]);

    for (int d = 1; d < 3; d++)
        lab_ptx_global(ptx, dims[d], &v[d]); /* declared without a value: 0, as the driver reads */
    *out = (lab_block_shape){ (unsigned)v[0], (unsigned)v[1], (unsigned)v[2] };
    return declared;
}

bool
lab_compile_bad_choice(const lab_exercise *ex, const char *ptx, lab_buf *why)
{
    lab_block_shape chosen;
    char shape[48];

    if (!lab_compile_chosen_block(ptx, &chosen)) {
        lab_buf_adds(why, "declares no chosenBlockX: say the block you choose with __device__ "
                          "unsigned int chosenBlockX = ...; (and chosenBlockY, chosenBlockZ if "
                          "not 1)");
        return true;
    }
    for (size_t i = 0; i < ex->nblocks; i++)
        if (ex->blocks[i].x == chosen.x && ex->blocks[i].y == chosen.y &&
            ex->blocks[i].z == chosen.z)
            return false;
    if (chosen.x && chosen.y && chosen.z)
        lab_block_shape_format(&chosen, shape, sizeof(shape));
    else
        snprintf(shape, sizeof(shape), "%ux%ux%u", chosen.x, chosen.y, chosen.z);
    lab_buf_printf(why,
                   "chooses block %s, which is not one of the shapes this exercise sweeps:", shape);
    for (size_t i = 0; i < ex->nblocks; i++) {
        lab_block_shape_format(&ex->blocks[i], shape, sizeof(shape));
        lab_buf_printf(why, "%s %s", i ? "," : "", shape);
    }
    return true;
}
