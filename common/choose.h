/*
 * choose.h - exercises where the student picks the launch shape: the student's
 * module exports one scalar per dimension (y and z default to 1)
 *
 *     __device__ unsigned int chosenBlockX = 128;
 *     __device__ unsigned int chosenBlockY = 2;
 *
 * (scalars, not an array: nvcc writes an initialized array as bytes, which
 * every reader would have to reassemble)
 *
 * and the driver (given --choose-block) checks the kernel at that shape, then
 * times the student's kernel at every shape of --block, interleaved in one
 * process (common/timing.h), and reports the sweep:
 *
 *   sweep  {size, bytes, choice: "128x2", rows: [{block, threads, launched, error,
 *           median_ns, ci_rel, samples, gbps, occupancy}]}
 *
 * occupancy is the theoretical fraction of the SM's warps (-1 where the backend cannot say).
 * Whether the choice is within noise of the fastest row is the lab's verdict
 * (lab/grade/policy.h), not the driver's.  On the simulator there is no sweep:
 * the choice is checked for being one of the shapes, and the kernel for being right there.
 *
 * One family driver serves both its plain exercises and its choice exercises: the harness's
 * per-size loop (family.c) calls
 *   lab_choose_check_size(d, check, ctx, &err);         the choice, or every shape of --block
 *   lab_choose_sweep(d, n, bytes, kernels, nk, &err);   at a timing size, with --choose-block
 */
#ifndef LAB_HARNESS_CHOOSE_H
#define LAB_HARNESS_CHOOSE_H

#include "common/driver.h"
#include "common/rng.h"

/* The shape role's module names; 0, LAB_ENOENT when it defines no chosenBlockX, LAB_EINVAL
 * when one is not a 4-byte unsigned int or the shape is not one of --block (err says which). */
int lab_choose_read(lab_driver *d, lab_role role, lab_dim3 *out, lab_err *err);
/* check(ctx, role, chosen shape) for the student and (on a GPU) the reference; a student module
 * whose choice cannot be read gets a wrong case saying why. */
void lab_choose_check(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err);
/* Times kernels[i], the student's kernel at shape i of --block, and adds "sweep" to the
 * report (a shape it cannot be launched with is a row saying why).  Returns <0 (and the report
 * says why) when the device failed. */
int lab_choose_sweep(lab_driver *d, unsigned long n, double bytes, const lab_timed_kernel *kernels,
                     size_t nk, lab_err *err);

/* lab_choose_check with --choose-block, else lab_driver_check_shapes; nothing once failed. */
void lab_choose_check_size(lab_driver *d, lab_driver_role_fn check, void *ctx, lab_err *err);

#endif
