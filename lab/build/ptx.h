/*
 * ptx.h - what the core reads in a module's PTX text without simulating it:
 * the kernels and variables it defines (demangled for messages) and the
 * special registers it reads.  The exercise's constraints: constraints.h.
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

/* Special registers that tell one machine from another, by what they tell.  A kernel that reads
 * them may behave otherwise on the simulator (which shows an H100's values) or another GPU:
 * `cudalab batch` flags it (reads-clock, reads-gpu-ids), a grading on the simulator says so. */
typedef enum lab_ptx_reads {
    LAB_PTX_READS_CLOCK,   /* the timers of lab/build/rules.h: %clock, %clock64, %globaltimer */
    LAB_PTX_READS_GPU_IDS, /* %smid, %nsmid, %warpid, %nwarpid, %gridid: where it runs */
    LAB_PTX_READS_COUNT
} lab_ptx_reads;
/* The registers of that kind, "%globaltimer or %clock": for messages */
const char *lab_ptx_reads_names(lab_ptx_reads what);
/* Does the PTX read a register of that kind? */
bool lab_ptx_reads_any(const char *ptx, lab_ptx_reads what);

#endif
