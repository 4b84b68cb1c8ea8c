/*
 * ptx.h - what the core reads in a module's PTX text without simulating it:
 * the kernels it defines (demangled for messages) and the exercise's
 * constraints ("forbid atom", "require shfl.sync"), checked per instruction.
 */
#ifndef LAB_BUILD_PTX_H
#define LAB_BUILD_PTX_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/util/buf.h"
#include "lab/util/err.h"

/* Does the PTX define an entry with this mangled name? */
bool lab_ptx_has_entry(const char *ptx, const char *mangled);
/* Does the PTX define a module-scope variable in global memory (a __device__ variable) with this
 * name: a line ".global .align 4 .u32 name = 32;", ".visible" in front or not?  Its initializer,
 * when it is a whole number, goes in *value (0 when it has none); value may be NULL. */
bool lab_ptx_global(const char *ptx, const char *name, unsigned long *value);
/* Appends the demangled signatures of every entry, comma-separated, to out. */
int lab_ptx_list_entries(const char *ptx, lab_buf *out);
/* Appends the names of the module's own __device__ variables (`.global` declarations at module
 * scope, not `.extern` ones), comma-separated, to out. */
int lab_ptx_list_globals(const char *ptx, lab_buf *out);
/* The static shared memory a module's PTX declares (.shared, not .extern .shared), bytes. */
double lab_ptx_static_shared(const char *ptx);
/* The mangled name of `void name(params)` for a family's parameter code,
 * e.g. ("scale", "Pfi") -> "_Z5scalePfi". */
int lab_ptx_mangle(const char *name, const char *param_code, lab_buf *out);

/* Is a's PTX, whose kernel is entry_a, the same code as b's, whose kernel is entry_b: the same
 * instructions and declarations line by line, once comments, the source's file and line marks
 * (.file, .loc: nvcc -lineinfo) and the two kernels' names are set aside?  Two files that differ
 * only in comments, white space, names of variables or of the kernel compile to the same code
 * (the lab's test of an untouched starter, docs/design/grading-policy.md). */
bool lab_ptx_same_code(const char *a, const char *entry_a, const char *b, const char *entry_b);

/* Checks each constraint; on the first violation returns 1 and describes it in
 * why ("uses atom (PTX line 40: atom.global.add.u32 ...), which this exercise forbids").
 * A constraint's target is one or more alternatives joined by '|', each
 *   an opcode prefix ending at a dot:  atom, shfl.sync, bar.warp.sync
 *   a special register read:           %ntid (blockDim), %laneid
 *   loop:                              a branch back to an earlier label
 * 0 when all hold; LAB_EINVAL for a malformed constraint. */
int lab_ptx_check_constraints(const char *ptx, const char *const *constraints, size_t n,
                              lab_buf *why, lab_err *err);

/* Special registers that tell one machine from another, by what they tell.  A kernel that reads
 * them may behave otherwise on the simulator (which shows an H100's values) or another GPU:
 * `cudalab batch` flags it (reads-clock, reads-gpu-ids), a grading on the simulator says so. */
typedef enum lab_ptx_reads {
    LAB_PTX_READS_CLOCK,   /* %clock, %clock64, %globaltimer */
    LAB_PTX_READS_GPU_IDS, /* %smid, %nsmid, %warpid, %nwarpid, %gridid: where it runs */
    LAB_PTX_READS_COUNT
} lab_ptx_reads;
/* The registers of that kind, "%globaltimer or %clock": for messages */
const char *lab_ptx_reads_names(lab_ptx_reads what);
/* Does the PTX read a register of that kind? */
bool lab_ptx_reads_any(const char *ptx, lab_ptx_reads what);

#endif
