/*
 * family.h - the kernel-signature families (families.def) as a table the
 * lab reads: what an exercise's `family` key names.
 *
 * Every row lives as long as the program; lab_family_find is the only way in
 * from a name.
 */
#ifndef LAB_CATALOG_FAMILY_H
#define LAB_CATALOG_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

typedef enum lab_family_kind {
    LAB_FAMILY_KERNEL, /* a __global__ function, on the GPU or the simulator */
    LAB_FAMILY_HOST,   /* a host function, run by the driver in a child process */
} lab_family_kind;

typedef enum lab_family_size {
    LAB_FAMILY_SIZE_ELEMENTS,
    LAB_FAMILY_SIZE_MATRIX_SIDE, /* an n x (n/2+3) matrix */
    LAB_FAMILY_SIZE_BLOCKS,
    LAB_FAMILY_SIZE_SHARED_BYTES,
} lab_family_size;

typedef enum lab_family_sim_cap {
    LAB_FAMILY_SIM_CAP_COUNT, /* the size itself is capped */
    LAB_FAMILY_SIM_CAP_SIDE,  /* its square is */
    LAB_FAMILY_SIM_CAP_NONE,  /* never on the simulator */
} lab_family_sim_cap;

typedef struct lab_family {
    const char *name;
    lab_family_kind kind;
    const char *returns;
    const char *params;       /* C */
    const char *mangled;      /* Itanium */
    const char *cpu_baseline; /* never NULL: "the CPU" when the list has none */
    lab_family_size size;
    lab_family_sim_cap sim_cap;
    const char *preamble; /* type definitions the parameters need, "" when none */
} lab_family;

extern const lab_family lab_families[];
extern const size_t lab_family_count;

/* The family called name, or NULL. */
const lab_family *lab_family_find(const char *name);
/* The largest size the simulator runs when it runs at most max_elements elements. */
unsigned long lab_family_sim_limit(const lab_family *f, unsigned long max_elements);

#endif
