/*
 * devgen.h - inputs and expected sums made on the device by the lab's own kernels
 * (kernels/lab-kernels.cu: lab_fill_bytes, lab_block_sums, lab_total_sum).
 *
 * On a GPU, filling a 2^24-int input on the host, summing it there for each launch shape and
 * copying it over took about 50 ms a problem, three problems a timing size, all while the
 * grading held the GPU's lock.  The lab's kernels do the same in well under a millisecond.  The
 * sums are still the lab's: made from the input before any student kernel runs and copied to
 * the host at once, where the checks compare against them.
 *
 * Available where the lab's kernels are loaded: every GPU run (common/timing.h loads them),
 * and a simulator run given --device-inputs (a test of this path without a GPU).  Elsewhere the
 * families fill on the host as before.  The bytes differ from the host's for the same seed; each
 * is a function of the seed alone.
 */
#ifndef LAB_HARNESS_DEVGEN_H
#define LAB_HARNESS_DEVGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/driver.h"

/* Whether the lab's kernels are loaded here to make inputs. */
bool lab_devgen_ready(const lab_driver *d);
/* dst[i] = a byte (0..255) drawn from seed and i for i < n, poison for n <= i < padded. */
int lab_devgen_bytes(lab_driver *d, lab_dptr dst, size_t n, size_t padded, uint64_t seed,
                     uint32_t poison, lab_err *err);
/* out[b] (host) = the sum of src's elements [b * per_block, min(n, (b + 1) * per_block)) for
 * b < nout; per_block 0 (or n and more): out[0] = the sum of all n.  scratch: device memory of
 * nout words. */
int lab_devgen_sums(lab_driver *d, lab_dptr src, size_t n, size_t per_block, lab_dptr scratch,
                    uint32_t *out, size_t nout, lab_err *err);

#endif
