/*
 * dev-sim.c - the simulator backend of the device interface.
 *
 * The PTX SIMT simulator (lab/sim) is not part of this build yet; until it
 * is, opening this backend fails with a clear reason, so a grading without a
 * GPU ends in NO_GPU rather than pretending to have run.
 */
#include "common/dev.h"

static int
sim_open(int ordinal, lab_dev **out, lab_err *err)
{
    (void)ordinal;
    *out = NULL;
    return lab_err_set(err, LAB_ENOSYS, "the PTX simulator is not available in this build");
}

const lab_dev_ops lab_dev_sim = {
    .name = "sim",
    .open = sim_open,
};
