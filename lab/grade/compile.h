/*
 * compile.h - building an exercise's files for a grading: the student's
 * file (sandboxed when the lab is) and the lab's own solutions, cached by
 * content hash (lab/build/toolchain.h).
 *
 * Call order: lab_build b; lab_build_init(&b); lab_compile_*(..., &b, err);
 * read b (b.ok false and b.log: the student's compile errors); lab_build_release(&b).
 */
#ifndef LAB_GRADE_COMPILE_H
#define LAB_GRADE_COMPILE_H

#include <signal.h>
#include <stdbool.h>

#include "lab/build/toolchain.h"
#include "lab/catalog/catalog.h"
#include "lab/grade/lab.h"

/* Compiles path for ex (cached).  0 with b->ok false when it does not compile (b->log says
 * why, b->timed_out when nvcc ran out of time); LAB_ECANCEL when cancelled. */
int lab_compile_file(lab *l, const lab_exercise *ex, const char *path, const char *arch,
                     const volatile sig_atomic_t *cancel, bool untrusted, lab_build *b,
                     lab_err *err);
/* Compiles ex's reference solution (cached); a failed build is an error of the lab's. */
int lab_compile_solution(lab *l, const lab_exercise *ex, const char *arch,
                         const volatile sig_atomic_t *cancel, lab_build *b, lab_err *err);
/* The same, for the backend that will load the build: on the simulator (sim) the PTX alone,
 * which is all it reads (no cubin is built; a later build for a GPU makes it from the cached
 * PTX); else PTX and cubin, as above.  A student's file built for the simulator still owes
 * ptxas's checks to its verdict (too much shared data is an error on every GPU): the grading
 * makes its cubin with lab_compile_file while the simulator runs (lab/grade/grade.c). */
int lab_compile_file_for(lab *l, const lab_exercise *ex, const char *path, const char *arch,
                         const volatile sig_atomic_t *cancel, bool untrusted, bool sim,
                         lab_build *b, lab_err *err);
int lab_compile_solution_for(lab *l, const lab_exercise *ex, const char *arch,
                             const volatile sig_atomic_t *cancel, bool sim, lab_build *b,
                             lab_err *err);
/* A choice exercise's (ex->choose_block) file says the block it picks with __device__ unsigned
 * ints chosenBlockX (and chosenBlockY, chosenBlockZ, 1 when missing); true, with the problem
 * in why ("declares no chosenBlockX: ...", "chooses block 48x32, which is not one of ..."),
 * when the PTX shows it picks none or one the exercise does not sweep. */
bool lab_compile_bad_choice(const lab_exercise *ex, const char *ptx, lab_buf *why);
/* The block the PTX's chosenBlockX, chosenBlockY and chosenBlockZ name (Y and Z: 1 when not
 * declared, 0 when declared without a value, as the driver reads them); false when it declares
 * no chosenBlockX. */
bool lab_compile_chosen_block(const char *ptx, lab_block_shape *out);
/* The file a driver loads for ex's build b: the PTX on the simulator (sim), else the cubin;
 * a host-code exercise's shared object on either. */
const char *lab_compile_module(const lab_exercise *ex, const lab_build *b, bool sim);

#endif
