/*
 * expected.c - reference numbers from the lab's tables (see expected.h).
 *
 * lab_expected_args finds the family's row, which reads the resources of the lab's kernels
 * (kernel_resources), computes every configuration's answer (lab_occupancy_compute) and
 * appends the driver's arguments.
 */
#include "lab/grade/expected.h"
#include "lab/build/occupancy.h"
#include "lab/build/ptxas.h"
#include "lab/build/resusage.h"
#include "lab/util/hash.h"
#include "lab/util/i18n.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const occ_kernels[] = {
#define LAB_OCC_KERNEL(NAME) #NAME,
#define LAB_OCC_BLOCK(THREADS)
#include "lab/catalog/occupancy-cases.def"
};
static const int occ_blocks[] = {
#define LAB_OCC_KERNEL(NAME)
#define LAB_OCC_BLOCK(THREADS) THREADS,
#include "lab/catalog/occupancy-cases.def"
};

/* What ptxas says occupancy.ptx uses for arch: the log, cached in the build folder under a
 * name made of the PTX, arch and nvcc's version; ptxas reads a copy of the PTX there, named
 * for this process (gradings run side by side in a batch). */
static int
occupancy_ptxas(lab *l, const char *arch, const volatile sig_atomic_t *cancel, lab_buf *log,
                lab_err *err)
{
    lab_buf ptx = LAB_BUF_INIT, name = LAB_BUF_INIT, path = LAB_BUF_INIT, copy = LAB_BUF_INIT;
    const lab_toolchain *tc;
    char hex[LAB_HASH_HEX];
    lab_hash h;
    int rc;

    lab_buf_printf(&path, "%s/occupancy.ptx", lab_libexecdir(l));
    if ((rc = lab_toolchain_of(l, &tc, err)) < 0 ||
        (rc = lab_buf_read_file(&ptx, path.buf, err)) < 0)
        goto out;
    lab_hash_init(&h);
    lab_hash_add(&h, ptx.buf, ptx.len);
    lab_hash_adds(&h, arch);
    lab_hash_adds(&h, lab_toolchain_version(tc));
    lab_hash_hex(&h, hex);
    lab_buf_reset(&path);
    lab_buf_printf(&path, "%s/occupancy-%s.ptxas", lab_builddir(l), hex);
    if (access(path.buf, R_OK) == 0) {
        rc = lab_buf_read_file(log, path.buf, err);
        goto out;
    }
    lab_buf_printf(&name, "occupancy-%s.%ld.ptx", hex, (long)getpid());
    lab_buf_printf(&copy, "%s/%s", lab_builddir(l), name.buf);
    lab_ptxas_request req = {
        .dir = lab_builddir(l), .ptx = name.buf, .arch = arch, .timeout_s = 60, .cancel = cancel
    };
    if ((rc = lab_mkdir_p(lab_builddir(l), 0755, err)) < 0 ||
        (rc = lab_write_file(copy.buf, ptx.buf, ptx.len, err)) < 0)
        goto out;
    rc = lab_ptxas_log(tc, &req, log, err);
    unlink(copy.buf);
    if (rc == 0)
        rc = lab_write_file(path.buf, log->buf, log->len, err);
out:
    lab_buf_release(&ptx);
    lab_buf_release(&name);
    lab_buf_release(&path);
    lab_buf_release(&copy);
    return rc;
}

/* Each kernel's registers, static shared memory and barriers on arch, in res[]. */
static int
kernel_resources(lab *l, const char *arch, const volatile sig_atomic_t *cancel,
                 lab_occ_input res[ARRAY_SIZE(occ_kernels)], lab_err *err)
{
    lab_buf log = LAB_BUF_INIT;
    lab_resusage ru = LAB_RESUSAGE_INIT;
    const lab_funcres *f;
    int rc;

    if ((rc = occupancy_ptxas(l, arch, cancel, &log, err)) < 0 ||
        (rc = lab_resusage_parse(log.buf, &ru, err)) < 0)
        goto out;
    for (size_t k = 0; k < ARRAY_SIZE(occ_kernels); k++) {
        if (!(f = lab_resusage_find(&ru, occ_kernels[k])) || f->regs < 0) {
            rc = lab_err_set(err, LAB_ETOOL, "ptxas -v says nothing of %s in occupancy.ptx",
                             occ_kernels[k]);
            goto out;
        }
        res[k] = (lab_occ_input){ .regs_per_thread = f->regs,
                                  .static_smem = (int)f->smem,
                                  .barriers = f->barriers };
    }
out:
    lab_buf_release(&log);
    lab_resusage_release(&ru);
    return rc;
}

static int
occupancy_args(lab *l, const char *arch, const unsigned long *sizes, size_t nsizes,
               const volatile sig_atomic_t *cancel, lab_strvec *args, lab_buf *said, lab_err *err)
{
    const lab_arch_limits *a = lab_occupancy_arch(arch);
    lab_occ_input res[ARRAY_SIZE(occ_kernels)];
    lab_buf list = LAB_BUF_INIT;
    lab_occ_result r;
    int rc;

    if (!a) {
        lab_buf_printf(said, _("the lab has no tables for %s"), arch);
        return 0;
    }
    if ((rc = kernel_resources(l, a->arch, cancel, res, err)) < 0)
        return rc;
    lab_strvec_pushf(args, "--occupancy-tables=%s", a->arch);
    /* the task's OccDevice: every architecture of the table has 32-thread warps */
    lab_strvec_pushf(args, "--occupancy-device=%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d", 32,
                     a->max_threads_per_block, a->max_threads_per_sm, a->max_blocks_per_sm,
                     a->regs_per_sm, a->regs_per_block, a->reg_alloc_unit, a->sub_partitions,
                     a->smem_per_sm, a->smem_per_block, a->smem_reserved_per_block,
                     a->smem_alloc_unit);
    for (size_t k = 0; k < ARRAY_SIZE(occ_kernels); k++)
        lab_buf_printf(&list, "%s%d:%d", k ? "," : "", res[k].regs_per_thread, res[k].static_smem);
    lab_strvec_pushf(args, "--occupancy-kernels=%s", list.buf);
    lab_buf_reset(&list);
    for (size_t s = 0; s < nsizes; s++)
        for (size_t k = 0; k < ARRAY_SIZE(occ_kernels); k++)
            for (size_t b = 0; b < ARRAY_SIZE(occ_blocks); b++) {
                lab_occ_input in = res[k];
                in.block_threads = occ_blocks[b];
                in.dynamic_smem = (int)sizes[s];
                if ((rc = lab_occupancy_compute(a, &in, &r, err)) < 0)
                    goto out;
                lab_buf_printf(&list, "%s%d", list.len ? "," : "", r.blocks_per_sm);
            }
    lab_strvec_pushf(args, "--occupancy-expected=%s", list.buf);
    lab_buf_printf(said, _("the lab's tables for %s: %s"), a->arch, a->example);
    rc = 1;
out:
    lab_buf_release(&list);
    return rc;
}

/* The families whose reference numbers the lab's tables give. */
static const struct {
    const char *family;
    int (*args)(lab *l, const char *arch, const unsigned long *sizes, size_t nsizes,
                const volatile sig_atomic_t *cancel, lab_strvec *args, lab_buf *said, lab_err *err);
} from_tables[] = {
    { "host-occupancy", occupancy_args },
};

int
lab_expected_args(lab *l, const lab_exercise *ex, const char *arch, const unsigned long *sizes,
                  size_t nsizes, const volatile sig_atomic_t *cancel, lab_strvec *args,
                  lab_buf *said, lab_err *err)
{
    for (size_t i = 0; i < ARRAY_SIZE(from_tables); i++)
        if (!strcmp(ex->family, from_tables[i].family))
            return from_tables[i].args(l, arch, sizes, nsizes, cancel, args, said, err);
    return 0;
}
