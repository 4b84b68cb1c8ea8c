/*
 * demomodel.h - a demo's times on the simulator, modelled: the performance model (lab/model)
 * applied to the simulator's exact counts of each launch, for the GPU of a model data file
 * (kernels/gpus/NAME.ini).  Part of the demo driver (demodrv.h), which calls it; a demo calls
 * lab_demodrv_time as on a GPU.
 *
 * A launch whose work is at most LAB_DEMOMODEL_WORK, or that has no resize, is simulated as it
 * is: its counts are exact.  A larger one is counted at LAB_DEMOMODEL_WORK and at a quarter of
 * it (resize shapes it) and the counts are scaled to its work by lab_model_scale, as grading
 * does (lab/grade/modelled.h): every count grows with the work, a fixed grid (a grid-stride
 * loop over K blocks per SM) keeps a part per launch, grown with the GPU's SMs over the
 * simulator's.  Then resize puts the launch back to its own work.
 *
 * Call order: lab_demomodel_open once (after the device is open), lab_demomodel_time for each
 * group of launches, lab_demomodel_take when a section is added (demodrv.c does these).
 */
#ifndef LAB_HARNESS_DEMOMODEL_H
#define LAB_HARNESS_DEMOMODEL_H

#include <cJSON.h>

#include "common/demodrv.h"
#include "lab/model/model.h"
#include "lab/sim/sim.h"

/* The largest work the simulator counts a launch at (the smaller count: a quarter of it). */
#define LAB_DEMOMODEL_WORK (1ul << 18)

/* Loads d->model_gpu from path and marks the report: "timing": "modelled" and "model":
 * {gpu, file, median_abs_error, within_20, kernels, counted_work}.  d->info gets the modelled
 * GPU's peak bandwidth, SM clock and L2, and d->copy_gbps the model's copy rate (peak ×
 * dram_eff): the simulator stands for that GPU. */
int lab_demomodel_open(lab_demodrv *d, const char *path, lab_err *err);

/* The counts of one launch from the simulator's metrics of it (in and out bytes from l). */
void lab_demomodel_counts(const lab_sim_metrics *m, const lab_demodrv_launch *l,
                          lab_model_counts *out);

/* The modelled time of each launch in microseconds into us[i]; each also appended to
 * d->model_launches as {kernel, grid, block, us, bound, work, counted} (counted: the works it
 * was simulated at).  A launch the simulator finds a fault in is an error. */
int lab_demomodel_time(lab_demodrv *d, lab_demodrv_launch *launches, size_t n, double *us,
                       lab_err *err);

/* A resize (demodrv.h) for a launch of one thread per element on a 1-D grid of whole blocks:
 * the grid of work / block.x blocks. */
double lab_demodrv_resize_grid(lab_demodrv_launch *l, double work);

/* The modelled launches since the last call (the caller's), or NULL when there were none. */
cJSON *lab_demomodel_take(lab_demodrv *d);

#endif
