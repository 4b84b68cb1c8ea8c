/*
 * devgen.c - inputs and expected sums made by the lab's kernels (see devgen.h).
 */
#include "common/devgen.h"

#define THREADS 256 /* a multiple of 32: the sums reduce by warps */
#define STRIDE_BLOCKS                                                                              \
    4096 /* the grid-stride kernels' blocks: an H100's 132 SMs filled several times */

bool
lab_devgen_ready(const lab_driver *d)
{
    return d->timing.kernels != NULL;
}

int
lab_devgen_bytes(lab_driver *d, lab_dptr dst, size_t n, size_t padded, uint64_t seed,
                 uint32_t poison, lab_err *err)
{
    unsigned long long n_ = n, padded_ = padded, seed_ = seed;
    void *args[] = { &dst, &n_, &padded_, &seed_, &poison };
    lab_dim3 grid = { STRIDE_BLOCKS, 1, 1 }, block = { THREADS, 1, 1 };

    return d->ops->launch(d->timing.kernels, "lab_fill_bytes", grid, block, 0, args, err);
}

int
lab_devgen_sums(lab_driver *d, lab_dptr src, size_t n, size_t per_block, lab_dptr scratch,
                uint32_t *out, size_t nout, lab_err *err)
{
    unsigned long long n_ = n, per_block_ = per_block;
    lab_dim3 block = { THREADS, 1, 1 };
    int rc;

    if (per_block == 0 || per_block >= n) { /* one sum of everything */
        void *args[] = { &src, &n_, &scratch };
        lab_dim3 grid = { STRIDE_BLOCKS, 1, 1 };
        if ((rc = lab_dev_fill32(d->ops, d->dev, scratch, 0, 1, err)) < 0 ||
            (rc = d->ops->launch(d->timing.kernels, "lab_total_sum", grid, block, 0, args, err)) <
                0)
            return rc;
        nout = 1;
    } else {
        void *args[] = { &src, &n_, &per_block_, &scratch };
        lab_dim3 grid = { (unsigned)nout, 1, 1 };
        if ((rc = d->ops->launch(d->timing.kernels, "lab_block_sums", grid, block, 0, args, err)) <
            0)
            return rc;
    }
    return d->ops->copy_out(d->dev, out, scratch, nout * sizeof(uint32_t), err);
}
