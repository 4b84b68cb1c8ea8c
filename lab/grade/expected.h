/*
 * expected.h - reference numbers the grader computes itself, from the lab's
 * own tables, where a family's driver would ask a GPU for them and there is
 * none.  One family does: host-occupancy (occupancy/calculator), whose
 * answers are the CUDA occupancy API's on a GPU and the lab's per-architecture
 * limits (lab/build/occupancy.h) without one, for the architecture graded for
 * (CUDALAB_ARCH, else the H100's sm_90).  The kernels' registers and static
 * shared memory come from ptxas (-v) on the lab's occupancy.ptx for that
 * architecture, cached in the build folder.
 *
 * The driver gets them on its command line (docs/design/runner-protocol.md):
 *   --occupancy-tables=ARCH       the source, named in its findings; opens no GPU
 *   --occupancy-device=N,...      the 12 fields of the task's OccDevice, in its order
 *   --occupancy-kernels=R:S,...   registers and static shared memory of each kernel of
 *                                 lab/catalog/occupancy-cases.def, in its order
 *   --occupancy-expected=N,...    blocks per SM for every size, kernel and block size
 */
#ifndef LAB_GRADE_EXPECTED_H
#define LAB_GRADE_EXPECTED_H

#include <signal.h>
#include <stdbool.h>

#include "lab/catalog/catalog.h"
#include "lab/grade/lab.h"
#include "lab/util/buf.h"
#include "lab/util/strvec.h"

/* Appends to args the driver arguments that hand ex's reference numbers for arch at these sizes
 * to its driver, and to said what they are ("the lab's tables for sm_90: H100, H200"): 1.
 * 0, appending no arguments, when ex's family has no tables, or arch is not in them (said says
 * so: "the lab has no tables for sm_87"); <0 on an error of the lab's (occupancy.ptx
 * unreadable, ptxas failed; LAB_ECANCEL when cancelled). */
int lab_expected_args(lab *l, const lab_exercise *ex, const char *arch, const unsigned long *sizes,
                      size_t nsizes, const volatile sig_atomic_t *cancel, lab_strvec *args,
                      lab_buf *said, lab_err *err);

#endif
